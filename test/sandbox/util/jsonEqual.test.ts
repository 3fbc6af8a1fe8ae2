/**
 * `jsonEqual` (sandbox/util/json.ts) reads a plain object's members by for…in, others by their keys: the answers are
 * those of comparing each object's own keys (`Object.keys`), whatever the prototype, key order or `undefined` members.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual, setMember } from '../../../sandbox/util/json';

/** The comparison by own keys, as `jsonEqual` was written before it read plain objects by for…in. */
function byOwnKeys(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => byOwnKeys(v, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => byOwnKeys(ao[k], bo[k]));
}

const KEYS = ['a', 'b', 'c', '__proto__', '1'];

/** Objects of several makes: plain, null-prototype, with an own `__proto__` member, holding `undefined` members. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.constant(undefined),
    fc.constantFrom('x', 'y', ''),
    fc.constantFrom(0, 1),
    fc.boolean(),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc
    .tuple(fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), { maxLength: 4 }), fc.boolean())
    .map(([members, bare]) => {
      const o: Record<string, unknown> = bare ? Object.create(null) : {};
      for (const [k, v] of members) setMember(o, k, v);
      return o;
    }),
})).value;

describe('jsonEqual', () => {
  test('answers as the comparison by own keys, on objects of every make', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        assert.equal(jsonEqual(a, b), byOwnKeys(a, b));
        assert.equal(jsonEqual(a, structuredClone(a)), true);
      }),
      { numRuns: 2000, seed: 16 },
    );
  });

  test('key order and undefined members do not count; a member the other lacks does', () => {
    assert.equal(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }), true);
    assert.equal(jsonEqual({ a: 1, u: undefined }, { a: 1 }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, u: undefined }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, b: 2 }), false);
    assert.equal(jsonEqual({ a: 1, b: 2 }, { a: 1 }), false);
    const proto = Object.create(null) as Record<string, unknown>;
    proto.a = 1;
    assert.equal(jsonEqual(proto, { a: 1 }), true);
    const own: Record<string, unknown> = {};
    setMember(own, '__proto__', { x: 1 });
    assert.equal(jsonEqual(own, {}), false, 'an own __proto__ member is a member');
    const same: Record<string, unknown> = {};
    setMember(same, '__proto__', { x: 1 });
    assert.equal(jsonEqual(own, same), true);
  });

  test('an object whose prototype holds enumerable members is compared by its own keys only', () => {
    const base = { inherited: 1 };
    const a = Object.create(base) as Record<string, unknown>;
    a.own = 2;
    assert.equal(jsonEqual(a, { own: 2 }), true);
    assert.equal(jsonEqual({ own: 2 }, a), true);
    assert.equal(jsonEqual(a, { own: 2, inherited: 1 }), false);
  });
});
