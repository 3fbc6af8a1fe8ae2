/** sandbox/util/sizedCopy.ts: a shallow copy that keeps its members in the object, otherwise the spread's. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyObject } from '../../../sandbox/util/sizedCopy';
import { deepFreeze } from '../../../sandbox/util/json';

/** Own keys (in order), values, prototype and frozenness: what `{ ...obj }` would give. */
function asSpread(copy: object, obj: object): void {
  const spread = { ...obj };
  assert.deepEqual(Object.keys(copy), Object.keys(spread));
  for (const key of Object.keys(spread))
    assert.equal((copy as Record<string, unknown>)[key], (spread as Record<string, unknown>)[key], key);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal(Object.isFrozen(copy), false);
  assert.notEqual(copy, obj);
  assert.equal(JSON.stringify(copy), JSON.stringify(spread));
}

test('the same members in the same order as the spread, of frozen and unfrozen objects of any size', () => {
  const nested = { a: 1 };
  for (const count of [0, 1, 4, 5, 9, 24, 25, 40]) {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) obj[`k${i}`] = i % 3 === 0 ? nested : `v${i}`;
    asSpread(copyObject(obj), obj);
    asSpread(copyObject(deepFreeze({ ...obj })), obj);
  }
  // Integer-like keys first, as any own-key order; undefined values copied; a null prototype copied to a plain one.
  const odd = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, 2: 'two', a: undefined, 1: 'one' });
  const copy = copyObject(odd);
  asSpread(copy, odd);
  assert.ok('a' in copy);
});

test('`__proto__` is copied as an own member, never as the prototype; the copy is independent', () => {
  const obj = JSON.parse('{"name":"x","__proto__":{"polluted":true},"z":2}') as Record<string, unknown>;
  const copy = copyObject(deepFreeze(obj));
  asSpread(copy, obj);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal((copy as { polluted?: boolean }).polluted, undefined);
  copy.name = 'y';
  copy.extra = 1;
  assert.equal(obj.name, 'x');
  assert.equal('extra' in obj, false);
});

test("many copies of one shape answer alike (the maker's objects of one member count)", () => {
  const shapes: Record<string, unknown>[] = [
    { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: {}, status: {} },
    { name: 'p', namespace: 'default', uid: 'u', resourceVersion: '1', labels: {}, ownerReferences: [] },
  ];
  for (let i = 0; i < 50; i++)
    for (const s of shapes) {
      const copy = copyObject(deepFreeze({ ...s }));
      asSpread(copy, s);
      copy.added = i; // a member past the room still reads back
      assert.equal(copy.added, i);
    }
});
