import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Throttle } from '../../../client/src/model/throttle';
import type { Timer } from '../../../client/src/model/throttle';

/** A timer driven by hand: `advance(ms)` runs what falls due, in order. */
class ManualTimer implements Timer {
  private time = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const first = [...this.due.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!first) break;
      this.due.delete(first[0]);
      this.time = first[1].at;
      first[1].callback();
    }
    this.time = end;
  }

  get pending(): number {
    return this.due.size;
  }
}

describe('Throttle', () => {
  test('a burst of requests runs the action once, right away', () => {
    const timer = new ManualTimer();
    const runs: number[] = [];
    const t = new Throttle(() => runs.push(timer.now()), 100, timer);
    for (let i = 0; i < 50; i++) t.schedule();
    timer.advance(0);
    assert.deepEqual(runs, [0]);
  });

  test('requests arriving continuously run the action at most once per interval, and the last one is never lost', () => {
    const timer = new ManualTimer();
    const runs: number[] = [];
    const t = new Throttle(() => runs.push(timer.now()), 100, timer);
    // A change every 10 ms for 350 ms.
    for (let ms = 0; ms <= 350; ms += 10) {
      t.schedule();
      timer.advance(10);
    }
    timer.advance(1000);
    assert.deepEqual(runs, [0, 100, 200, 300, 400]);
  });

  test('after a quiet spell the next request runs at once', () => {
    const timer = new ManualTimer();
    const runs: number[] = [];
    const t = new Throttle(() => runs.push(timer.now()), 100, timer);
    t.schedule();
    timer.advance(500);
    t.schedule();
    timer.advance(0);
    assert.deepEqual(runs, [0, 500]);
  });

  test('dispose cancels the pending run and ignores later requests', () => {
    const timer = new ManualTimer();
    const runs: number[] = [];
    const t = new Throttle(() => runs.push(timer.now()), 100, timer);
    t.schedule();
    timer.advance(0);
    t.schedule();
    t.dispose();
    t.schedule();
    timer.advance(1000);
    assert.deepEqual(runs, [0]);
    assert.equal(timer.pending, 0);
  });
});
