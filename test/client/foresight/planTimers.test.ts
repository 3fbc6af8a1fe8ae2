import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlanTimers, SAVE_HOLD_MAX_MS } from '../../../client/src/foresight/planTimers';
import { ManualTimer } from '../model/manualTimer';

const DELAY = 400;

function setup() {
  const timer = new ManualTimer();
  const timers = new PlanTimers(timer);
  const runs: string[] = [];
  const run = (what: string) => () => runs.push(`${what}@${timer.now()}`);
  return { timer, timers, runs, run };
}

describe('foresight plan timers', () => {
  test('a plan runs after its delay; a newer request replaces the pending one', () => {
    const { timer, timers, runs, run } = setup();
    timers.schedule('a', DELAY, run('first'));
    timer.advance(300);
    timers.schedule('a', DELAY, run('second'));
    timer.advance(1000);
    assert.deepEqual(runs, ['second@700']);
    assert.equal(timers.pending('a'), false);
  });

  test('a plan due during a save waits for the save to end, then the usual delay', () => {
    const { timer, timers, runs, run } = setup();
    timers.schedule('a', DELAY, run('edit'));
    timer.advance(300);
    timers.hold('a', run('held'));
    timer.advance(200); // the edit's plan fell due at 400, inside the save: not run
    assert.deepEqual(runs, []);
    assert.equal(timers.pending('a'), true);
    timers.release('a', DELAY);
    timer.advance(399);
    assert.deepEqual(runs, []);
    timer.advance(1);
    assert.deepEqual(runs, ['held@900']);
  });

  test('a save with no plan pending plans nothing after it; a request during the save runs after it', () => {
    const { timer, timers, runs, run } = setup();
    timers.hold('a', run('held'));
    timers.release('a', DELAY);
    timer.advance(5000);
    assert.deepEqual(runs, []);
    timers.hold('a', run('held'));
    timers.schedule('a', 0, run('during')); // e.g. format-on-save changed the text
    timer.advance(100);
    assert.deepEqual(runs, []);
    timers.release('a', DELAY);
    timer.advance(DELAY);
    assert.deepEqual(runs, ['during@5500']);
  });

  test('other documents are not held', () => {
    const { timer, timers, runs, run } = setup();
    timers.hold('a', run('a'));
    timers.schedule('b', DELAY, run('b'));
    timer.advance(DELAY);
    assert.deepEqual(runs, ['b@400']);
  });

  test('a save that never ends (its write failed) lets go after the hold limit', () => {
    const { timer, timers, runs, run } = setup();
    timers.schedule('a', DELAY, run('edit'));
    timers.hold('a', run('held'));
    timer.advance(SAVE_HOLD_MAX_MS - 1);
    assert.deepEqual(runs, []);
    timer.advance(1);
    assert.deepEqual(runs, [`held@${SAVE_HOLD_MAX_MS}`]);
    timers.schedule('a', DELAY, run('next')); // no longer held
    timer.advance(DELAY);
    assert.deepEqual(runs, [`held@${SAVE_HOLD_MAX_MS}`, `next@${SAVE_HOLD_MAX_MS + DELAY}`]);
  });

  test('cancel and dispose leave nothing to run', () => {
    const { timer, timers, runs, run } = setup();
    timers.schedule('a', DELAY, run('a'));
    timers.hold('b', run('b'));
    timers.schedule('b', 0, run('b2'));
    timers.cancel('a');
    timers.dispose();
    timer.advance(10_000);
    assert.deepEqual(runs, []);
    assert.equal(timer.pending, 0);
  });
});
