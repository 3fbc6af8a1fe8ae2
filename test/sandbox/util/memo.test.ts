/** sandbox/util/memo.ts: a bounded memo of a pure function. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedMemo } from '../../../sandbox/util/memo';

test('answers are remembered by key; past the limit a new key is computed every time; undefined is not kept', () => {
  const calls: string[] = [];
  const twice = boundedMemo(
    2,
    (a: string, b: number) => `${a}/${b}`,
    (a: string, b: number): string | undefined => {
      calls.push(`${a}/${b}`);
      return a === 'none' ? undefined : a.repeat(b);
    },
  );
  assert.equal(twice('x', 2), 'xx');
  assert.equal(twice('x', 2), 'xx');
  assert.equal(twice('x', 3), 'xxx');
  assert.deepEqual(calls, ['x/2', 'x/3']);
  assert.equal(twice('y', 1), 'y');
  assert.equal(twice('y', 1), 'y');
  assert.deepEqual(calls, ['x/2', 'x/3', 'y/1', 'y/1'], 'the third key is past the limit of 2');
  assert.equal(twice('x', 3), 'xxx');
  assert.equal(calls.length, 4, 'keys held before the limit stay remembered');
});

test('an undefined answer is computed again', () => {
  let n = 0;
  const none = boundedMemo(
    10,
    (k: string) => k,
    (): undefined => {
      n++;
      return undefined;
    },
  );
  none('a');
  none('a');
  assert.equal(n, 2);
});
