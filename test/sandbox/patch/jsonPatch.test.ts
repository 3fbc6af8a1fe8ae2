import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '../../../sandbox/api/errors';
import { isApiError } from '../../../sandbox/api/errors';
import { deepFreeze } from '../../../sandbox/util/json';
import { applyJsonPatch } from '../../../sandbox/api/patch/jsonPatch';

function statusOf(fn: () => unknown): Status {
  try {
    fn();
  } catch (e) {
    if (isApiError(e)) return e.status;
    throw e;
  }
  assert.fail('expected an ApiError');
}

/** The 422 kube-apiserver sends when a JSON patch does not apply, with our added cause. */
function notApplied(detail: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: { causes: [{ reason: 'FieldValueInvalid', message: detail }] },
    code: 422,
  };
}

function badRequest(message: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'BadRequest',
    code: 400,
  };
}

/** Applies with both inputs deep-frozen, as stored objects are. */
function apply(target: unknown, ops: unknown): unknown {
  return applyJsonPatch(deepFreeze(structuredClone(target)), deepFreeze(structuredClone(ops)));
}

describe('RFC 6902 appendix A', () => {
  const ok: [string, unknown, unknown, unknown][] = [
    [
      'A.1 adding an object member',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux' }],
      { baz: 'qux', foo: 'bar' },
    ],
    [
      'A.2 adding an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    ['A.3 removing an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    [
      'A.4 removing an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { foo: ['bar', 'baz'] },
    ],
    [
      'A.5 replacing a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      'A.7 moving an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      'A.10 adding a nested member object',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    [
      'A.11 ignoring unrecognized elements',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
      { foo: 'bar', baz: 'qux' },
    ],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    [
      'A.16 adding an array value',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
  ];
  for (const [name, target, ops, result] of ok) {
    test(name, () => assert.deepEqual(apply(target, ops), result));
  }

  const failing: [string, unknown, unknown, string][] = [
    [
      'A.9 testing a value: error',
      { baz: 'qux' },
      [{ op: 'test', path: '/baz', value: 'bar' }],
      'testing value /baz failed: test failed',
    ],
    [
      'A.12 adding to a nonexistent target',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
      'add operation does not apply: doc is missing path: "/baz/bat": missing value',
    ],
    // A.13's duplicate "op" member decodes, as in every JSON parser that keeps the last one, to a remove.
    [
      'A.13 duplicate op member',
      { foo: 'bar' },
      JSON.parse('[{"op":"add","path":"/baz","value":"qux","op":"remove"}]'),
      "error in remove for path: '/baz': Unable to remove nonexistent key: baz: missing value",
    ],
    [
      'A.15 comparing strings and numbers',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: '10' }],
      'testing value /~01 failed: test failed',
    ],
  ];
  for (const [name, target, ops, detail] of failing) {
    test(name, () =>
      assert.deepEqual(
        statusOf(() => apply(target, ops)),
        notApplied(detail),
      ),
    );
  }
});

describe('more operations', () => {
  const ok: [string, unknown, unknown, unknown][] = [
    ['add replaces an existing member', { a: 1 }, [{ op: 'add', path: '/a', value: 2 }], { a: 2 }],
    ['add at the end index', { a: [1] }, [{ op: 'add', path: '/a/1', value: 2 }], { a: [1, 2] }],
    ['add at the root replaces the document', { a: 1 }, [{ op: 'add', path: '', value: { b: 2 } }], { b: 2 }],
    ['add a null value', { a: 1 }, [{ op: 'add', path: '/b', value: null }], { a: 1, b: null }],
    ['replace the root', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
    ['replace an array element', { a: [1, 2] }, [{ op: 'replace', path: '/a/0', value: 9 }], { a: [9, 2] }],
    [
      'copy an object is deep',
      { a: { b: [1] } },
      [
        { op: 'copy', from: '/a', path: '/c' },
        { op: 'add', path: '/c/b/-', value: 2 },
      ],
      { a: { b: [1] }, c: { b: [1, 2] } },
    ],
    ['move onto itself is a no-op', { a: 1 }, [{ op: 'move', from: '/a', path: '/a' }], { a: 1 }],
    [
      'keys with / and ~',
      { 'a/b': { 'c~d': 1 } },
      [{ op: 'replace', path: '/a~1b/c~0d', value: 2 }],
      { 'a/b': { 'c~d': 2 } },
    ],
    [
      'test of a whole subtree',
      { m: { l: { a: '1' } } },
      [{ op: 'test', path: '/m', value: { l: { a: '1' } } }],
      { m: { l: { a: '1' } } },
    ],
    ['null patch document means no operations', { a: 1 }, null, { a: 1 }],
    [
      'labels: test then replace',
      { metadata: { labels: { A: 'true' } } },
      [
        { op: 'test', path: '/metadata/labels/A', value: 'true' },
        { op: 'replace', path: '/metadata/labels/A', value: 'false' },
      ],
      { metadata: { labels: { A: 'false' } } },
    ],
  ];
  for (const [name, target, ops, result] of ok) {
    test(name, () => assert.deepEqual(apply(target, ops), result));
  }

  const failing: [string, unknown, unknown, string][] = [
    ['unknown op', { a: 1 }, [{ op: 'merge', path: '/a' }], 'Unexpected kind: merge: unknown object type'],
    ['missing op', { a: 1 }, [{ path: '/a' }], 'Unexpected kind: unknown: unknown object type'],
    ['missing path', { a: 1 }, [{ op: 'remove' }], 'remove operation failed to decode path: null: missing value'],
    [
      'path without leading slash',
      { a: 1 },
      [{ op: 'remove', path: 'a' }],
      'remove operation failed to decode path: "a": missing value',
    ],
    [
      'bad ~ escape',
      { a: 1 },
      [{ op: 'remove', path: '/a~2' }],
      'remove operation failed to decode path: "/a~2": missing value',
    ],
    [
      'missing value',
      { a: 1 },
      [{ op: 'add', path: '/b' }],
      'add operation does not apply: missing value for path: /b',
    ],
    [
      'missing from',
      { a: 1 },
      [{ op: 'copy', path: '/b' }],
      'copy operation failed to decode from: null: missing value',
    ],
    [
      'add past the end',
      { a: [1] },
      [{ op: 'add', path: '/a/2', value: 0 }],
      "error in add for path: '/a/2': Unable to access invalid index: 2: invalid index referenced",
    ],
    [
      'add with a leading zero index',
      { a: [1, 2] },
      [{ op: 'add', path: '/a/01', value: 0 }],
      "error in add for path: '/a/01': Unable to access invalid index: 01: invalid index referenced",
    ],
    [
      'remove out of range',
      { a: [1] },
      [{ op: 'remove', path: '/a/1' }],
      "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced",
    ],
    [
      'remove with -',
      { a: [1] },
      [{ op: 'remove', path: '/a/-' }],
      "error in remove for path: '/a/-': Unable to access invalid index: -: invalid index referenced",
    ],
    [
      'remove the root',
      { a: 1 },
      [{ op: 'remove', path: '' }],
      'remove operation does not apply: doc is missing path: "": missing value',
    ],
    [
      'replace a missing member',
      { a: 1 },
      [{ op: 'replace', path: '/b', value: 1 }],
      'replace operation does not apply: doc is missing key: /b: missing value',
    ],
    [
      'replace under a missing parent',
      { a: 1 },
      [{ op: 'replace', path: '/b/c', value: 1 }],
      'replace operation does not apply: doc is missing path: /b/c: missing value',
    ],
    [
      'replace out of range',
      { a: [1] },
      [{ op: 'replace', path: '/a/1', value: 1 }],
      'replace operation does not apply: doc is missing key: /a/1: missing value',
    ],
    [
      'move from a missing path',
      { a: 1 },
      [{ op: 'move', from: '/b', path: '/c' }],
      'move operation does not apply: doc is missing from path: /b: missing value',
    ],
    [
      'move into its own child',
      { a: { b: 1 } },
      [{ op: 'move', from: '/a', path: '/a/b/c' }],
      'move operation does not apply: from /a is a prefix of path /a/b/c',
    ],
    [
      'copy to a missing parent',
      { a: 1 },
      [{ op: 'copy', from: '/a', path: '/x/y' }],
      'add operation does not apply: doc is missing path: "/x/y": missing value',
    ],
    [
      'test a missing path',
      { a: 1 },
      [{ op: 'test', path: '/b', value: null }],
      'test operation does not apply: is missing path: /b: missing value',
    ],
    [
      'inherited members are not members',
      { a: 1 },
      [{ op: 'remove', path: '/constructor' }],
      "error in remove for path: '/constructor': Unable to remove nonexistent key: constructor: missing value",
    ],
    ['a null operation', { a: 1 }, [null], 'Unexpected kind: unknown: unknown object type'],
  ];
  for (const [name, target, ops, detail] of failing) {
    test(`${name} → 422`, () =>
      assert.deepEqual(
        statusOf(() => apply(target, ops)),
        notApplied(detail),
      ));
  }

  const malformed: [string, unknown, string][] = [
    [
      'an object instead of an array',
      { op: 'add', path: '/a', value: 1 },
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ],
    ['a string', 'add', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch'],
    ['an array of numbers', [1], 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
    ['an array of arrays', [[]], 'json: cannot unmarshal array into Go value of type jsonpatch.Operation'],
  ];
  for (const [name, ops, message] of malformed) {
    test(`${name} → 400`, () =>
      assert.deepEqual(
        statusOf(() => apply({ a: 1 }, ops)),
        badRequest(message),
      ));
  }

  test('more than 10000 operations → 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '', value: {} }));
    assert.deepEqual(
      statusOf(() => applyJsonPatch({}, ops)),
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
        reason: 'RequestEntityTooLarge',
        code: 413,
      },
    );
  });

  test('all or nothing, and the result shares nothing with the inputs', () => {
    const target = deepFreeze({ a: { list: [1] } });
    const ops = deepFreeze([{ op: 'add', path: '/b', value: { inner: [1] } }]);
    const out = applyJsonPatch(target, ops) as { a: { list: number[] }; b: { inner: number[] } };
    out.a.list.push(2);
    out.b.inner.push(2);
    assert.deepEqual([target, ops], [{ a: { list: [1] } }, [{ op: 'add', path: '/b', value: { inner: [1] } }]]);
    assert.throws(() =>
      applyJsonPatch(target, [
        { op: 'add', path: '/c', value: 1 },
        { op: 'test', path: '/c', value: 2 },
      ]),
    );
    assert.deepEqual(target, { a: { list: [1] } });
  });
});
