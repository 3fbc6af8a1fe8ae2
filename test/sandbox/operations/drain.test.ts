/**
 * `kubectl cordon`, `uncordon` and `drain` as operations on the API verbs
 * (kubectl pkg/drain and pkg/cmd/drain). No controller runs here: budgets'
 * statuses are written as the disruption controller would write them, and
 * pods leave when the test deletes them, as their kubelet would.
 */
import { asResource } from '../../../sandbox/api/resourceObjects';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cordon, uncordon } from '../../../sandbox/operations/cordon';
import { drainNode, goDuration } from '../../../sandbox/operations/drain';
import type { DrainHandle, DrainOptions } from '../../../sandbox/operations/drain';
import type { KubeObject } from '../../../sandbox/api/types';
import { newHarness } from '../controllers/harness';
import type { Harness } from '../controllers/harness';
import { addNode, addPod } from '../controllers/nodelifecycle/fixtures';
import { statusOf } from '../fixtures';

const owner = (kind: string, name: string, apiVersion = 'apps/v1') => [
  { apiVersion, kind, name, uid: `uid-${name}`, controller: true },
];

function setup(): Harness {
  const h = newHarness('drain');
  addNode(h, 'node-1');
  addNode(h, 'node-2');
  h.api.create({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent' }] } },
    },
  });
  addPod(h, 'web-1', 'node-1', { ownerReferences: owner('ReplicaSet', 'web') });
  addPod(h, 'agent-x', 'node-1', { ownerReferences: owner('DaemonSet', 'agent') });
  addPod(h, 'static', 'node-1', { annotations: { 'kubernetes.io/config.mirror': 'abc' } });
  addPod(h, 'web-2', 'node-2', { ownerReferences: owner('ReplicaSet', 'web') });
  return h;
}

const unschedulable = (h: Harness, n: string) =>
  (h.api.get('nodes', undefined, n).spec as { unschedulable?: boolean }).unschedulable;

/** Drains, recording each line with the virtual seconds since the start. */
function drain(h: Harness, node: string, options: DrainOptions): { handle: DrainHandle; lines: string[] } {
  const start = h.clock.now();
  const lines: string[] = [];
  const handle = drainNode(h.api, h.clock, node, options, {
    onLine: (line) => lines.push(`${(h.clock.now() - start) / 1000}s ${line.stream}: ${line.text}`),
  });
  return { handle, lines };
}

/** A budget over app=db whose status allows `allowed` disruptions (as the disruption controller writes it). */
function budget(h: Harness, allowed: number): void {
  let pdb = h.api.tryGet('poddisruptionbudgets', 'default', 'db');
  pdb ??= asResource(
    'poddisruptionbudgets',
    h.api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'db' } }, maxUnavailable: 1 },
    }),
  );
  h.api.updateStatus({
    ...pdb,
    status: {
      observedGeneration: 1,
      disruptionsAllowed: allowed,
      currentHealthy: 2 + allowed,
      desiredHealthy: 2,
      expectedPods: 3,
    },
  });
}

function dbPod(h: Harness, name: string): KubeObject {
  const p = addPod(h, name, 'node-1', { ownerReferences: owner('StatefulSet', 'db') });
  return h.api.patch('pods', 'default', p.metadata.name!, 'merge', { metadata: { labels: { app: 'db' } } });
}

describe('cordon and uncordon', () => {
  test('patch spec.unschedulable; a second call says "already" and writes nothing; 404 for an unknown node', () => {
    const h = setup();
    assert.equal(cordon(h.api, 'node-1').message, 'node/node-1 cordoned');
    const rv = h.api.get('nodes', undefined, 'node-1').metadata.resourceVersion;
    assert.deepEqual(
      [cordon(h.api, 'node-1').message, h.api.get('nodes', undefined, 'node-1').metadata.resourceVersion],
      ['node/node-1 already cordoned', rv],
    );
    assert.equal(unschedulable(h, 'node-1'), true);
    assert.equal(uncordon(h.api, 'node-1').message, 'node/node-1 uncordoned');
    assert.equal(unschedulable(h, 'node-1'), undefined);
    assert.equal(uncordon(h.api, 'node-1').message, 'node/node-1 already uncordoned');
    assert.equal(statusOf(() => cordon(h.api, 'nope')).message, 'nodes "nope" not found');
  });
});

describe('drain', () => {
  test('evicts controlled pods, skips mirror and (ignored) DaemonSet pods, waits for them, and leaves other nodes', () => {
    const h = setup();
    h.record(['pods']);
    const { handle, lines } = drain(h, 'node-1', { ignoreDaemonSets: true });
    assert.equal(unschedulable(h, 'node-1'), true);
    assert.deepEqual(handle.pending, ['default/web-1']);
    h.advance(3000);
    // The pod's kubelet finishes it after 3 s.
    h.api.delete('pods', 'default', 'web-1', { gracePeriodSeconds: 0 });
    h.advance(1000);
    assert.deepEqual(lines, [
      '0s stdout: node/node-1 cordoned',
      '0s stderr: Warning: ignoring DaemonSet-managed Pods: default/agent-x',
      '0s stdout: evicting pod default/web-1',
      '4s stdout: pod/web-1 evicted',
      '4s stdout: node/node-1 drained',
    ]);
    assert.deepEqual(handle.outcome && { ok: handle.outcome.ok, evicted: handle.outcome.evicted }, {
      ok: true,
      evicted: ['default/web-1'],
    });
    assert.deepEqual(h.actions(), [
      'MODIFIED pods default/web-1', // DisruptionTarget
      'MODIFIED pods default/web-1', // deletionTimestamp
      'DELETED pods default/web-1',
    ]);
  });

  test("pods kubectl refuses stop the drain before any eviction, with kubectl's words; the node stays cordoned", () => {
    const h = setup();
    addPod(h, 'bare', 'node-1');
    addPod(h, 'cache', 'node-1', {
      ownerReferences: owner('ReplicaSet', 'cache'),
      volumes: [{ name: 'tmp', emptyDir: {} }],
    });
    addPod(h, 'orphan', 'node-1', { ownerReferences: owner('DaemonSet', 'gone') });
    h.record(['pods']);
    const { handle, lines } = drain(h, 'node-1', {});
    const error =
      '[cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/agent-x, ' +
      'cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare, ' +
      'cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache, ' +
      'cannot delete daemonsets.apps "gone" not found: default/orphan]';
    assert.deepEqual(handle.outcome && { ok: handle.outcome.ok, error: handle.outcome.error }, { ok: false, error });
    assert.deepEqual(lines, [
      '0s stdout: node/node-1 cordoned',
      `0s stderr: error: unable to drain node "node-1" due to error: ${error}, continuing command...`,
      '0s stderr: There are pending nodes to be drained:',
      '0s stderr:  node-1',
    ]);
    assert.deepEqual(h.actions(), []);
    assert.equal(unschedulable(h, 'node-1'), true);
  });

  test('--force, --ignore-daemonsets and --delete-emptydir-data let them go; finished pods always go', () => {
    const h = setup();
    addPod(h, 'bare', 'node-1');
    addPod(h, 'cache', 'node-1', {
      ownerReferences: owner('ReplicaSet', 'cache'),
      volumes: [{ name: 'tmp', emptyDir: {} }],
    });
    addPod(h, 'orphan', 'node-1', { ownerReferences: owner('DaemonSet', 'gone') });
    const done = addPod(h, 'done', 'node-1');
    h.api.updateStatus({ ...done, status: { phase: 'Succeeded' } });
    const { handle, lines } = drain(h, 'node-1', {
      force: true,
      ignoreDaemonSets: true,
      deleteEmptyDirData: true,
      gracePeriodSeconds: 0,
    });
    assert.deepEqual(lines, [
      '0s stdout: node/node-1 cordoned',
      // Only the last filter's message stays: local storage's warning is overwritten, as in kubectl.
      '0s stderr: Warning: ignoring DaemonSet-managed Pods: default/agent-x; deleting Pods that declare no controller: default/bare',
      '0s stdout: evicting pod default/bare',
      '0s stdout: pod/bare evicted',
      '0s stdout: evicting pod default/cache',
      '0s stdout: pod/cache evicted',
      '0s stdout: evicting pod default/done',
      '0s stdout: pod/done evicted',
      '0s stdout: evicting pod default/orphan',
      '0s stdout: pod/orphan evicted',
      '0s stdout: evicting pod default/web-1',
      '0s stdout: pod/web-1 evicted',
      '0s stdout: node/node-1 drained',
    ]);
    assert.equal(handle.outcome?.ok, true);
  });

  test("a budget allowing no disruption: 429, retried every 5 s with kubectl's message, until it allows one", () => {
    const h = newHarness('drain-pdb');
    addNode(h, 'node-1');
    dbPod(h, 'db-0');
    dbPod(h, 'db-1');
    budget(h, 1);
    const { handle, lines } = drain(h, 'node-1', { gracePeriodSeconds: 0 });
    assert.deepEqual(handle.blocked, ['default/db-1']);
    h.advance(10_000);
    // The replacement of db-0 is Ready: the controller allows one disruption again.
    budget(h, 1);
    h.advance(5000);
    const refused = `Cannot evict pod as it would violate the pod's disruption budget.`;
    assert.deepEqual(lines, [
      '0s stdout: node/node-1 cordoned',
      '0s stdout: evicting pod default/db-0',
      '0s stdout: pod/db-0 evicted',
      '0s stdout: evicting pod default/db-1',
      `0s stderr: error when evicting pods/"db-1" -n "default" (will retry after 5s): ${refused}`,
      '5s stdout: evicting pod default/db-1',
      `5s stderr: error when evicting pods/"db-1" -n "default" (will retry after 5s): ${refused}`,
      '10s stdout: evicting pod default/db-1',
      `10s stderr: error when evicting pods/"db-1" -n "default" (will retry after 5s): ${refused}`,
      '15s stdout: evicting pod default/db-1',
      '15s stdout: pod/db-1 evicted',
      '15s stdout: node/node-1 drained',
    ]);
    assert.deepEqual(handle.blocked, []);
    assert.equal(handle.outcome?.ok, true);
  });

  test("--timeout: kubectl's global timeout ends the drain, naming what is left", () => {
    const h = newHarness('drain-timeout');
    addNode(h, 'node-1');
    dbPod(h, 'db-0');
    budget(h, 0);
    const { handle, lines } = drain(h, 'node-1', { timeoutMs: 12_000 });
    h.advance(20_000);
    const error = 'error when evicting pods/"db-0" -n "default": global timeout reached: 12s';
    assert.deepEqual(lines.slice(-6), [
      '15s stdout: evicting pod default/db-0',
      `15s stderr: There are pending pods in node "node-1" when an error occurred: ${error}`,
      '15s stderr: pod/db-0',
      `15s stderr: error: unable to drain node "node-1" due to error: ${error}, continuing command...`,
      '15s stderr: There are pending nodes to be drained:',
      '15s stderr:  node-1',
    ]);
    assert.deepEqual(handle.outcome && { ok: handle.outcome.ok, error: handle.outcome.error }, { ok: false, error });
    assert.equal(h.clock.pendingForegroundTimers, 0, 'nothing left running');
  });

  test('--disable-eviction deletes the pods without asking the budget; an unknown node is 404', () => {
    const h = newHarness('drain-delete');
    addNode(h, 'node-1');
    dbPod(h, 'db-0');
    budget(h, 0);
    const { handle, lines } = drain(h, 'node-1', { disableEviction: true, gracePeriodSeconds: 0 });
    assert.deepEqual(lines, [
      '0s stdout: node/node-1 cordoned',
      '0s stdout: pod/db-0 deleted',
      '0s stdout: node/node-1 drained',
    ]);
    assert.equal(handle.outcome?.ok, true);
    assert.equal(statusOf(() => drainNode(h.api, h.clock, 'nope')).code, 404);
  });

  test('done() resolves with the outcome; cancel() stops a waiting drain', async () => {
    const h = newHarness('drain-cancel');
    addNode(h, 'node-1');
    dbPod(h, 'db-0');
    budget(h, 0);
    const { handle } = drain(h, 'node-1', {});
    h.advance(7000);
    handle.cancel();
    const outcome = await handle.done();
    assert.deepEqual([outcome.ok, outcome.error], [false, 'drain cancelled']);
    assert.equal(h.clock.pendingForegroundTimers, 0);
  });

  test("durations print as Go's time.Duration does", () => {
    assert.deepEqual(
      [goDuration(120_000), goDuration(30_000), goDuration(3_600_000), goDuration(1500)],
      ['2m0s', '30s', '1h0m0s', '1.5s'],
    );
  });
});
