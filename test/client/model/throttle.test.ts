import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Throttle } from '../../../client/src/model/throttle';
import { ManualTimer } from './manualTimer';

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
