import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { VirtualClock, DEFAULT_EPOCH } from '../../sandbox/clock/virtualClock';
import { formatMicroTime, formatTimestamp } from '../../sandbox/clock/clock';
import { NAME_ALPHABET, SeededRandom } from '../../sandbox/clock/random';
import type { QueuedTimer } from '../../sandbox/clock/timerQueue';
import { TimerQueue } from '../../sandbox/clock/timerQueue';

describe('VirtualClock', () => {
  test('runs timers in due order, FIFO within an instant, each at its own time', () => {
    const clock = new VirtualClock();
    const log: string[] = [];
    const at = (label: string) => () => log.push(`${label}@${clock.now() - DEFAULT_EPOCH}`);
    clock.setTimer(300, at('c'));
    clock.setTimer(100, at('a1'));
    clock.setTimer(100, at('a2'));
    clock.setTimer(200, () => {
      at('b')();
      clock.setTimer(0, at('b-child'));
      clock.setTimer(50, at('b-later'));
    });
    const ran = clock.advance(1000);
    assert.deepEqual(log, ['a1@100', 'a2@100', 'b@200', 'b-child@200', 'b-later@250', 'c@300']);
    assert.equal(ran, 6);
    assert.equal(clock.now(), DEFAULT_EPOCH + 1000);
    assert.equal(clock.pendingTimers, 0);
  });

  test('cleared timers never run; advance stops at the target', () => {
    const clock = new VirtualClock(0);
    const log: number[] = [];
    const h = clock.setTimer(10, () => log.push(10));
    clock.setTimer(20, () => log.push(20));
    clock.setTimer(30, () => log.push(30));
    clock.clearTimer(h);
    clock.advance(25);
    assert.deepEqual(log, [20]);
    assert.equal(clock.now(), 25);
    assert.equal(clock.nextTimerAt(), 30);
    assert.equal(clock.runNext(), true);
    assert.deepEqual(log, [20, 30]);
    assert.equal(clock.runNext(), false);
  });

  test('a handle clears only its own clock’s timer, and once run or cleared keeps nothing of its function', () => {
    const a = new VirtualClock(0);
    const b = new VirtualClock(0);
    const log: string[] = [];
    const ha = a.setTimer(10, () => log.push('a'));
    const hb = b.setTimer(10, () => log.push('b'));
    // Both are their clock's first timer: the same id, not the same timer.
    assert.equal(ha.id, hb.id);
    b.clearTimer(ha);
    a.clearTimer({ id: ha.id });
    a.advance(10);
    b.advance(10);
    assert.deepEqual(log, ['a', 'b']);
    const payload = { big: 'closed over' };
    const h = a.setTimer(5, () => log.push(payload.big));
    a.clearTimer(h);
    assert.ok(!(h as unknown as { fn: () => void }).fn.toString().includes('payload'), 'cleared: the function let go');
    const h2 = a.setTimer(5, () => log.push(payload.big));
    a.advance(5);
    assert.deepEqual(log, ['a', 'b', 'closed over']);
    assert.ok(!(h2 as unknown as { fn: () => void }).fn.toString().includes('payload'), 'run: the function let go');
    a.clearTimer(h2);
    assert.equal(a.pendingTimers, 0);
  });

  test('negative and non-finite delays run at the current instant', () => {
    const clock = new VirtualClock(0);
    const log: number[] = [];
    clock.setTimer(-5, () => log.push(clock.now()));
    clock.setTimer(Number.NaN, () => log.push(clock.now()));
    clock.advance(0);
    assert.deepEqual(log, [0, 0]);
  });
});

describe('timestamps', () => {
  test('Kubernetes timestamps have second precision; MicroTime has microseconds', () => {
    assert.equal(formatTimestamp(Date.UTC(2026, 0, 1, 12, 0, 5, 999)), '2026-01-01T12:00:05Z');
    assert.equal(formatMicroTime(Date.UTC(2026, 0, 1, 12, 0, 5, 120)), '2026-01-01T12:00:05.120000Z');
  });

  test('formatTimestamp writes what toISOString writes, whatever the order of the instants asked', () => {
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const near = fc.integer({ min: Date.UTC(2025, 11, 31, 23, 59, 0), max: Date.UTC(2026, 0, 1, 0, 1, 0) });
    // Before 1970, years 0000 and 9999 at their edges, and signed six-digit years.
    const far = fc.integer({ min: -8.64e15, max: 8.64e15 });
    const edges = fc.constantFrom(
      -1,
      0,
      999,
      1000,
      Date.UTC(0, 0, 1) - 1,
      -62_167_219_200_000,
      -62_167_219_200_001,
      253_402_300_799_999,
      253_402_300_800_000,
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(near, far, edges), { maxLength: 30 }), (instants) => {
        for (const ms of instants) assert.equal(formatTimestamp(ms), iso(ms), String(ms));
      }),
      { seed: 16, numRuns: 2000 },
    );
  });
});

describe('SeededRandom', () => {
  test('same seed, same sequence; different seed, different sequence', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const c = new SeededRandom(43);
    const seqA = Array.from({ length: 5 }, () => a.nextUint32());
    assert.deepEqual(
      seqA,
      Array.from({ length: 5 }, () => b.nextUint32()),
    );
    assert.notDeepEqual(
      seqA,
      Array.from({ length: 5 }, () => c.nextUint32()),
    );
  });

  test('uuids are version 4 and names use the upstream alphabet', () => {
    const r = new SeededRandom('x');
    for (let i = 0; i < 100; i++) {
      assert.match(r.uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const s = r.string(5);
      assert.equal(s.length, 5);
      for (const ch of s) assert.ok(NAME_ALPHABET.includes(ch));
    }
  });

  test('a uuid is its four 32-bit draws in hex, version and variant set (seeded histories keep their uids)', () => {
    const r = new SeededRandom('uid');
    const draws = new SeededRandom('uid');
    for (let i = 0; i < 2_000; i++) {
      const hex = Array.from({ length: 4 }, () => draws.nextUint32().toString(16).padStart(8, '0')).join('');
      const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
      const want = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
      assert.equal(r.uuid(), want);
    }
  });

  test('state round-trips and forks do not depend on use', () => {
    const r = new SeededRandom(7);
    r.next();
    const state = r.getState();
    const expected = [r.next(), r.next()];
    const s = new SeededRandom(0);
    s.setState(state);
    assert.deepEqual([s.next(), s.next()], expected);
    const fresh = new SeededRandom(7).fork('kubelet-1').next();
    assert.equal(r.fork('kubelet-1').next(), fresh);
    assert.notEqual(r.fork('kubelet-2').next(), fresh);
  });
});

describe('TimerQueue against a sorted list (random operations)', () => {
  for (const seed of [1, 2, 3, 4]) {
    test(`seed ${seed}: pops in (due, set order), skipping cancelled timers, across growth`, () => {
      const r = new SeededRandom(`timer-queue/${seed}`);
      const q = new TimerQueue();
      // The model: every live timer with its set order; the next is the one with the least (due, order).
      const model: { id: number; due: number; order: number; background: boolean }[] = [];
      let order = 0;
      let maxLive = 0;
      const handles = new Map<number, QueuedTimer>();
      const popped: string[] = [];
      const expected: string[] = [];
      for (let step = 0; step < 3000; step++) {
        // Pushes outnumber the rest for the first half (the heap grows past its first arrays), then fewer.
        const op = r.int(10) - (step < 1500 ? 2 : -1);
        if (op < 5 || model.length === 0) {
          // Few distinct dues, so ties are common; some fractional.
          const due = r.int(4) === 0 ? r.int(20) + 0.5 : r.int(40);
          const background = r.int(4) === 0;
          const id = order;
          handles.set(
            id,
            q.push(due, () => popped.push(`${id}@${due}`), background),
          );
          model.push({ id, due, order: order++, background });
        } else if (op < 7) {
          const i = r.int(model.length);
          q.cancel(handles.get(model[i].id)!);
          model.splice(i, 1);
        } else {
          model.sort((a, b) => a.due - b.due || a.order - b.order);
          assert.equal(q.peek(), handles.get(model[0].id));
          const next = model.shift()!;
          expected.push(`${next.id}@${next.due}`);
          q.pop()!();
        }
        assert.equal(q.size, model.length);
        maxLive = Math.max(maxLive, model.length);
        assert.equal(q.foregroundSize, model.filter((t) => !t.background).length);
        const fg = model.filter((t) => !t.background).sort((a, b) => a.due - b.due || a.order - b.order);
        assert.equal(q.nextForegroundDue(), fg[0]?.due);
      }
      while (model.length > 0) {
        model.sort((a, b) => a.due - b.due || a.order - b.order);
        const next = model.shift()!;
        expected.push(`${next.id}@${next.due}`);
        q.pop()!();
      }
      assert.equal(q.pop(), undefined);
      // A timer run or cancelled is settled: cancelling it again changes nothing.
      for (const h of handles.values()) q.cancel(h);
      assert.equal(q.size, 0);
      assert.equal(q.foregroundSize, 0);
      assert.deepEqual(popped, expected);
      assert.ok(expected.length > 500);
      assert.ok(maxLive > 200, `the heap grew (${maxLive} live timers at most)`);
    });
  }
});
