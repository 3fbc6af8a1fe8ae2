import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slowStartBatch } from '../../../../sandbox/controllers/replicaset/slowStart';

function run(
  count: number,
  failOn: ReadonlySet<number>,
): { calls: number[]; result: ReturnType<typeof slowStartBatch> } {
  const calls: number[] = [];
  const result = slowStartBatch(count, 1, () => {
    calls.push(calls.length + 1);
    if (failOn.has(calls.length)) throw new Error(`call ${calls.length}`);
  });
  return { calls, result };
}

test('slowStartBatch: batches of 1, 2, 4, … capped by what remains', () => {
  assert.deepEqual(run(10, new Set()), { calls: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], result: { successes: 10 } });
  assert.deepEqual(run(0, new Set()), { calls: [], result: { successes: 0 } });
});

test('slowStartBatch: the failing batch completes, later batches are skipped, the first error is returned', () => {
  // Batches: [1] [2,3] [4..7] [8..10]; call 2 fails, so 3 still runs and 4.. do not.
  const { calls, result } = run(10, new Set([2, 3]));
  assert.deepEqual(calls, [1, 2, 3]);
  assert.equal(result.successes, 1);
  assert.equal((result.error as Error).message, 'call 2');
  const later = run(10, new Set([5]));
  assert.deepEqual(later.calls, [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(later.result.successes, 6);
});
