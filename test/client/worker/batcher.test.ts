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
});
