import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { BackoffStore, remainingBackoff } from '../../../../sandbox/controllers/job/backoff';
import { formatIndexes, parseIndexes } from '../../../../sandbox/controllers/job/indexed';

const failedAt = (s: number): Pod => ({
  metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
  status: {
    phase: 'Failed',
    containerStatuses: [
      {
        name: 'c',
        image: 'i',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode: 1, finishedAt: new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString() } },
      },
    ],
  },
});

describe('pod failure back-off', () => {
  test('10 s doubling per consecutive failure, capped at 10 minutes', () => {
    const t = Date.UTC(2026, 0, 1);
    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
      remainingBackoff({ failuresAfterLastSuccess: n, lastFailureTime: t }, t),
    );
    assert.deepEqual(waits, [10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000]);
    assert.equal(remainingBackoff({ failuresAfterLastSuccess: 2, lastFailureTime: t }, t + 15_000), 5_000);
    assert.equal(remainingBackoff({ failuresAfterLastSuccess: 0, lastFailureTime: undefined }, t), 0);
  });

  test('a success resets the count; failures after it count again', () => {
    const store = new BackoffStore();
    store.set('k', store.next('k', [], [failedAt(1), failedAt(3)]));
    assert.deepEqual(store.get('k'), { failuresAfterLastSuccess: 2, lastFailureTime: Date.UTC(2026, 0, 1) + 3000 });
    const ok: Pod = { ...failedAt(5), status: { ...failedAt(5).status, phase: 'Succeeded' } };
    assert.deepEqual(store.next('k', [ok], [failedAt(4), failedAt(6), failedAt(7)]), {
      failuresAfterLastSuccess: 2,
      lastFailureTime: Date.UTC(2026, 0, 1) + 7000,
    });
    assert.deepEqual(store.next('k', [ok], []), { failuresAfterLastSuccess: 0, lastFailureTime: undefined });
  });
});

describe('completed indexes', () => {
  test('runs of three or more are compressed; parsing drops indexes beyond completions', () => {
    assert.equal(formatIndexes([7, 1, 3, 4, 5]), '1,3-5,7');
    assert.equal(formatIndexes([0, 1]), '0,1');
    assert.deepEqual([...parseIndexes('1,3-5,7', 5)], [1, 3, 4]);
  });
});
