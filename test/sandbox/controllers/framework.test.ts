import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { WorkQueue } from '../../../sandbox/controllers/framework/workQueue';
import { Expectations, EXPECTATIONS_TIMEOUT_MS } from '../../../sandbox/controllers/framework/expectations';
import { ItemRateLimiter } from '../../../sandbox/controllers/framework/rateLimiter';

describe('WorkQueue', () => {
  test('de-duplicates keys added before processing, in first-added order', () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    const q = new WorkQueue(clock, { reconcile: (k) => void seen.push(k) });
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.length, 2);
    clock.advance(0);
    assert.deepEqual(seen, ['a', 'b']);
  });

  test('a key added while it is processed is processed again afterwards, never concurrently', () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    let first = true;
    const q = new WorkQueue(clock, {
      reconcile: (k) => {
        seen.push(k);
        if (first) {
          first = false;
          q.add(k);
          q.add(k);
        }
      },
    });
    q.add('a');
    clock.advance(0);
    assert.deepEqual(seen, ['a', 'a']);
  });

  test('a pass run inside a reconcile (the clock advanced there) leaves the outer key processing until it returns', () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    let nested = true;
    const q = new WorkQueue(clock, {
      reconcile: (k) => {
        seen.push(k);
        if (k === 'b' && seen.length === 2) q.add('b'); // added while processed: once more, after
        if (k === 'a' && nested) {
          nested = false;
          q.add('b');
          clock.advance(0); // a nested pass: 'b', twice
          // 'a' is still being processed: added now, it waits for this reconcile to end (not a pass of its own now).
          q.add('a');
          clock.advance(0);
          seen.push('a ends');
        }
      },
    });
    q.add('a');
    clock.advance(0);
    assert.deepEqual(seen.slice(0, 4), ['a', 'b', 'b', 'a ends']);
    assert.equal(seen[4], 'a');
  });

  test('failures retry with exponential back-off; success forgets', () => {
    const clock = new VirtualClock(0);
    const times: number[] = [];
    let failures = 3;
    const errors: number[] = [];
    const q = new WorkQueue(clock, {
      reconcile: () => {
        times.push(clock.now());
        if (failures-- > 0) throw new Error('boom');
      },
      onError: (_k, _e, delay) => errors.push(delay),
    });
    q.add('a');
    clock.advance(1000);
    assert.deepEqual(times, [0, 5, 15, 35]);
    assert.deepEqual(errors, [5, 10, 20]);
  });

  test('addAfter keeps the earliest time; requeueAfter results schedule a revisit', () => {
    const clock = new VirtualClock(0);
    const times: number[] = [];
    const q = new WorkQueue(clock, {
      reconcile: () => {
        times.push(clock.now());
        return times.length === 1 ? { requeueAfter: 300 } : undefined;
      },
    });
    q.addAfter('a', 500);
    q.addAfter('a', 100);
    q.addAfter('a', 900);
    assert.equal(q.waitingCount, 1);
    clock.advance(2000);
    assert.deepEqual(times, [100, 400]);
  });

  test('shutdown cancels delayed adds', () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    const q = new WorkQueue(clock, { reconcile: (k) => void seen.push(k) });
    q.addAfter('a', 10);
    q.shutdown();
    q.add('b');
    clock.advance(100);
    assert.deepEqual(seen, []);
    assert.equal(clock.pendingTimers, 0);
  });
});

describe('ItemRateLimiter', () => {
  test('5 ms doubling, capped, per key', () => {
    const r = new ItemRateLimiter(5, 40);
    assert.deepEqual([r.when('a'), r.when('a'), r.when('a'), r.when('a'), r.when('a')], [5, 10, 20, 40, 40]);
    assert.equal(r.when('b'), 5);
    r.forget('a');
    assert.equal(r.when('a'), 5);
  });
});

describe('Expectations', () => {
  test('unsatisfied until every expected create and delete is observed', () => {
    const clock = new VirtualClock(0);
    const e = new Expectations(clock);
    assert.equal(e.satisfied('rs'), true);
    e.expectCreations('rs', 2);
    assert.equal(e.satisfied('rs'), false);
    e.creationObserved('rs');
    assert.equal(e.satisfied('rs'), false);
    e.creationObserved('rs');
    assert.equal(e.satisfied('rs'), true);
    e.expectDeletions('rs', ['ns/a', 'ns/b']);
    e.deletionObserved('rs', 'ns/a');
    e.deletionObserved('rs', 'ns/a');
    assert.equal(e.satisfied('rs'), false);
    e.deletionObserved('rs', 'ns/b');
    assert.equal(e.satisfied('rs'), true);
  });

  test('expire after five minutes, and lowering counts skipped creates', () => {
    const clock = new VirtualClock(0);
    const e = new Expectations(clock);
    e.expectCreations('rs', 3);
    e.lowerCreations('rs', 3);
    assert.equal(e.satisfied('rs'), true);
    e.expectCreations('rs', 1);
    clock.advance(EXPECTATIONS_TIMEOUT_MS);
    assert.equal(e.satisfied('rs'), false);
    clock.advance(1);
    assert.equal(e.satisfied('rs'), true);
  });
});
