/**
 * The plan's fork is the cluster the snapshot was taken from: nodes whose kubelet Fail Node stopped stay failed in the
 * fork (no heartbeat: the node lifecycle controller turns them NotReady and taints them, as it would in the running
 * sandbox), and the fork serves the release it is told to (the running sandbox's `kubeReconcile.kubernetesVersion`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../sandbox/api/types';
import { takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import type { Snapshot } from '../../../sandbox/apiserver/snapshot';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { runPlan } from '../../../sandbox/plan/plan';
import { aDeployment, aService } from '../../builders';

/** A settled 3-node cluster with 6 nginx pods, then node-2's kubelet stopped for 10 s (still Ready: within grace). */
function withFailedNode(): Snapshot {
  const cluster = new Cluster({ nodes: 3 });
  cluster.start();
  cluster.apply(aDeployment('web', { replicas: 6, image: 'nginx:1.27', name: 'nginx', requests: { cpu: '100m' } }));
  cluster.runUntilSettled();
  cluster.failNode('node-2');
  cluster.runFor(10_000);
  const snapshot = JSON.parse(JSON.stringify(takeSnapshot(cluster.api))) as Snapshot;
  cluster.stop();
  return snapshot;
}

interface Seen {
  running: boolean;
  ready: string | undefined;
  taints: string[];
  podsOnNode2: number;
}

function forkOf(snapshot: Snapshot, failedNodes?: string[]): Seen {
  let seen: Seen | undefined;
  runPlan({
    snapshot,
    manifests: [],
    failedNodes,
    inspect: (cluster) => {
      const node = cluster.api.get('nodes', undefined, 'node-2') as Node & KubeObject;
      const pods = cluster.api.list('pods').items as (Pod & KubeObject)[];
      seen = {
        running: cluster.isKubeletRunning('node-2'),
        ready: node.status?.conditions?.find((c) => c.type === 'Ready')?.status,
        taints: (node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort(),
        podsOnNode2: pods.filter((p) => p.spec?.nodeName === 'node-2' && !p.metadata.deletionTimestamp).length,
      };
    },
  });
  return seen!;
}

describe('the plan forks the cluster as the snapshot has it', () => {
  const snapshot = withFailedNode();
  const node2 = (snapshot.objects as (Node & KubeObject)[]).find(
    (o) => o.kind === 'Node' && o.metadata.name === 'node-2',
  )!;

  test('the snapshot still shows node-2 Ready (its heartbeat is within the grace period)', () => {
    assert.equal(node2.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
  });

  test('a failed node stays failed in the fork: NotReady (Unknown), tainted unreachable, its pods evicted', () => {
    const seen = forkOf(snapshot, ['node-2']);
    assert.equal(seen.running, false);
    assert.equal(seen.ready, 'Unknown');
    assert.deepEqual(seen.taints, [
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    // upstream: the default tolerations (300 s for unreachable) run out within the plan's 15 minutes
    assert.equal(seen.podsOnNode2, 0);
  });

  test('without failedNodes the fork starts node-2 kubelet again: Ready, untainted, its pods kept', () => {
    const seen = forkOf(snapshot);
    assert.equal(seen.running, true);
    assert.equal(seen.ready, 'True');
    assert.deepEqual(seen.taints, []);
    assert.ok(seen.podsOnNode2 > 0);
  });

  test('a snapshot that records node-2 failed keeps it failed with nothing else said, as the in-editor fork does', () => {
    const recorded: Snapshot = { ...snapshot, failedNodes: ['node-2'] };
    assert.deepEqual(forkOf(recorded), forkOf(snapshot, ['node-2']));
    assert.deepEqual(forkOf(recorded, ['node-2']), forkOf(snapshot, ['node-2']));
    // A fork of fewer nodes runs no kubelet for node-2 at all: the recorded failure is no error.
    assert.doesNotThrow(() => runPlan({ snapshot: recorded, manifests: [], nodes: 1, limitMs: 1_000 }));
  });

  test('a snapshot handed over (snapshotOwned) is frozen in place and shared: the same plan as a copied one', () => {
    const text = JSON.stringify({ ...snapshot, failedNodes: ['node-2'] });
    const manifests = [
      { source: 'web.yaml', line: 1, object: aDeployment('web', { replicas: 4, image: 'nginx:1.28', name: 'nginx' }) },
    ];
    const copied = JSON.parse(text) as Snapshot;
    const owned = JSON.parse(text) as Snapshot;
    const a = runPlan({ snapshot: copied, manifests });
    const b = runPlan({ snapshot: owned, snapshotOwned: true, manifests });
    assert.deepEqual(b, a);
    assert.ok(a.rollouts.length === 1 && a.rollouts[0].podsCreated > 0, JSON.stringify(a.rollouts));
    assert.equal(Object.isFrozen(copied.objects[0]), false, 'a copied snapshot is left as it was');
    assert.ok(owned.objects.every((o) => Object.isFrozen(o) && Object.isFrozen(o.metadata)));
    // Planned again from the same (now frozen) objects: the same plan.
    assert.deepEqual(runPlan({ snapshot: owned, snapshotOwned: true, manifests }), a);
  });

  test('an unknown failed node is a clear error', () => {
    assert.throws(
      () => runPlan({ snapshot, manifests: [], failedNodes: ['node-9'] }),
      /no node named node-9; nodes: node-1, node-2, node-3/,
    );
  });
});

describe('the plan forks the release it is told to', () => {
  const cluster = new Cluster({ nodes: 1 });
  cluster.start();
  cluster.runUntilSettled();
  const snapshot = JSON.parse(JSON.stringify(takeSnapshot(cluster.api))) as Snapshot;
  cluster.stop();
  // storage.k8s.io/v1 VolumeAttributesClass is GA (served by default) from 1.34
  const attributes = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'VolumeAttributesClass',
    metadata: { name: 'gold' },
    driverName: 'csi.example.com',
  } as KubeObject;
  const plan = (kubernetesVersion?: string) =>
    runPlan({ snapshot, manifests: [{ source: 'storage.yaml', line: 1, object: attributes }], kubernetesVersion })
      .objects[0];

  test('1.34 serves storage.k8s.io/v1 VolumeAttributesClass: it is created', () => {
    assert.deepEqual(plan('1.34'), {
      action: 'created',
      ref: 'volumeattributesclass.storage.k8s.io/gold',
      source: 'storage.yaml:1',
    });
  });

  test('1.32 (the default) does not: the same file is refused', () => {
    const refused = plan();
    assert.deepEqual(refused, {
      action: 'refused',
      ref: 'VolumeAttributesClass/gold',
      source: 'storage.yaml:1',
      message: 'the server could not find the requested resource',
    });
  });
});

describe("a fork shares a running API server's stored objects instead of copying them", () => {
  test('the plan and every object and event after it are the same as from the same snapshot as JSON', () => {
    const cluster = new Cluster({ nodes: 3 });
    cluster.start();
    const web = aDeployment('web', { replicas: 6, image: 'nginx:1.27', name: 'nginx', requests: { cpu: '100m' } });
    web.spec!.template.spec!.containers[0].readinessProbe = { httpGet: { path: '/', port: 80 }, periodSeconds: 5 };
    cluster.apply(web);
    cluster.apply(aService('web'));
    cluster.runUntilSettled();
    const shared = takeSnapshot(cluster.api);
    assert.ok(
      shared.objects.every((o) => Object.isFrozen(o)),
      'a running server hands out frozen objects',
    );
    const copied = JSON.parse(JSON.stringify(shared)) as Snapshot;
    const changed = aDeployment('web', { replicas: 6, image: 'nginx:1.28', name: 'nginx', requests: { cpu: '100m' } });
    changed.spec!.template.spec!.containers[0].readinessProbe = { httpGet: { path: '/', port: 80 }, periodSeconds: 5 };
    const plan = (snapshot: Snapshot) => {
      let after: unknown[] = [];
      const report = runPlan({
        snapshot,
        manifests: [{ source: 'web.yaml', line: 1, object: changed }],
        inspect: (fork) => {
          after = fork.api.resources
            .storedKinds()
            .flatMap((r) => fork.api.list(r).items)
            .map((o) => JSON.stringify(o));
        },
      });
      return { report, after };
    };
    const fromShared = plan(shared);
    const fromCopy = plan(copied);
    assert.equal(fromShared.report.rollouts[0].podsCreated, 6);
    assert.deepEqual(fromShared.report, fromCopy.report);
    assert.ok(fromShared.after.length > 30);
    assert.deepEqual(fromShared.after, fromCopy.after);
    // the running cluster is untouched by both
    assert.equal(
      (cluster.api.get('deployments', 'default', 'web') as Deployment).spec?.template.spec?.containers[0].image,
      'nginx:1.27',
    );
    cluster.stop();
  });
});
