/** SwitchableClock: real time at a speed, pause, exact steps, and jumps through virtual time. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SwitchableClock } from '../../../sandbox/clock/switchableClock';
import { runUntilSettled } from '../../../sandbox/cluster/settle';

/** A host whose time and timers the test moves by hand. */
function fakeHost() {
  let now = 0;
  let timer: { fn: () => void; at: number } | undefined;
  return {
    hostNow: () => now,
    hostSetTimeout: (fn: () => void, ms: number) => ((timer = { fn, at: now + ms }), timer),
    hostClearTimeout: (h: unknown) => {
      if (h === timer) timer = undefined;
    },
    /** Moves host time forward, firing the host timer when due. */
    advance(ms: number) {
      const end = now + ms;
      while (timer && timer.at <= end) {
        const t = timer;
        timer = undefined;
        now = t.at;
        t.fn();
      }
      now = end;
    },
  };
}

describe('SwitchableClock', () => {
  test('says how long (host time, at its speed) until the next foreground timer; background ones do not count', () => {
    const host = fakeHost();
    const clock = new SwitchableClock({ start: 0, speed: 20, ...host });
    assert.equal(clock.hostMsUntilNextWork(), undefined);
    clock.setTimer(100, () => undefined, { background: true });
    assert.equal(clock.hostMsUntilNextWork(), undefined);
    clock.setTimer(2000, () => undefined);
    assert.equal(clock.hostMsUntilNextWork(), 100);
    host.advance(30);
    assert.equal(clock.hostMsUntilNextWork(), 70);
    clock.pause();
    assert.equal(clock.hostMsUntilNextWork(), undefined, 'paused: nothing will run');
    clock.resume();
    assert.equal(clock.hostMsUntilNextWork(), 70);
    host.advance(70);
    assert.equal(clock.hostMsUntilNextWork(), undefined, 'run: nothing left');
  });

  test('follows host time at its speed and fires timers in clock time', () => {
    const host = fakeHost();
    const clock = new SwitchableClock({ start: 1000, speed: 10, ...host });
    const fired: number[] = [];
    clock.setTimer(500, () => fired.push(clock.now()));
    host.advance(49);
    assert.deepEqual(fired, []);
    host.advance(1);
    assert.deepEqual(fired, [1500]);
    assert.equal(clock.now(), 1500);
  });

  test('stands still while paused; step runs due timers and moves time exactly', () => {
    const host = fakeHost();
    const clock = new SwitchableClock({ start: 0, ...host });
    const fired: string[] = [];
    clock.setTimer(100, () => {
      fired.push(`a@${clock.now()}`);
      clock.setTimer(50, () => fired.push(`b@${clock.now()}`));
    });
    clock.pause();
    host.advance(10_000);
    assert.equal(clock.now(), 0);
    assert.deepEqual(fired, []);
    clock.step(120);
    assert.equal(clock.now(), 120);
    assert.deepEqual(fired, ['a@100']);
    clock.step(30);
    assert.deepEqual(fired, ['a@100', 'b@150']);
    assert.equal(clock.isPaused, true);
    clock.resume();
    host.advance(5);
    assert.equal(clock.now(), 155);
  });

  test('a jump runs a virtual-time loop to the end, then real time resumes from there', () => {
    const host = fakeHost();
    const clock = new SwitchableClock({ start: 0, ...host });
    let ticks = 0;
    const tick = () => {
      ticks++;
      if (ticks < 5) clock.setTimer(1000, tick);
    };
    clock.setTimer(1000, tick);
    host.advance(100);
    const report = clock.jump((v) => runUntilSettled(v, 60_000, 0));
    assert.deepEqual([report.settled, report.lastActivityAt, ticks], [true, 5000, 5]);
    assert.equal(clock.now(), 5000);
    host.advance(10);
    assert.equal(clock.now(), 5010);
  });

  test('timers set while the inner clock lags fall due after now(), not earlier', () => {
    const host = fakeHost();
    const clock = new SwitchableClock({ start: 0, ...host });
    clock.setTimer(1_000_000, () => undefined, { background: true });
    host.advance(300);
    const fired: number[] = [];
    clock.setTimer(100, () => fired.push(clock.now()));
    host.advance(99);
    assert.deepEqual(fired, []);
    host.advance(1);
    assert.deepEqual(fired, [400]);
  });
});
