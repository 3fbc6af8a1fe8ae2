/** Batcher: one `changes` and one `log` per interval, coalesced per object, in order. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Batcher } from '../../../client/src/worker/batcher';
import type { HostTimers } from '../../../client/src/worker/batcher';
import type { Notification, WatchChange } from '../../../client/src/sandbox/protocol';
import { configMap } from '../../sandbox/fixtures';

function manualTimers(): HostTimers & { fire(): void; armed: number } {
  let pending: (() => void) | undefined;
  const t = {
    armed: 0,
    setTimeout: (fn: () => void) => ((pending = fn), t.armed++, 1),
    clearTimeout: () => (pending = undefined),
    fire: () => {
      const fn = pending;
      pending = undefined;
      fn?.();
    },
  };
  return t;
}

const change = (
  type: WatchChange['type'],
  name: string,
  rv: string,
  data: Record<string, string> = {},
): WatchChange => ({
  type,
  resource: 'configmaps',
  object: { ...configMap(name, data), metadata: { name, namespace: 'default', resourceVersion: rv } },
});

const summary = (ns: Notification[]) =>
  ns.map((n) =>
    n.kind === 'changes'
      ? n.changes.map((c) => `${c.type} ${c.object.metadata.name} ${c.object.metadata.resourceVersion}`)
      : n.kind,
  );

describe('Batcher', () => {
  test('coalesces changes to one object into its latest state, at its latest position', () => {
    const sent: Notification[] = [];
    const timers = manualTimers();
    const b = new Batcher((n) => sent.push(n), 100, timers);
    b.change(change('MODIFIED', 'a', '10'));
    b.change(change('ADDED', 'b', '11'));
    b.change(change('MODIFIED', 'a', '12'));
    b.change(change('MODIFIED', 'b', '13'));
    b.change(change('ADDED', 'c', '14'));
    b.change(change('DELETED', 'c', '15'));
    b.change(change('DELETED', 'a', '16'));
    b.change(change('ADDED', 'a', '17'));
    b.log({ time: 0, component: 'x', level: 'Normal', reason: 'R', object: '', message: 'm' });
    assert.equal(timers.armed, 1, 'one timer per batch');
    assert.deepEqual(sent, []);
    timers.fire();
    assert.deepEqual(summary(sent), [['ADDED b 13', 'DELETED a 16', 'ADDED a 17'], 'log']);
    timers.fire();
    assert.equal(sent.length, 2, 'nothing pending, nothing sent');
  });

  test('a change after a flush starts a new batch', () => {
    const sent: Notification[] = [];
    const timers = manualTimers();
    const b = new Batcher((n) => sent.push(n), 100, timers);
    b.change(change('ADDED', 'a', '1'));
    timers.fire();
    b.change(change('MODIFIED', 'a', '2'));
    timers.fire();
    assert.deepEqual(summary(sent), [['ADDED a 1'], ['MODIFIED a 2']]);
    assert.equal(timers.armed, 2);
  });

  /** Timers by delay: the interval's and the quiet check's (0 ms) fire separately. */
  function timersByDelay() {
    const pending = new Map<number, { ms: number; fn: () => void }>();
    let next = 1;
    const run = (ms: number) => {
      for (const [id, t] of [...pending]) if (t.ms === ms && pending.delete(id)) t.fn();
    };
    return {
      setTimeout: (fn: () => void, ms: number) => (pending.set(next, { ms, fn }), next++),
      clearTimeout: (h: unknown) => void pending.delete(h as number),
      run,
      endOfTurn: () => run(0),
      interval: () => run(100),
      get pending() {
        return pending.size;
      },
    };
  }

  test('when the sandbox goes quiet, what is pending goes at the end of the turn, marked quiet', () => {
    const sent: Notification[] = [];
    const timers = timersByDelay();
    let idle: number | undefined = 5;
    const b = new Batcher(
      (n) => sent.push(n),
      100,
      timers,
      () => idle,
    );
    b.change(change('ADDED', 'a', '1'));
    timers.endOfTurn();
    assert.deepEqual(sent, [], 'busy (work due in 5 ms): waits');
    b.change(change('MODIFIED', 'a', '2'));
    idle = 100;
    timers.run(5);
    assert.deepEqual(summary(sent), [['ADDED a 2']], 'coalesced: the host has not seen a yet');
    assert.equal((sent[0] as { quiet?: boolean }).quiet, true);
    assert.equal(timers.pending, 0, 'the interval timer went with it');
  });

  test('a batch sent while busy is followed by an empty quiet one when the sandbox settles', () => {
    const sent: Notification[] = [];
    const timers = timersByDelay();
    let idle: number | undefined = 0;
    const b = new Batcher(
      (n) => sent.push(n),
      100,
      timers,
      () => idle,
    );
    b.change(change('MODIFIED', 'a', '3'));
    timers.endOfTurn();
    timers.interval();
    assert.deepEqual(summary(sent), [['MODIFIED a 3']]);
    assert.equal((sent[0] as { quiet?: boolean }).quiet, undefined, 'sent by the interval while busy: not quiet');
    timers.endOfTurn();
    assert.equal(sent.length, 1, 'still busy: nothing more');
    idle = undefined;
    timers.endOfTurn();
    assert.deepEqual(summary(sent), [['MODIFIED a 3'], []]);
    assert.equal((sent[1] as { quiet?: boolean }).quiet, true);
    assert.equal(timers.pending, 0, 'the host knows: no more checks');
    b.flush();
    assert.equal(sent.length, 2, 'nothing pending and the host knows it is quiet: nothing sent');
  });

  test('without idleFor, no batch is marked quiet and no check is armed', () => {
    const sent: Notification[] = [];
    const timers = timersByDelay();
    const b = new Batcher((n) => sent.push(n), 100, timers);
    b.change(change('ADDED', 'a', '1'));
    assert.equal(timers.pending, 1);
    timers.interval();
    assert.equal((sent[0] as { quiet?: boolean }).quiet, undefined);
  });
});
