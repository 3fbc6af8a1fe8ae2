import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { QUIET_WINDOW_MS, runUntilSettled } from '../../../sandbox/cluster/settle';

function heartbeat(clock: VirtualClock, every: number, onTick: () => void): void {
  const tick = () => {
    onTick();
    clock.setTimer(every, tick, { background: true });
  };
  clock.setTimer(every, tick, { background: true });
}

describe('runUntilSettled', () => {
  test('runs foreground work, then a quiet window of background ticks', () => {
    const clock = new VirtualClock(0);
    const ran: number[] = [];
    clock.setTimer(1000, () => {
      ran.push(clock.now());
      clock.setTimer(4000, () => ran.push(clock.now()));
    });
    let ticks = 0;
    heartbeat(clock, 10_000, () => ticks++);
    const report = runUntilSettled(clock, 600_000);
    assert.deepEqual(ran, [1000, 5000]);
    assert.deepEqual(report, { settled: true, lastActivityAt: 5000, elapsedMs: 5000 + QUIET_WINDOW_MS });
    assert.equal(ticks, 6);
  });

  test('work that a background tick discovers is still reached', () => {
    const clock = new VirtualClock(0);
    let silentSince: number | undefined;
    let evicted = -1;
    clock.setTimer(2000, () => (silentSince = clock.now()));
    heartbeat(clock, 5000, () => {
      if (silentSince !== undefined && evicted < 0 && clock.now() - silentSince > 20_000) {
        clock.setTimer(50_000, () => (evicted = clock.now()));
        evicted = 0;
      }
    });
    const report = runUntilSettled(clock, 600_000);
    assert.equal(report.settled, true);
    assert.equal(evicted, 75_000);
    assert.equal(report.lastActivityAt, 75_000);
  });

  test('stops at the limit when work never ends', () => {
    const clock = new VirtualClock(0);
    const loop = () => clock.setTimer(10_000, loop);
    loop();
    const report = runUntilSettled(clock, 95_000);
    assert.deepEqual(report, { settled: false, lastActivityAt: 90_000, elapsedMs: 95_000 });
    assert.equal(clock.now(), 95_000);
  });
});
