import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../../../../sandbox/clock/virtualClock';
import { InstanceLog, LOG_CAPACITY } from '../../../../sandbox/kubelet/logs/instanceLog';
import { fixedLines, periodicLines } from '../../../../sandbox/kubelet/logs/lineSource';
import type { LogLine } from '../../../../sandbox/kubelet/logs/lineSource';
import { styleFor, styledLine } from '../../../../sandbox/kubelet/logs/imageStyles';

const texts = (lines: readonly LogLine[]) => lines.map((l) => l.text);

describe('line sources', () => {
  test('periodic lines stop before `until`; nextAfter finds the next one', () => {
    const s = periodicLines({ first: 100, period: 10, until: 130, render: (k, at) => [{ at, text: `k${k}` }] });
    assert.deepEqual(texts(s.between(-Infinity, 1000, 100)), ['k0', 'k1', 'k2']);
    assert.deepEqual(texts(s.between(100, 120, 100)), ['k1', 'k2']);
    assert.equal(s.nextAfter(105), 110);
    assert.equal(s.nextAfter(120), undefined);
  });

  test('a long gap renders only the latest `max` iterations', () => {
    let rendered = 0;
    const s = periodicLines({ first: 0, period: 1, render: (k, at) => (rendered++, [{ at, text: String(k) }]) });
    assert.deepEqual(texts(s.between(-Infinity, 1e9, 3)), ['999999998', '999999999', '1000000000']);
    assert.equal(rendered, 3);
  });
});

describe('fixed lines and styled lines', () => {
  test('fixed lines are read in time order, lines of the same time in the order given', () => {
    const s = fixedLines([
      { at: 30, text: 'c' },
      { at: 10, text: 'a1' },
      { at: 10, text: 'a2' },
      { at: 20, text: 'b' },
    ]);
    assert.deepEqual(texts(s.between(-Infinity, 100, 10)), ['a1', 'a2', 'b', 'c']);
    assert.deepEqual(texts(s.between(10, 30, 1)), ['c']);
    assert.equal(s.nextAfter(10), 20);
    assert.equal(s.nextAfter(30), undefined);
  });

  test('a start-up line built on read has the text the style prints at its time', () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const ctx = { image: 'nginx:1.25', container: 'web', podIP: '10.244.0.9', behavior: 'runs until stopped' };
    const nginx = styleFor('nginx:1.25');
    assert.deepEqual(texts(nginx.startup(at, ctx)), [
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
      '/docker-entrypoint.sh: Configuration complete; ready for start up',
      '2026/01/02 03:04:05 [notice] 1#1: nginx/1.25.0',
      '2026/01/02 03:04:05 [notice] 1#1: start worker processes',
    ]);
    // Every image's style: its lines have their start time and a text.
    for (const image of ['nginx:1.27', 'httpd:2.4', 'redis:7', 'postgres:16', 'mysql:8.4', 'mariadb:11']) {
      const style = styleFor(image);
      const lines = style.startup(at + 1, { ...ctx, image });
      assert.ok(lines.length > 0, image);
      for (const l of lines) {
        assert.equal(l.at, at + 1);
        assert.match(l.text, /\S/, image);
        assert.doesNotMatch(l.text, /undefined|\[object/, image);
      }
    }
    const line = styledLine(nginx, at, 'warn', 'hello');
    assert.equal(line.text, nginx.line(at, 'warn', 'hello'));
    assert.equal(styledLine(nginx, at + 1000, 'warn', 'hello').text, nginx.line(at + 1000, 'warn', 'hello'));
  });
});

describe('InstanceLog', () => {
  test('reads its program lazily up to now, with appended lines in time order', () => {
    const clock = new VirtualClock(0);
    const log = new InstanceLog('id', clock, [
      fixedLines([
        { at: 0, text: 'start' },
        { at: 50, text: 'later' },
      ]),
    ]);
    assert.deepEqual(texts(log.read()), ['start']);
    clock.advance(20);
    log.append(['event']);
    clock.advance(100);
    assert.deepEqual(texts(log.read()), ['start', 'event', 'later']);
    log.end();
    log.append(['after the end']);
    assert.deepEqual(texts(log.read()), ['start', 'event', 'later']);
  });

  test('nothing the program would print after the end appears', () => {
    const clock = new VirtualClock(0);
    const log = new InstanceLog('id', clock, [
      periodicLines({ first: 0, period: 10, render: (k, at) => [{ at, text: `t${k}` }] }),
    ]);
    clock.advance(25);
    log.end();
    clock.advance(1000);
    assert.deepEqual(texts(log.read()), ['t0', 't1', 't2']);
  });

  test(`keeps the last ${LOG_CAPACITY} lines`, () => {
    const clock = new VirtualClock(0);
    const log = new InstanceLog('id', clock, [
      periodicLines({ first: 0, period: 1, render: (k, at) => [{ at, text: String(k) }] }),
    ]);
    clock.advance(5000);
    const lines = log.read();
    assert.equal(lines.length, LOG_CAPACITY);
    assert.deepEqual([lines[0].text, lines[LOG_CAPACITY - 1].text], ['4001', '5000']);
    for (let i = 0; i < 3; i++) {
      clock.advance(700);
      log.read();
    }
    assert.deepEqual([log.read()[0].text, log.read().length], ['6101', LOG_CAPACITY]);
  });

  test('followers get new lines from a background timer at each next line, and nothing after unsubscribing', () => {
    const clock = new VirtualClock(0);
    const log = new InstanceLog('id', clock, [
      periodicLines({ first: 0, period: 1000, render: (k, at) => [{ at, text: `t${k}` }] }),
    ]);
    const got: string[] = [];
    const unsubscribe = log.listen({
      lines: (ls) => got.push(...ls.map((l) => `${clock.now()} ${l.text}`)),
      end: () => got.push('end'),
    });
    assert.equal(clock.pendingTimers, 1);
    assert.equal(clock.pendingForegroundTimers, 0);
    clock.advance(2500);
    assert.deepEqual(got, ['0 t0', '1000 t1', '2000 t2']);
    unsubscribe();
    assert.equal(clock.pendingTimers, 0);
    clock.advance(2000);
    assert.deepEqual(got, ['0 t0', '1000 t1', '2000 t2']);
  });

  test('the end ends followers; closing them keeps the log', () => {
    const clock = new VirtualClock(0);
    const log = new InstanceLog('id', clock, [fixedLines([{ at: 0, text: 'a' }])]);
    const events: string[] = [];
    log.listen({ lines: (ls) => events.push(...texts(ls)), end: () => events.push('end 1') });
    log.closeListeners();
    log.listen({ lines: (ls) => events.push(...texts(ls)), end: () => events.push('end 2') });
    log.append(['b']);
    log.end();
    log.listen({ lines: () => events.push('never'), end: () => events.push('end 3 at once') });
    assert.deepEqual(events, ['end 1', 'a', 'b', 'end 2', 'end 3 at once']);
    assert.equal(clock.pendingTimers, 0);
  });
});
