/**
 * A whole cluster in virtual time: `kubectl drain` against a Deployment
 * guarded by a PodDisruptionBudget. The disruption controller keeps the
 * budget's status, the eviction subresource honours it, and the drain
 * retries every 5 s until a replacement is Ready — as on a real cluster
 * (upstream: kubectl pkg/drain `evictPods`; pkg/registry/core/pod/storage
 * eviction.go; pkg/controller/disruption).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { drainNode } from '../../../sandbox/operations/drain';
import type { KubeObject } from '../../../sandbox/api/types';

const ready = (p: KubeObject): boolean =>
  ((p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );
const nodeOf = (p: KubeObject): string | undefined => (p.spec as { nodeName?: string }).nodeName;

function webCluster(): Cluster {
  const c = new Cluster({ nodes: 2, seed: 7 });
  c.start();
  const labels = { app: 'web' };
  c.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 4,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  });
  c.apply({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
  });
  assert.ok(c.runUntilSettled().settled);
  return c;
}

describe('drain with a PodDisruptionBudget (virtual time)', () => {
  test('the second pod waits on 429 until the first one’s replacement is Ready; the budget always holds', () => {
    const c = webCluster();
    const pods = () => c.api.list('pods', { labelSelector: 'app=web' }).items;
    const original = new Set(pods().map((p) => p.metadata.name!));
    const onNode1 = pods()
      .filter((p) => nodeOf(p) === 'node-1')
      .map((p) => p.metadata.name!)
      .sort();
    assert.equal(onNode1.length, 2, 'two web pods on node-1');

    // Watch every change: the healthy count must never drop below desiredHealthy (3), and note when a
    // replacement first becomes Ready.
    const start = c.clock.now();
    let lowest = Number.POSITIVE_INFINITY;
    let replacementReadyAt: number | undefined;
    const watch = c.api.watch('pods', { resourceVersion: c.api.resourceVersion }, () => {
      const healthy = pods().filter((p) => ready(p) && !p.metadata.deletionTimestamp);
      lowest = Math.min(lowest, healthy.length);
      if (replacementReadyAt === undefined && healthy.some((p) => !original.has(p.metadata.name!)))
        replacementReadyAt = c.clock.now() - start;
    });

    const lines: { at: number; text: string }[] = [];
    const handle = drainNode(
      c.api,
      c.clock,
      'node-1',
      { ignoreDaemonSets: true, deleteEmptyDirData: true },
      { onLine: (line) => lines.push({ at: c.clock.now() - start, text: line.text }) },
    );
    assert.deepEqual(handle.blocked, [`default/${onNode1[1]}`], 'the budget allows one disruption: the second waits');
    const result = c.runUntilSettled();
    watch.stop();

    assert.ok(result.settled);
    assert.equal(handle.outcome?.ok, true, JSON.stringify(lines));
    const [first, second] = onNode1;
    const refusal = `error when evicting pods/"${second}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`;
    const refusals = lines.filter((l) => l.text === refusal).map((l) => l.at);
    assert.ok(refusals.length >= 1, 'refused at least once');
    assert.deepEqual(
      refusals.map((t) => t % 5000),
      refusals.map(() => 0),
      'retried every 5 s',
    );
    const accepted = Math.max(...lines.filter((l) => l.text === `evicting pod default/${second}`).map((l) => l.at));
    assert.ok(replacementReadyAt !== undefined && replacementReadyAt <= accepted, 'evicted only after a replacement');
    assert.ok(accepted - replacementReadyAt < 5000, 'at the first retry after the replacement is Ready');
    assert.equal(lowest, 3, 'never fewer than minAvailable healthy pods');
    assert.deepEqual(handle.outcome?.evicted, [`default/${first}`, `default/${second}`]);
    assert.equal(lines[lines.length - 1].text, 'node/node-1 drained');

    const now = pods();
    assert.deepEqual(
      [now.length, now.filter(ready).length, now.filter((p) => nodeOf(p) === 'node-2').length],
      [4, 4, 4],
    );
    const status = c.api.get('poddisruptionbudgets', 'default', 'web').status!;
    assert.deepEqual(
      [status.expectedPods, status.desiredHealthy, status.currentHealthy, status.disruptionsAllowed],
      [4, 3, 4, 1],
    );
    c.stop();
  });

  test('a budget that can never allow a disruption keeps the drain waiting (and the cluster busy) until it is fixed', () => {
    const c = webCluster();
    const pdb = c.api.get('poddisruptionbudgets', 'default', 'web');
    c.api.update({ ...pdb, spec: { minAvailable: 4, selector: { matchLabels: { app: 'web' } } } });
    c.runFor(1000);
    const handle = drainNode(c.api, c.clock, 'node-1', { ignoreDaemonSets: true });
    const stuck = c.runUntilSettled(60_000);
    assert.equal(stuck.settled, false, 'retrying every 5 s is pending work');
    const outcome = () => handle.outcome;
    assert.equal(outcome(), undefined);
    assert.equal(handle.blocked.length, 2);
    // Scaling up makes room: the new pods land on node-2 (node-1 is cordoned) and the budget allows disruptions.
    c.scale('deployments', 'default', 'web', 6);
    assert.ok(c.runUntilSettled().settled);
    assert.equal(outcome()?.ok, true);
    c.stop();
  });
});
