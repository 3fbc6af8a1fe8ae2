/**
 * Storage end to end on a whole cluster (upstream: pkg/controller/volume/persistentvolume/pv_controller.go
 * `syncUnboundClaim`, `bind`, `reclaimVolume`; pkg/scheduler/framework/plugins/volumebinding `PreFilter`, `PreBind`;
 * kind's `standard` class from rancher/local-path-provisioner).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { Cluster } from '../../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../../sandbox/api/types';

function claim(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  };
}

function volume(name: string, storage: string, accessModes: string[], extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: { capacity: { storage }, accessModes, hostPath: { path: `/data/${name}` }, storageClassName: '', ...extra },
  };
}

function podWith(claimName: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'db', namespace: 'default' },
    spec: {
      containers: [{ name: 'db', image: 'nginx:1.27', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
    },
  };
}

const pvc = (c: Cluster, name: string) =>
  c.api.get('persistentvolumeclaims', 'default', name) as PersistentVolumeClaim & KubeObject;
const pv = (c: Cluster, name: string) =>
  c.api.tryGet('persistentvolumes', undefined, name) as PersistentVolume | undefined;
const pod = (c: Cluster) => c.api.get('pods', 'default', 'db') as Pod & KubeObject;
const eventsFor = (c: Cluster, name: string) =>
  c.api
    .list('events', { namespace: 'default' })
    .items.map((e) => e as { reason?: string; message?: string; involvedObject?: { name?: string } })
    .filter((e) => e.involvedObject?.name === name)
    .map((e) => `${e.reason}: ${e.message}`);

function newCluster(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.start();
  c.runUntilSettled();
  return c;
}

describe('storage', () => {
  test('a kind-like cluster starts with the default class `standard` (rancher.io/local-path, WaitForFirstConsumer)', () => {
    const c = newCluster();
    const sc = c.api.get('storageclasses', undefined, 'standard') as KubeObject & {
      provisioner?: string;
      volumeBindingMode?: string;
    };
    assert.equal(sc.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'], 'true');
    assert.equal(sc.provisioner, 'rancher.io/local-path');
    assert.equal(sc.volumeBindingMode, 'WaitForFirstConsumer');
  });

  test('dynamic provisioning waits for the first consumer, then provisions on its node and binds', () => {
    const c = newCluster();
    c.apply(claim('data'));
    c.runUntilSettled();
    // The default class is assigned, and nothing happens before a pod uses the claim.
    assert.equal(pvc(c, 'data').spec?.storageClassName, 'standard');
    assert.equal(pvc(c, 'data').status?.phase, 'Pending');
    assert.ok(
      eventsFor(c, 'data').includes('WaitForFirstConsumer: waiting for first consumer to be created before binding'),
    );
    c.apply(podWith('data'));
    const run = c.runUntilSettled();
    assert.deepEqual(run.pending, []);
    const claimNow = pvc(c, 'data');
    const node = pod(c).spec?.nodeName;
    assert.ok(node);
    assert.equal(claimNow.metadata.annotations?.['volume.kubernetes.io/selected-node'], node);
    assert.equal(claimNow.status?.phase, 'Bound');
    const name = `pvc-${claimNow.metadata.uid}`;
    assert.equal(claimNow.spec?.volumeName, name);
    const volumeNow = pv(c, name)!;
    assert.equal(volumeNow.status?.phase, 'Bound');
    assert.equal(volumeNow.spec?.persistentVolumeReclaimPolicy, 'Delete');
    assert.deepEqual(volumeNow.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0].matchExpressions?.[0].values, [
      node,
    ]);
    assert.ok(eventsFor(c, 'data').includes(`ProvisioningSucceeded: Successfully provisioned volume ${name}`));
    assert.equal(pod(c).status?.phase, 'Running');
    assert.deepEqual(claimNow.metadata.finalizers, ['kubernetes.io/pvc-protection']);
  });

  test('static binding picks the smallest volume with enough capacity and the access modes asked', () => {
    const c = newCluster();
    c.apply(volume('small', '500Mi', ['ReadWriteOnce']));
    c.apply(volume('rox', '2Gi', ['ReadOnlyMany']));
    c.apply(volume('big', '10Gi', ['ReadWriteOnce', 'ReadOnlyMany']));
    c.apply(volume('fits', '2Gi', ['ReadWriteOnce']));
    c.apply(claim('data', { storageClassName: '' }));
    c.runUntilSettled();
    assert.equal(pvc(c, 'data').spec?.volumeName, 'fits');
    assert.equal(pvc(c, 'data').status?.phase, 'Bound');
    assert.deepEqual(pvc(c, 'data').status?.capacity, { storage: '2Gi' });
    assert.equal(pv(c, 'fits')?.status?.phase, 'Bound');
    assert.equal(pv(c, 'fits')?.spec?.claimRef?.name, 'data');
    for (const other of ['small', 'rox', 'big']) assert.equal(pv(c, other)?.status?.phase, 'Available');
  });

  test('an unknown class leaves the claim Pending with upstream messages, and the pod unschedulable', () => {
    const c = newCluster();
    c.apply(claim('data', { storageClassName: 'my-storage-class' }));
    c.apply(podWith('data'));
    const run = c.runUntilSettled();
    assert.equal(pvc(c, 'data').status?.phase, 'Pending');
    assert.ok(
      eventsFor(c, 'data').includes('ProvisioningFailed: storageclass.storage.k8s.io "my-storage-class" not found'),
    );
    const scheduled = pod(c).status?.conditions?.find((x) => x.type === 'PodScheduled');
    assert.equal(scheduled?.status, 'False');
    assert.equal(
      scheduled?.message,
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    assert.ok(
      run.pending.some((l) => l.startsWith('persistentvolumeclaim default/data: Pending')),
      run.pending.join('\n'),
    );
  });

  test('reclaim on delete: Delete removes the provisioned volume, Retain keeps a static one Released', () => {
    const c = newCluster();
    c.apply(volume('kept', '1Gi', ['ReadWriteOnce'], { persistentVolumeReclaimPolicy: 'Retain' }));
    c.apply(claim('static', { storageClassName: '' }));
    c.apply(claim('data'));
    c.apply(podWith('data'));
    c.runUntilSettled();
    const provisioned = pvc(c, 'data').spec!.volumeName!;
    assert.equal(pvc(c, 'static').spec?.volumeName, 'kept');

    // pvc-protection: the claim in use stays (Terminating) until its pod goes.
    c.api.delete('persistentvolumeclaims', 'default', 'data');
    c.runUntilSettled();
    assert.ok(pvc(c, 'data').metadata.deletionTimestamp, 'still there, being deleted');
    c.api.delete('pods', 'default', 'db');
    c.runUntilSettled();
    assert.equal(c.api.tryGet('persistentvolumeclaims', 'default', 'data'), undefined);
    assert.equal(pv(c, provisioned), undefined, 'Delete: the provisioned volume is gone');

    c.api.delete('persistentvolumeclaims', 'default', 'static');
    c.runUntilSettled();
    assert.equal(pv(c, 'kept')?.status?.phase, 'Released');
  });
});
