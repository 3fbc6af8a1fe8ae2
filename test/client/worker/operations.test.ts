/**
 * The worker's running operations: the tree's Drain goes on after its answer,
 * its lines and end go out as `operation` notifications, and the status says
 * which pods wait on a PodDisruptionBudget.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { Operations } from '../../../client/src/worker/operations';
import type { Notification } from '../../../client/src/sandbox/protocol';

function cluster(minAvailable: number): Cluster {
  const c = new Cluster({ nodes: 1, seed: 5 });
  c.start();
  const labels = { app: 'web' };
  c.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  });
  c.apply({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec: { minAvailable, selector: { matchLabels: labels } },
  });
  assert.ok(c.runUntilSettled().settled);
  return c;
}

describe('worker operations', () => {
  test('a drain blocked by a budget: answered at once, then its lines, its status, and its end', () => {
    const c = cluster(2);
    const sent: Notification[] = [];
    const ops = new Operations((n) => sent.push(n));
    const started = ops.drain(c.api, c.clock, 'node-1');
    assert.equal(typeof started.operation, 'number');
    const id = started.operation!;
    const lines = started.message.split('\n');
    assert.equal(lines[0], 'node/node-1 cordoned');
    assert.match(
      lines[2],
      /^error when evicting pods\/"web-[a-z0-9-]+" -n "default" \(will retry after 5s\): Cannot evict pod/,
    );
    const [status] = ops.status();
    assert.equal(status.title, 'Drain node-1');
    assert.match(
      status.detail,
      /^waiting: a PodDisruptionBudget allows no disruption for default\/web-\S+, default\/web-\S+ \(retrying every 5s\)$/,
    );
    c.runFor(5000);
    assert.ok(
      sent.some((n) => n.kind === 'operation' && n.id === id && n.line?.startsWith('evicting pod default/web-')),
    );
    // Lowering the budget lets them go: with one node cordoned, the replacements stay Pending, and the drain ends.
    const pdb = c.api.get('poddisruptionbudgets', 'default', 'web');
    c.api.update({ ...pdb, spec: { ...(pdb.spec as object), minAvailable: 0 } });
    c.runUntilSettled();
    const last = sent[sent.length - 1];
    assert.deepEqual(last, {
      kind: 'operation',
      id: 1,
      title: 'Drain node-1',
      done: { ok: true, message: 'node/node-1 drained' },
    });
    assert.deepEqual(ops.status(), []);
    c.stop();
  });

  test("a drain kubectl's filters refuse fails at once, with nothing left running", () => {
    const c = cluster(0);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
    });
    const ops = new Operations(() => assert.fail('no notification'));
    assert.throws(() => ops.drain(c.api, c.clock, 'node-1'), {
      message: 'cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare',
    });
    assert.deepEqual(ops.status(), []);
    c.stop();
  });

  test('a failed drain stays in the status while its node is cordoned: until Uncordon or a new drain', () => {
    const c = cluster(0);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
    });
    const ops = new Operations(() => undefined);
    const message =
      'cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare';
    assert.throws(() => ops.drain(c.api, c.clock, 'node-1'), { message });
    // kubectl cordons first: the node stays cordoned, and the failure with it.
    assert.equal(c.api.get('nodes', undefined, 'node-1').spec?.unschedulable, true);
    assert.deepEqual(ops.refusedDrains(c.api), [{ node: 'node-1', message }]);
    c.runFor(60_000);
    assert.deepEqual(ops.refusedDrains(c.api), [{ node: 'node-1', message }]);
    // Uncordoned (here by the API, as kubectl would): the hint goes.
    const node = c.api.get('nodes', undefined, 'node-1');
    c.api.update({ ...node, spec: { ...node.spec, unschedulable: false } });
    assert.deepEqual(ops.refusedDrains(c.api), []);
    // Failing again, then draining again once the bare pod is gone: the new drain's outcome replaces it.
    assert.throws(() => ops.drain(c.api, c.clock, 'node-1'), { message });
    assert.equal(ops.refusedDrains(c.api).length, 1);
    c.api.delete('pods', 'default', 'bare', { gracePeriodSeconds: 0 });
    c.runUntilSettled();
    ops.drain(c.api, c.clock, 'node-1');
    assert.deepEqual(ops.refusedDrains(c.api), []);
    // A drain of a node that does not exist fails before cordoning anything: nothing is kept.
    assert.throws(() => ops.drain(c.api, c.clock, 'node-9'));
    assert.deepEqual(ops.refusedDrains(c.api), []);
    ops.dispose();
    c.stop();
  });

  test('a drain that fails while it waits is kept too, once its end is said', () => {
    const c = cluster(2);
    const sent: Notification[] = [];
    const ops = new Operations((n) => sent.push(n));
    const { operation } = ops.drain(c.api, c.clock, 'node-1');
    assert.deepEqual(ops.refusedDrains(c.api), [], 'still running: not failed');
    // A second budget over the same pods: the next eviction is refused outright (500), and the drain fails.
    c.api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web-2', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    });
    c.runFor(6000);
    const done = sent.find((n) => n.kind === 'operation' && n.id === operation && n.done)!;
    assert.ok(done && done.kind === 'operation' && done.done?.ok === false, JSON.stringify(sent.at(-1)));
    assert.deepEqual(ops.refusedDrains(c.api), [{ node: 'node-1', message: done.done!.message }]);
    assert.deepEqual(ops.status(), []);
    c.stop();
  });

  test('dispose cancels what is still running: its end is said, nothing more', () => {
    const c = cluster(2);
    const sent: Notification[] = [];
    const ops = new Operations((n) => sent.push(n));
    const { operation } = ops.drain(c.api, c.clock, 'node-1');
    ops.dispose();
    assert.deepEqual(ops.status(), []);
    c.runFor(10_000);
    assert.deepEqual(sent, [
      { kind: 'operation', id: operation, title: 'Drain node-1', done: { ok: false, message: 'drain cancelled' } },
    ]);
    c.stop();
  });
});
