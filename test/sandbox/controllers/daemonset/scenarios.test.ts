/**
 * DaemonSets end to end on the virtual clock, against upstream's
 * pkg/controller/daemon (daemon_controller.go `NodeShouldRunDaemonPod`,
 * `podsShouldBeOnNode`, `updateDaemonSetStatus`; update.go `rollingUpdate`)
 * and what test/e2e/apps/daemon_set.go checks: a pod per eligible node,
 * nodes joining, failing and leaving, taints, node selectors, rolling updates.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { Cluster } from '../../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../../sandbox/api/types';
import { isPodAvailable } from '../../../../sandbox/controllers/util/pods';

type Spec = NonNullable<DaemonSet['spec']>;

function daemonSet(extra: Partial<Spec> = {}, podSpec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'nginx:1.27' }], ...podSpec },
      },
      ...extra,
    },
  };
}

function newCluster(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.start();
  c.runUntilSettled();
  return c;
}

type P = Pod & KubeObject;
const pods = (c: Cluster) => c.api.list('pods', { namespace: 'default', labelSelector: 'app=agent' }).items as P[];
const live = (c: Cluster) => pods(c).filter((p) => !p.metadata.deletionTimestamp);
const nodesOf = (c: Cluster) =>
  live(c)
    .map((p) => p.spec?.nodeName ?? '<unbound>')
    .sort();
const ds = (c: Cluster) => c.api.get('daemonsets', 'default', 'agent') as DaemonSet & KubeObject;
const allNodes = (c: Cluster) =>
  c.api
    .list('nodes')
    .items.map((n) => n.metadata.name!)
    .sort();

function setImage(c: Cluster, image: string): void {
  c.api.patch('daemonsets', 'default', 'agent', 'merge', {
    spec: { template: { spec: { containers: [{ name: 'agent', image }] } } },
  });
}

describe('DaemonSet: placement', () => {
  test('one pod per node, pinned by matchFields node affinity, with the automatic tolerations', () => {
    const c = newCluster();
    c.apply(daemonSet());
    const r = c.runUntilSettled();
    assert.deepEqual(r.pending, []);
    assert.deepEqual(nodesOf(c), allNodes(c));
    const p = live(c).find((x) => x.spec?.nodeName === 'node-2')!;
    assert.deepEqual(p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution, {
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] }],
    });
    assert.deepEqual(
      p.spec?.tolerations?.map((t) => `${t.key}:${t.effect}`),
      [
        'node.kubernetes.io/not-ready:NoExecute',
        'node.kubernetes.io/unreachable:NoExecute',
        'node.kubernetes.io/disk-pressure:NoSchedule',
        'node.kubernetes.io/memory-pressure:NoSchedule',
        'node.kubernetes.io/pid-pressure:NoSchedule',
        'node.kubernetes.io/unschedulable:NoSchedule',
      ],
    );
    assert.match(p.metadata.name!, /^agent-[a-z0-9]{5}$/);
    const s = ds(c).status!;
    const revisions = c.api.list('controllerrevisions', { namespace: 'default' }).items;
    assert.equal(revisions.length, 1);
    assert.equal(revisions[0].metadata.name, `agent-${p.metadata.labels?.['controller-revision-hash']}`);
    assert.deepEqual(
      [s.desiredNumberScheduled, s.currentNumberScheduled, s.numberReady, s.updatedNumberScheduled, s.numberAvailable],
      [3, 3, 3, 3, 3],
    );
    assert.equal(s.numberMisscheduled, 0);
  });

  test('nodeSelector and required node affinity pick the nodes; relabelling a node moves the pod', () => {
    const c = newCluster();
    c.api.patch('nodes', undefined, 'node-1', 'merge', { metadata: { labels: { disk: 'ssd' } } });
    c.apply(daemonSet({}, { nodeSelector: { disk: 'ssd' } }));
    c.runUntilSettled();
    assert.deepEqual(nodesOf(c), ['node-1']);
    assert.equal(ds(c).status?.desiredNumberScheduled, 1);
    c.api.patch('nodes', undefined, 'node-1', 'merge', { metadata: { labels: { disk: null } } });
    c.api.patch('nodes', undefined, 'node-3', 'merge', { metadata: { labels: { disk: 'ssd' } } });
    c.runUntilSettled();
    assert.deepEqual(nodesOf(c), ['node-3']);
  });

  test('a NoSchedule taint keeps new pods off but lets a running one stay; NoExecute removes it; tolerations allow it', () => {
    const c = newCluster();
    c.api.patch('nodes', undefined, 'node-1', 'merge', {
      spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] },
    });
    c.apply(daemonSet());
    c.runUntilSettled();
    assert.deepEqual(nodesOf(c), ['node-2', 'node-3']);
    c.api.patch('nodes', undefined, 'node-2', 'merge', {
      spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] },
    });
    c.runUntilSettled();
    assert.deepEqual(nodesOf(c), ['node-2', 'node-3'], 'NoSchedule: the running pod stays');
    assert.equal(ds(c).status?.numberMisscheduled, 1);
    c.api.patch('nodes', undefined, 'node-3', 'merge', {
      spec: { taints: [{ key: 'evict', effect: 'NoExecute' }] },
    });
    c.runUntilSettled();
    assert.deepEqual(nodesOf(c), ['node-2']);

    const c2 = newCluster();
    c2.api.patch('nodes', undefined, 'node-1', 'merge', {
      spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] },
    });
    c2.apply(
      daemonSet({}, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] }),
    );
    c2.runUntilSettled();
    assert.deepEqual(nodesOf(c2), ['node-1', 'node-2', 'node-3']);
  });
});

describe('DaemonSet: nodes joining, failing and leaving', () => {
  test('a node that joins gets a pod', () => {
    const c = newCluster();
    c.apply(daemonSet());
    c.runUntilSettled();
    c.addNode({ name: 'node-4' });
    const r = c.runUntilSettled();
    assert.deepEqual(r.pending, []);
    assert.deepEqual(nodesOf(c), ['node-1', 'node-2', 'node-3', 'node-4']);
    assert.equal(ds(c).status?.desiredNumberScheduled, 4);
  });

  test('a failed node keeps its daemon pod (NoExecute taints tolerated) but, tainted NoSchedule, is no longer desired', () => {
    const c = newCluster();
    c.apply(daemonSet());
    c.runUntilSettled();
    const before = live(c).find((p) => p.spec?.nodeName === 'node-2')!.metadata.uid;
    c.failNode('node-2');
    const r = c.runUntilSettled(30 * 60_000);
    const node = c.api.get('nodes', undefined, 'node-2') as KubeObject & {
      spec: { taints?: { key: string; effect: string }[] };
    };
    assert.deepEqual(node.spec.taints?.map((t) => `${t.key}:${t.effect}`).sort(), [
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    assert.equal(live(c).find((p) => p.spec?.nodeName === 'node-2')?.metadata.uid, before, 'not evicted');
    // Upstream adds no toleration for unreachable:NoSchedule: shouldRun is false, shouldContinueRunning true.
    const s = ds(c).status!;
    assert.deepEqual(
      [s.desiredNumberScheduled, s.currentNumberScheduled, s.numberReady, s.numberMisscheduled],
      [2, 2, 2, 1],
    );
    assert.ok(r.pending.some((l) => l.startsWith('node node-2:')));
    c.recoverNode('node-2');
    assert.deepEqual(c.runUntilSettled(30 * 60_000).pending, []);
    assert.equal(ds(c).status?.desiredNumberScheduled, 3);
    assert.equal(live(c).find((p) => p.spec?.nodeName === 'node-2')?.metadata.uid, before);
  });

  test('a node that leaves is no longer desired', () => {
    const c = newCluster();
    c.apply(daemonSet());
    c.runUntilSettled();
    c.failNode('node-3');
    c.api.delete('nodes', undefined, 'node-3');
    c.runUntilSettled();
    const s = ds(c).status!;
    assert.deepEqual([s.desiredNumberScheduled, s.currentNumberScheduled], [2, 2]);
  });
});

describe('DaemonSet: updates', () => {
  test('RollingUpdate with maxUnavailable 1 replaces one node at a time, never two unavailable', () => {
    const c = newCluster();
    c.apply(daemonSet());
    c.runUntilSettled();
    let worst = 0;
    const nodes = allNodes(c);
    c.api.watch('pods', { namespace: 'default', resourceVersion: c.api.list('pods').metadata.resourceVersion }, () => {
      const now = c.clock.now();
      const availableOn = new Set(
        live(c)
          .filter((p) => isPodAvailable(p, 0, now))
          .map((p) => p.spec?.nodeName),
      );
      worst = Math.max(worst, nodes.filter((n) => !availableOn.has(n)).length);
    });
    setImage(c, 'nginx:1.28');
    const r = c.runUntilSettled();
    assert.deepEqual(r.pending, []);
    assert.equal(worst, 1);
    assert.ok(live(c).every((p) => p.spec?.containers[0].image === 'nginx:1.28'));
    assert.equal(ds(c).status?.updatedNumberScheduled, 3);
    assert.deepEqual(
      c.api
        .list('controllerrevisions', { namespace: 'default' })
        .items.map((r) => r.revision)
        .sort(),
      [1, 2],
    );
  });

  test('maxSurge starts the new pod beside the old one before deleting it', () => {
    const c = newCluster();
    c.apply(
      daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }),
    );
    c.runUntilSettled();
    let sawTwoOnANode = false;
    let worstUnavailable = 0;
    const nodes = allNodes(c);
    c.api.watch('pods', { namespace: 'default', resourceVersion: c.api.list('pods').metadata.resourceVersion }, () => {
      const now = c.clock.now();
      const ps = live(c);
      for (const n of nodes) if (ps.filter((p) => p.spec?.nodeName === n).length > 1) sawTwoOnANode = true;
      const availableOn = new Set(ps.filter((p) => isPodAvailable(p, 0, now)).map((p) => p.spec?.nodeName));
      worstUnavailable = Math.max(worstUnavailable, nodes.filter((n) => !availableOn.has(n)).length);
    });
    setImage(c, 'nginx:1.28');
    assert.deepEqual(c.runUntilSettled().pending, []);
    assert.equal(sawTwoOnANode, true);
    assert.equal(worstUnavailable, 0);
    assert.deepEqual(nodesOf(c), nodes);
    assert.ok(live(c).every((p) => p.spec?.containers[0].image === 'nginx:1.28'));
  });

  test('OnDelete: pods change only when deleted', () => {
    const c = newCluster();
    c.apply(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    c.runUntilSettled();
    setImage(c, 'nginx:1.28');
    c.runUntilSettled();
    assert.ok(live(c).every((p) => p.spec?.containers[0].image === 'nginx:1.27'));
    assert.equal(ds(c).status?.updatedNumberScheduled ?? 0, 0);
    c.killPod('default', live(c).find((p) => p.spec?.nodeName === 'node-1')!.metadata.name!);
    c.runUntilSettled();
    assert.equal(live(c).find((p) => p.spec?.nodeName === 'node-1')?.spec?.containers[0].image, 'nginx:1.28');
    assert.equal(ds(c).status?.updatedNumberScheduled, 1);
  });
});
