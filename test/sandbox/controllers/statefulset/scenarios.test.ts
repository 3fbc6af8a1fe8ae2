/**
 * StatefulSets end to end on the virtual clock (a whole cluster: API server,
 * controllers, scheduler, kubelets), against upstream's
 * pkg/controller/statefulset/stateful_set_control.go (`updateStatefulSet`,
 * `runForAll`) and the behaviour its e2e tests (test/e2e/apps/statefulset.go)
 * check: ordered start, reverse scale-down, Parallel bursts, partitioned
 * rolling updates, OnDelete, claims kept across restarts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import type { StatefulSet } from 'kubernetes-types/apps/v1';
import { Cluster } from '../../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../../sandbox/api/types';
import { isPodReady } from '../../../../sandbox/controllers/util/pods';

type Spec = NonNullable<StatefulSet['spec']>;

function statefulSet(replicas: number, extra: Partial<Spec> = {}, image = 'nginx:1.27'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      serviceName: 'nginx',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image }] } },
      ...extra,
    },
  };
}

const CLAIMS: Partial<Spec> = {
  volumeClaimTemplates: [
    {
      metadata: { name: 'www' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ],
};

function newCluster(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.start();
  c.runUntilSettled();
  return c;
}

const getPod = (c: Cluster, name: string) => c.api.tryGet('pods', 'default', name) as (Pod & KubeObject) | undefined;
const podNames = (c: Cluster) =>
  c.api
    .list('pods', { namespace: 'default', labelSelector: 'app=web' })
    .items.map((p) => p.metadata.name!)
    .sort();
const set = (c: Cluster) => c.api.get('statefulsets', 'default', 'web') as StatefulSet & KubeObject;
const runningReady = (p: Pod | undefined) => !!p && p.status?.phase === 'Running' && isPodReady(p);
const image = (p: Pod | undefined) => p?.spec?.containers[0].image;

/** Pod watch events as `ADDED web-0`, `TERMINATING web-2`, `DELETED web-2`. */
function recordPods(c: Cluster): string[] {
  const log: string[] = [];
  c.api.watch('pods', { namespace: 'default', resourceVersion: c.api.list('pods').metadata.resourceVersion }, (e) => {
    const name = e.object.metadata.name!;
    if (e.type === 'ADDED') log.push(`ADDED ${name}`);
    else if (e.type === 'DELETED') log.push(`DELETED ${name}`);
    else if (e.object.metadata.deletionTimestamp && !log.includes(`TERMINATING ${name}`))
      log.push(`TERMINATING ${name}`);
  });
  return log;
}

function patchSpec(c: Cluster, patch: Record<string, unknown>): void {
  c.api.patch('statefulsets', 'default', 'web', 'merge', { spec: patch });
}

describe('StatefulSet: OrderedReady', () => {
  test('pods start one at a time in ordinal order, each after its predecessors are Running and Ready', () => {
    const c = newCluster();
    const readyWhenAdded: Record<string, string[]> = {};
    c.api.watch('pods', { namespace: 'default' }, (e) => {
      if (e.type !== 'ADDED') return;
      readyWhenAdded[e.object.metadata.name!] = ['web-0', 'web-1', 'web-2'].filter((n) => runningReady(getPod(c, n)));
    });
    c.apply(statefulSet(3));
    const r = c.runUntilSettled();
    assert.equal(r.settled, true);
    assert.deepEqual(r.pending, []);
    assert.deepEqual(readyWhenAdded, { 'web-0': [], 'web-1': ['web-0'], 'web-2': ['web-0', 'web-1'] });
    const p = getPod(c, 'web-1')!;
    assert.equal(p.spec?.hostname, 'web-1');
    assert.equal(p.spec?.subdomain, 'nginx');
    assert.equal(p.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-1');
    assert.equal(p.metadata.labels?.['apps.kubernetes.io/pod-index'], '1');
    const s = set(c).status!;
    assert.equal(s.replicas, 3);
    assert.equal(s.readyReplicas, 3);
    assert.equal(s.availableReplicas, 3);
    assert.equal(s.currentReplicas, 3);
    assert.equal(s.updatedReplicas, 3);
    assert.equal(s.currentRevision, s.updateRevision);
    assert.equal(p.metadata.labels?.['controller-revision-hash'], s.updateRevision);
    const revisions = c.api.list('controllerrevisions', { namespace: 'default' }).items;
    assert.deepEqual(
      revisions.map((r) => [r.metadata.name, r.revision]),
      [[s.updateRevision, 1]],
    );
  });

  test('scale-down removes the highest ordinal first, the next only once it is gone', () => {
    const c = newCluster();
    c.apply(statefulSet(3));
    c.runUntilSettled();
    const log = recordPods(c);
    c.scale('statefulsets', 'default', 'web', 1);
    c.runUntilSettled();
    assert.deepEqual(log, ['TERMINATING web-2', 'DELETED web-2', 'TERMINATING web-1', 'DELETED web-1']);
    assert.deepEqual(podNames(c), ['web-0']);
    assert.equal(set(c).status?.replicas, 1);
  });

  test('a deleted pod comes back with the same name', () => {
    const c = newCluster();
    c.apply(statefulSet(2));
    c.runUntilSettled();
    const oldUid = getPod(c, 'web-0')!.metadata.uid;
    c.killPod('default', 'web-0');
    c.runUntilSettled();
    const p = getPod(c, 'web-0');
    assert.ok(runningReady(p));
    assert.notEqual(p!.metadata.uid, oldUid);
    assert.deepEqual(podNames(c), ['web-0', 'web-1']);
  });
});

describe('StatefulSet: Parallel', () => {
  test('every pod is created without waiting, and scale-down deletes them together', () => {
    const c = newCluster();
    const log = recordPods(c);
    c.apply(statefulSet(3, { podManagementPolicy: 'Parallel' }));
    let readyAtLastCreate: string[] | undefined;
    c.api.watch('pods', { namespace: 'default', resourceVersion: c.api.list('pods').metadata.resourceVersion }, (e) => {
      if (e.type === 'ADDED' && e.object.metadata.name === 'web-2')
        readyAtLastCreate = ['web-0', 'web-1'].filter((n) => runningReady(getPod(c, n)));
    });
    c.runUntilSettled();
    assert.deepEqual(log.slice(0, 3), ['ADDED web-0', 'ADDED web-1', 'ADDED web-2']);
    assert.deepEqual(readyAtLastCreate, []);
    assert.equal(set(c).status?.readyReplicas, 3);
    log.length = 0;
    c.scale('statefulsets', 'default', 'web', 0);
    c.runUntilSettled();
    assert.deepEqual(log.slice(0, 3).sort(), ['TERMINATING web-0', 'TERMINATING web-1', 'TERMINATING web-2']);
    assert.deepEqual(podNames(c), []);
  });
});

describe('StatefulSet: updates', () => {
  test('RollingUpdate with a partition updates only the ordinals at or above it, then the rest from the top', () => {
    const c = newCluster();
    c.apply(statefulSet(3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }));
    c.runUntilSettled();
    const first = set(c).status!.currentRevision!;
    patchSpec(c, { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } });
    c.runUntilSettled();
    assert.deepEqual(
      ['web-0', 'web-1', 'web-2'].map((n) => image(getPod(c, n))),
      ['nginx:1.27', 'nginx:1.27', 'nginx:1.28'],
    );
    let s = set(c).status!;
    assert.equal(s.currentRevision, first);
    assert.notEqual(s.updateRevision, first);
    assert.equal(s.updatedReplicas, 1);
    assert.equal(s.currentReplicas, 2);
    assert.equal(getPod(c, 'web-2')!.metadata.labels?.['controller-revision-hash'], s.updateRevision);

    const log = recordPods(c);
    patchSpec(c, { updateStrategy: { rollingUpdate: { partition: 0 } } });
    c.runUntilSettled();
    assert.deepEqual(
      log.filter((l) => l.startsWith('TERMINATING')),
      ['TERMINATING web-1', 'TERMINATING web-0'],
    );
    assert.ok(['web-0', 'web-1', 'web-2'].every((n) => image(getPod(c, n)) === 'nginx:1.28'));
    s = set(c).status!;
    assert.equal(s.currentRevision, s.updateRevision);
    assert.equal(s.updatedReplicas, 3);
    assert.equal(s.currentReplicas, 3);
    assert.equal(c.api.list('controllerrevisions', { namespace: 'default' }).items.length, 2);
  });

  test('OnDelete leaves running pods alone; a deleted pod comes back at the update revision', () => {
    const c = newCluster();
    c.apply(statefulSet(2, { updateStrategy: { type: 'OnDelete' } }));
    c.runUntilSettled();
    patchSpec(c, { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } });
    c.runUntilSettled();
    assert.deepEqual([image(getPod(c, 'web-0')), image(getPod(c, 'web-1'))], ['nginx:1.27', 'nginx:1.27']);
    assert.equal(set(c).status?.updatedReplicas ?? 0, 0);
    c.killPod('default', 'web-1');
    c.runUntilSettled();
    assert.deepEqual([image(getPod(c, 'web-0')), image(getPod(c, 'web-1'))], ['nginx:1.27', 'nginx:1.28']);
    assert.equal(set(c).status?.updatedReplicas, 1);
  });
});

describe('StatefulSet: volumeClaimTemplates', () => {
  const claim = (c: Cluster, name: string) => c.api.tryGet('persistentvolumeclaims', 'default', name);

  test('each pod gets <claim>-<set>-<ordinal>, mounted by name, kept when the pod is re-created and on scale-down', () => {
    const c = newCluster();
    c.apply(statefulSet(2, { podManagementPolicy: 'Parallel', ...CLAIMS }));
    c.runUntilSettled();
    const w0 = claim(c, 'www-web-0');
    assert.ok(w0 && claim(c, 'www-web-1'));
    assert.equal(w0.metadata.labels?.app, 'web');
    assert.equal(w0.metadata.ownerReferences, undefined, 'Retain/Retain: nobody owns the claim');
    assert.deepEqual(getPod(c, 'web-0')!.spec?.volumes?.[0], {
      name: 'www',
      persistentVolumeClaim: { claimName: 'www-web-0' },
    });
    c.killPod('default', 'web-0');
    c.runUntilSettled();
    assert.ok(getPod(c, 'web-0'));
    assert.equal(claim(c, 'www-web-0')?.metadata.uid, w0.metadata.uid);
    c.scale('statefulsets', 'default', 'web', 0);
    c.runUntilSettled();
    assert.deepEqual(podNames(c), []);
    assert.equal(claim(c, 'www-web-0')?.metadata.uid, w0.metadata.uid);
    assert.ok(claim(c, 'www-web-1'));
  });

  test('whenScaled: Delete hands a scaled-away claim to its pod, and the garbage collector deletes it with the pod', () => {
    const c = newCluster();
    c.apply(
      statefulSet(2, {
        podManagementPolicy: 'Parallel',
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' },
        ...CLAIMS,
      }),
    );
    c.runUntilSettled();
    assert.equal(claim(c, 'www-web-1')?.metadata.ownerReferences, undefined);
    c.scale('statefulsets', 'default', 'web', 1);
    c.runUntilSettled();
    assert.deepEqual(podNames(c), ['web-0']);
    assert.equal(claim(c, 'www-web-1'), undefined);
    assert.ok(claim(c, 'www-web-0'));
  });

  test('whenDeleted: Delete makes the set own the claims', () => {
    const c = newCluster();
    c.apply(statefulSet(1, { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' }, ...CLAIMS }));
    c.runUntilSettled();
    const refs = claim(c, 'www-web-0')?.metadata.ownerReferences ?? [];
    assert.deepEqual(
      refs.map((r) => [r.kind, r.name, r.uid === set(c).metadata.uid]),
      [['StatefulSet', 'web', true]],
    );
  });
});

describe('StatefulSet: never silently settled', () => {
  test('a set short of its replicas is in the settled report with kubectl rollout status words', () => {
    const c = newCluster();
    const huge = statefulSet(3);
    (huge.spec as Spec).template.spec!.containers[0].resources = { requests: { cpu: '100' } };
    c.apply(huge);
    const r = c.runUntilSettled();
    assert.ok(r.pending.includes('statefulset default/web: Waiting for 3 pods to be ready...'), r.pending.join('\n'));
    assert.deepEqual(podNames(c), ['web-0'], 'OrderedReady waits for web-0');
  });

  test('a partitioned roll out waiting on the update is reported until it completes', () => {
    const c = newCluster();
    c.apply(statefulSet(2, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }));
    c.runUntilSettled();
    patchSpec(c, { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } });
    assert.ok(
      c.runUntilSettled().pending.every((l) => !l.startsWith('statefulset')),
      'partition 1 of 2: one updated pod is the whole roll out',
    );
    patchSpec(c, { replicas: 3 });
    const pending = c.runUntilSettled().pending;
    assert.deepEqual(pending, []);
  });
});
