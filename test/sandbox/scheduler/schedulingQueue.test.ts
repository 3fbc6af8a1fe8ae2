import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { SchedulingQueue } from '../../../sandbox/scheduler/schedulingQueue';
import { pod } from './fixtures';

describe('SchedulingQueue', () => {
  test('back-off doubles from 1 s to at most 10 s per pod', () => {
    const q = new SchedulingQueue(new VirtualClock(), () => undefined);
    q.addOrUpdate('ns/p', pod('p'), 0, false);
    const qp = q.pop()!;
    const seen: number[] = [];
    for (let n = 1; n <= 6; n++) {
      qp.unschedulableCount = n;
      seen.push(q.backoffDuration(qp));
    }
    assert.deepEqual(seen, [1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  test('a failed pod waits for an event that concerns its plugins, then backs off, then is active', () => {
    const clock = new VirtualClock();
    const q = new SchedulingQueue(clock, () => undefined);
    q.addOrUpdate('ns/p', pod('p'), 0, false);
    const qp = q.pop()!;
    q.unschedulable(qp, 1 << 6);
    q.moveAll(1 << 4);
    assert.deepEqual(q.counts(), { active: 0, backoff: 0, unschedulable: 1 });
    q.moveAll(1 << 6);
    assert.deepEqual(q.counts(), { active: 0, backoff: 1, unschedulable: 0 });
    assert.equal(clock.nextForegroundTimerAt()! - clock.now(), 1000);
    clock.advance(1000);
    assert.deepEqual(q.counts(), { active: 1, backoff: 0, unschedulable: 0 });
    assert.equal(q.pop(), qp);
  });

  test('an event during an attempt sends its failure to back-off, not to wait', () => {
    const clock = new VirtualClock();
    const q = new SchedulingQueue(clock, () => undefined);
    q.addOrUpdate('ns/p', pod('p'), 0, false);
    const qp = q.pop()!;
    q.moveAll(1 << 6);
    q.unschedulable(qp, 1 << 6);
    assert.deepEqual(q.counts(), { active: 0, backoff: 1, unschedulable: 0 });
  });

  test('higher priority first, then arrival order', () => {
    const q = new SchedulingQueue(new VirtualClock(), () => undefined);
    q.addOrUpdate('ns/a', pod('a'), 0, false);
    q.addOrUpdate('ns/b', pod('b'), 10, false);
    q.addOrUpdate('ns/c', pod('c'), 0, false);
    q.delete('ns/c');
    q.addOrUpdate('ns/d', pod('d'), 0, false);
    assert.deepEqual([q.pop()?.key, q.pop()?.key, q.pop()?.key, q.pop()], ['ns/b', 'ns/a', 'ns/d', undefined]);
  });
});
