/**
 * The product's lessons, end to end on the virtual clock: a whole cluster
 * (API server, controllers, scheduler, three kubelets) reconciling manifests
 * after crashes, node failures and manual changes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { isPodReady } from '../../../sandbox/controllers/util/pods';
import { podStatusText } from '../../../sandbox/printers/podStatus';

function web(replicas = 3, extra: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, ...(annotations ? { annotations } : {}) },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
          ],
        },
      },
      ...extra,
    },
  };
}

const pods = (c: Cluster, selector = 'app=web') =>
  c.api.list('pods', { namespace: 'default', labelSelector: selector }).items as (Pod & KubeObject)[];
const runningReady = (c: Cluster) =>
  pods(c).filter((p) => !p.metadata.deletionTimestamp && p.status?.phase === 'Running' && isPodReady(p));
const deployment = (c: Cluster) => c.api.get('deployments', 'default', 'web') as Deployment & KubeObject;

function newCluster(seed = 1): Cluster {
  const c = new Cluster({ seed });
  c.start();
  c.runUntilSettled();
  return c;
}

describe('reconciliation scenarios', () => {
  test('3 replicas come up Running and Ready, spread over the nodes', () => {
    const c = newCluster();
    c.apply(web(3));
    const r = c.runUntilSettled();
    assert.equal(r.settled, true, r.pending.join('\n'));
    assert.deepEqual(r.pending, []);
    assert.equal(runningReady(c).length, 3);
    const d = deployment(c);
    assert.equal(d.status?.availableReplicas, 3);
    assert.equal(d.status?.conditions?.find((x) => x.type === 'Available')?.status, 'True');
    assert.equal(new Set(pods(c).map((p) => p.spec?.nodeName)).size, 3);
  });

  test('a killed pod is replaced', () => {
    const c = newCluster();
    c.apply(web(3));
    c.runUntilSettled();
    const victim = pods(c)[0].metadata.name!;
    c.killPod('default', victim);
    c.runUntilSettled();
    const names = runningReady(c).map((p) => p.metadata.name);
    assert.equal(names.length, 3);
    assert.ok(!names.includes(victim));
    assert.equal(c.api.tryGet('pods', 'default', victim), undefined);
  });

  test('a crashing container goes CrashLoopBackOff with growing back-off', () => {
    const c = newCluster();
    c.apply(web(1, {}, { 'sandbox.kube-reconcile.dev/behavior': 'crash-after=5s exit=1' }));
    const restarts: number[] = [];
    const statuses = new Set<string>();
    c.api.watch('pods', { namespace: 'default' }, (e) => {
      const p = e.object as Pod & KubeObject;
      statuses.add(podStatusText(p));
      const count = p.status?.containerStatuses?.[0]?.restartCount ?? 0;
      if (count > restarts.length) restarts.push(c.clock.now());
    });
    c.runFor(10 * 60_000);
    assert.ok(statuses.has('CrashLoopBackOff'), [...statuses].join(','));
    assert.ok(statuses.has('Error'), [...statuses].join(','));
    assert.ok(restarts.length >= 4, `restarts ${restarts.length}`);
    const gaps = restarts.slice(1).map((t, i) => t - restarts[i]);
    for (let i = 2; i < gaps.length; i++) assert.ok(gaps[i] >= gaps[i - 1], `back-off grows: ${gaps.join(', ')}`);
  });

  test("a failed node's pods are evicted after their toleration and replaced elsewhere", () => {
    const c = newCluster();
    c.apply(web(3));
    c.runUntilSettled();
    const node = pods(c)[0].spec!.nodeName!;
    const failedAt = c.clock.now();
    c.failNode(node);
    const r = c.runUntilSettled(30 * 60_000);
    assert.equal(r.settled, true);
    const n = c.api.get('nodes', undefined, node) as KubeObject & { spec: { taints?: { key: string }[] } };
    assert.ok(n.spec.taints?.some((t) => t.key === 'node.kubernetes.io/unreachable'));
    const live = runningReady(c);
    assert.equal(live.length, 3);
    assert.ok(live.every((p) => p.spec?.nodeName !== node));
    assert.ok(r.lastActivityAt - failedAt >= 300_000, 'eviction waits for the 300 s toleration');
  });

  test('a manual scale of the ReplicaSet is reverted by the Deployment', () => {
    const c = newCluster();
    c.apply(web(3));
    c.runUntilSettled();
    const rs = c.api.list('replicasets', { namespace: 'default' }).items[0];
    c.scale('replicasets', 'default', rs.metadata.name!, 5);
    c.runUntilSettled();
    assert.equal((c.api.get('replicasets', 'default', rs.metadata.name!) as ReplicaSet & KubeObject).spec?.replicas, 3);
    assert.equal(runningReady(c).length, 3);
  });

  test('a rolling update stays within maxSurge and maxUnavailable on every event', () => {
    const c = newCluster();
    c.apply(web(4));
    c.runUntilSettled();
    const violations: string[] = [];
    c.api.watch('pods', { namespace: 'default' }, () => {
      const all = pods(c).filter((p) => !p.metadata.deletionTimestamp);
      const available = all.filter((p) => isPodReady(p)).length;
      if (all.length > 4 + 1) violations.push(`${all.length} pods`);
      if (available < 4 - 1) violations.push(`${available} available`);
    });
    const next = web(4);
    (next.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image =
      'nginx:1.28';
    c.apply(next);
    c.runUntilSettled();
    assert.deepEqual(violations, []);
    assert.ok(runningReady(c).every((p) => p.spec?.containers[0].image === 'nginx:1.28'));
    assert.equal(runningReady(c).length, 4);
  });

  test('Recreate never runs old and new pods together', () => {
    const c = newCluster();
    c.apply(web(3, { strategy: { type: 'Recreate' } }));
    c.runUntilSettled();
    const overlaps: string[] = [];
    c.api.watch('pods', { namespace: 'default' }, () => {
      const images = new Set(
        pods(c)
          .filter((p) => p.status?.phase === 'Running' || p.status?.phase === 'Pending')
          .map((p) => p.spec?.containers[0].image),
      );
      if (images.size > 1) overlaps.push([...images].join('+'));
    });
    const next = web(3, { strategy: { type: 'Recreate' } });
    (next.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image =
      'nginx:1.28';
    c.apply(next);
    c.runUntilSettled();
    assert.deepEqual(overlaps, []);
    assert.equal(runningReady(c).length, 3);
  });

  test('rollback restores the old template and bumps its revision', () => {
    const c = newCluster();
    c.apply(web(2));
    c.runUntilSettled();
    const firstRs = c.api.list('replicasets', { namespace: 'default' }).items[0];
    const next = web(2);
    (next.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image =
      'nginx:1.28';
    c.apply(next);
    c.runUntilSettled();
    const live = cloneJson(deployment(c)) as KubeObject;
    const oldTemplate = cloneJson(
      (firstRs.spec as { template: { metadata: { labels: Record<string, string> } } }).template,
    );
    delete (oldTemplate.metadata.labels as Record<string, string | undefined>)['pod-template-hash'];
    (live.spec as { template: unknown }).template = oldTemplate;
    c.api.update(live);
    c.runUntilSettled();
    const rs = c.api.get('replicasets', 'default', firstRs.metadata.name!);
    assert.equal((rs.spec as { replicas: number }).replicas, 2);
    assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.ok(runningReady(c).every((p) => p.spec?.containers[0].image === 'nginx:1.27'));
  });

  test('an unschedulable pod gets the exact upstream message', () => {
    const c = newCluster();
    const big = web(1);
    (
      big.spec as { template: { spec: { containers: { resources: unknown }[] } } }
    ).template.spec.containers[0].resources = { requests: { cpu: '64' } };
    c.apply(big);
    c.runUntilSettled();
    const [p] = pods(c);
    const cond = p.status?.conditions?.find((x) => x.type === 'PodScheduled');
    assert.equal(cond?.status, 'False');
    assert.equal(cond?.reason, 'Unschedulable');
    assert.equal(
      cond?.message,
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
    const ev = c.api.list('events', {
      namespace: 'default',
      fieldSelector: `involvedObject.name=${p.metadata.name},reason=FailedScheduling`,
    }).items;
    assert.equal(ev.length, 1);
    assert.equal(ev[0].message, cond?.message);
  });

  test('same seed, same history', () => {
    const history = (seed: number) => {
      const c = newCluster(seed);
      c.apply(web(3));
      c.runUntilSettled();
      return pods(c)
        .map((p) => `${p.metadata.name}@${p.spec?.nodeName}`)
        .sort()
        .join(' ');
    };
    assert.equal(history(7), history(7));
  });
});
