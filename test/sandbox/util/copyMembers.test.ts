import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JsonCopyError, copyJsonCounted, copyMembersCounted, deepFreeze } from '../../../sandbox/util/json';

const LIMITS = { maxDepth: 6, maxBytes: 400 };

/** What a copy yields: the value and its nulls, or the error's kind and words. */
function outcome(fn: () => unknown): unknown {
  try {
    return { ok: fn() };
  } catch (e) {
    if (e instanceof JsonCopyError) return { error: e.kind, message: e.message };
    throw e;
  }
}

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.boolean(),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'spec', 'status', 'metadata'), tie('value'), { maxKeys: 4 }),
})).object as fc.Arbitrary<Record<string, unknown>>;

describe('copyMembersCounted', () => {
  test('copies as copyJsonCounted does and names the members holding nulls', () => {
    const body = { kind: 'Pod', metadata: { name: 'p', labels: { a: null } }, spec: { x: [1, 2] }, status: null };
    const { value, nullMembers } = copyMembersCounted(body);
    assert.deepEqual(value, copyJsonCounted(body).value);
    assert.notEqual(value.spec, body.spec);
    assert.deepEqual(nullMembers, ['metadata', 'status']);
  });

  test('keep: the other members are checked but left out; their nulls are not named', () => {
    const body = { kind: 'Pod', spec: { a: null }, status: { b: 1 } };
    const { value, nullMembers } = copyMembersCounted(body, undefined, new Set(['kind', 'status']));
    assert.deepEqual(value, { kind: 'Pod', status: { b: 1 } });
    assert.deepEqual(nullMembers, []);
    assert.throws(
      () => copyMembersCounted({ kind: 'Pod', spec: { n: Number.NaN } }, undefined, new Set(['kind'])),
      /NaN is not a JSON number/,
    );
  });

  test('the same errors as a whole copy, whatever is kept, frozen or not, checked once or again', () => {
    fc.assert(
      fc.property(json, fc.subarray(['a', 'b', 'spec', 'status', 'metadata']), fc.boolean(), (body, kept, freeze) => {
        if (freeze) deepFreeze(body);
        const keep = new Set(kept);
        const whole = outcome(() => copyJsonCounted(body, LIMITS).value);
        for (let round = 0; round < 2; round++) {
          const part = outcome(() => copyMembersCounted(body, LIMITS, keep).value) as { ok?: object };
          if ('ok' in part && 'ok' in (whole as object)) {
            const expected = Object.fromEntries(
              Object.entries((whole as { ok: object }).ok).filter(([k]) => keep.has(k)),
            );
            assert.deepEqual(part.ok, expected);
          } else assert.deepEqual(part, whole);
        }
      }),
      { numRuns: 2000, seed: 16 },
    );
  });

  test('a remembered frozen member still counts toward the limits of the body it is in', () => {
    const spec = deepFreeze({ text: 'x'.repeat(200), deep: { a: { b: { c: {} } } } });
    const keep = new Set(['status']);
    assert.doesNotThrow(() => copyMembersCounted({ spec }, LIMITS, keep));
    assert.throws(() => copyMembersCounted({ spec, other: spec }, LIMITS, keep), /larger than the limit/);
    assert.throws(() => copyMembersCounted({ x: { y: { spec } } }, LIMITS, keep), /maximum depth of 6/);
  });
});
