import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deepFreeze } from '../../../sandbox/util/json';
import { applyMergePatch, createMergePatch } from '../../../sandbox/api/patch/jsonMergePatch';

describe('applyMergePatch: RFC 7386', () => {
  test('section 3 example', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    assert.deepEqual(applyMergePatch(target, patch), {
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  // Appendix A, one row per example: original, patch, result.
  const appendix: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  appendix.forEach(([original, patch, result], i) => {
    test(`appendix A #${i + 1}: ${JSON.stringify(original)} + ${JSON.stringify(patch)}`, () => {
      assert.deepEqual(
        applyMergePatch(deepFreeze(structuredClone(original)), deepFreeze(structuredClone(patch))),
        result,
      );
    });
  });

  test('never mutates or shares its inputs', () => {
    const target = deepFreeze({ metadata: { labels: { a: '1' } }, spec: { list: [{ x: 1 }] } });
    const patch = deepFreeze({ metadata: { labels: { b: '2' } }, spec: { extra: { y: [1] } } });
    const out = applyMergePatch(target, patch) as {
      metadata: { labels: Record<string, string> };
      spec: { list: { x: number }[]; extra: { y: number[] } };
    };
    out.metadata.labels.c = '3';
    out.spec.list[0].x = 9;
    out.spec.extra.y.push(2);
    assert.deepEqual(target, { metadata: { labels: { a: '1' } }, spec: { list: [{ x: 1 }] } });
    assert.deepEqual(patch, { metadata: { labels: { b: '2' } }, spec: { extra: { y: [1] } } });
  });

  test('a __proto__ member is kept as a member', () => {
    const patch = JSON.parse('{"a":{"__proto__":{"polluted":true}}}') as unknown;
    const out = applyMergePatch({}, patch) as { a: object };
    assert.deepEqual(Object.keys(out.a), ['__proto__']);
    assert.equal(Object.getPrototypeOf(out.a), Object.prototype);
  });
});

describe('createMergePatch', () => {
  const cases: [string, unknown, unknown, unknown][] = [
    ['equal objects give an empty patch', { a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }, {}],
    ['changed scalar', { a: 1, b: 2 }, { a: 1, b: 3 }, { b: 3 }],
    ['removed member becomes null', { a: 1, b: 2 }, { a: 1 }, { b: null }],
    [
      'nested change only',
      { m: { l: { x: '1', y: '2' } } },
      { m: { l: { x: '1', y: '3', z: '4' } } },
      { m: { l: { y: '3', z: '4' } } },
    ],
    ['arrays are replaced whole', { a: [1, 2, 3] }, { a: [1, 3] }, { a: [1, 3] }],
    ['object replaced by scalar', { a: { b: 1 } }, { a: 'x' }, { a: 'x' }],
    ['non-object target gives the new value', [1], { a: 1 }, { a: 1 }],
  ];
  for (const [name, from, to, patch] of cases) {
    test(name, () => {
      assert.deepEqual(createMergePatch(from, to), patch);
      assert.deepEqual(applyMergePatch(from, patch), to);
    });
  }
});

describe('properties', () => {
  // JSON without nulls: a merge patch cannot set a member to null.
  const { value: json } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.string({ maxLength: 4 }),
      fc.integer(),
      fc.boolean(),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 4, noNullPrototype: true }),
    ),
  }));
  const object = fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 5, noNullPrototype: true });

  test('applying createMergePatch(a, b) to a yields b, without touching either', () => {
    fc.assert(
      fc.property(object, object, (a, b) => {
        deepFreeze(a);
        deepFreeze(b);
        const patch = createMergePatch(a, b);
        assert.deepEqual(applyMergePatch(a, patch), b);
      }),
      { numRuns: 300 },
    );
  });

  test('createMergePatch(a, a) is empty and applying {} changes nothing', () => {
    fc.assert(
      fc.property(object, (a) => {
        assert.deepEqual(createMergePatch(a, a), {});
        assert.deepEqual(applyMergePatch(a, {}), a);
      }),
    );
  });
});
