/** RefreshPacer: fires spaced for VS Code's 200 ms debounce; a settled sandbox shows at once, a busy one after a hold. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BUSY_HOLD_MS, REFRESH_SPACING_MS, RefreshPacer } from '../../../client/src/model/refreshPacer';
import type { Timer } from '../../../client/src/model/throttle';

/** A timer driven by hand: `advance(ms)` runs what falls due, in order. */
class ManualTimer implements Timer {
  private time = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();
  now = (): number => this.time;
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
}

function paced(fires = () => true) {
  const timer = new ManualTimer();
  const runs: number[] = [];
  const pacer = new RefreshPacer(() => {
    runs.push(timer.now());
    return fires();
  }, timer);
  return { timer, runs, pacer };
}

describe('RefreshPacer', () => {
  test('spaces fires beyond VS Code’s 200 ms debounce, so that each renders at once', () => {
    assert.ok(REFRESH_SPACING_MS > 200);
  });

  test('a settled sandbox refreshes on the next turn, and bursts of requests coalesce', () => {
    const { timer, runs, pacer } = paced();
    pacer.request(true);
    pacer.request(true);
    assert.deepEqual(runs, []);
    timer.advance(0);
    assert.deepEqual(runs, [0]);
  });

  test('a busy sandbox is given the hold to settle; settling meanwhile refreshes at once', () => {
    const { timer, runs, pacer } = paced();
    pacer.request(false);
    timer.advance(80);
    assert.deepEqual(runs, [], 'held while busy');
    pacer.request(true);
    timer.advance(0);
    assert.deepEqual(runs, [80], 'settled: at once');
    timer.advance(1000);
    assert.deepEqual(runs, [80], 'the held run was replaced, not added');
  });

  test('a burst that stays busy shows after the hold, then once per spacing', () => {
    const { timer, runs, pacer } = paced();
    for (let t = 0; t < 1000; t += 20) {
      pacer.request(false);
      timer.advance(20);
    }
    assert.equal(runs[0], BUSY_HOLD_MS);
    for (let i = 1; i < runs.length; i++) assert.ok(runs[i] - runs[i - 1] >= REFRESH_SPACING_MS, `${runs}`);
    assert.ok(runs.length >= 4, `${runs}`);
  });

  test('a settled change soon after a fire waits until a fire renders at once, no longer', () => {
    const { timer, runs, pacer } = paced();
    pacer.request(true);
    timer.advance(50);
    pacer.request(true);
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [0, REFRESH_SPACING_MS]);
  });

  test('a refresh that fired nothing does not hold the next one back; a whole-tree fire does', () => {
    let fire = false;
    const { timer, runs, pacer } = paced(() => fire);
    pacer.request(true);
    timer.advance(10);
    fire = true;
    pacer.request(true);
    timer.advance(0);
    assert.deepEqual(runs, [0, 10]);
    timer.advance(500);
    pacer.fired();
    pacer.request(true);
    timer.advance(0);
    assert.deepEqual(runs, [0, 10]);
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [0, 10, 510 + REFRESH_SPACING_MS]);
  });

  test('disposed: nothing runs', () => {
    const { timer, runs, pacer } = paced();
    pacer.request(false);
    pacer.dispose();
    pacer.request(true);
    timer.advance(1000);
    assert.deepEqual(runs, []);
  });
});
