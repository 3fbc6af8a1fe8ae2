import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, OwnerReference } from '../../../../sandbox/api/types';
import { GarbageCollector } from '../../../../sandbox/controllers/garbagecollector/garbageCollector';
import { newHarness } from '../harness';
import type { Harness } from '../harness';

function ref(owner: KubeObject, block = true): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: block,
  };
}

function rs(name: string, owner?: KubeObject): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', ...(owner ? { ownerReferences: [ref(owner)] } : {}) },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
}

function pod(name: string, owners: OwnerReference[], nodeName?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ownerReferences: owners },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...(nodeName ? { nodeName } : {}) },
  };
}

function startGc(h: Harness): GarbageCollector {
  const gc = new GarbageCollector(h.ctx);
  gc.start();
  return gc;
}

function names(h: Harness, resource: string): string[] {
  return h.api.list(resource, { namespace: 'default' }).items.map((o) => o.metadata.name!);
}

describe('garbage collector', () => {
  test('background: the owner goes at once, then its dependents', () => {
    const h = newHarness(1);
    const owner = h.api.create(rs('web'));
    h.api.create(pod('web-a', [ref(owner)]));
    h.api.create(pod('web-b', [ref(owner)]));
    h.api.create(pod('other', []));
    startGc(h);
    h.settle();
    h.record(['pods', 'replicasets']);
    h.api.delete('replicasets', 'default', 'web');
    h.settle();
    assert.deepEqual(h.actions(), [
      'DELETED replicasets default/web',
      'DELETED pods default/web-a',
      'DELETED pods default/web-b',
    ]);
    assert.deepEqual(names(h, 'pods'), ['other']);
  });

  test('foreground: the owner waits with its finalizer until blocking dependents are gone, recursively', () => {
    const h = newHarness(2);
    const deploy = h.api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      },
    });
    const owner = h.api.create(rs('web-1', deploy));
    h.api.create(pod('web-1-a', [ref(owner)], 'node-1'));
    h.api.create(pod('web-1-b', [ref(owner)]));
    startGc(h);
    h.settle();
    h.record(['pods', 'replicasets', 'deployments']);
    h.api.delete('deployments', 'default', 'web', { propagationPolicy: 'Foreground' });
    h.settle();
    assert.deepEqual(h.actions(), [
      'MODIFIED deployments default/web',
      // The ReplicaSet has dependents of its own, so it is deleted in the foreground too.
      'MODIFIED replicasets default/web-1',
      // Unscheduled pods go at once; the pod on a node terminates gracefully.
      'MODIFIED pods default/web-1-a',
      'DELETED pods default/web-1-b',
    ]);
    const d = h.api.get('deployments', 'default', 'web');
    assert.deepEqual(d.metadata.finalizers, ['foregroundDeletion']);
    assert.deepEqual(h.api.get('replicasets', 'default', 'web-1').metadata.finalizers, ['foregroundDeletion']);
    h.clearActions();
    // The kubelet finishes the pod.
    h.api.delete('pods', 'default', 'web-1-a', { gracePeriodSeconds: 0 });
    h.settle();
    assert.deepEqual(h.actions(), [
      'DELETED pods default/web-1-a',
      'DELETED replicasets default/web-1',
      'DELETED deployments default/web',
    ]);
  });

  test('foreground: dependents without blockOwnerDeletion are deleted but do not hold the owner', () => {
    const h = newHarness(3);
    const owner = h.api.create(rs('web'));
    h.api.create(pod('web-a', [ref(owner, false)], 'node-1'));
    startGc(h);
    h.record(['pods', 'replicasets']);
    h.api.delete('replicasets', 'default', 'web', { propagationPolicy: 'Foreground' });
    h.settle();
    assert.deepEqual(h.actions(), [
      'MODIFIED replicasets default/web',
      'MODIFIED pods default/web-a',
      'DELETED replicasets default/web',
    ]);
  });

  test('orphan: the dependents lose their references and live on; then the owner goes', () => {
    const h = newHarness(4);
    const owner = h.api.create(rs('web'));
    const other = h.api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'default' },
    });
    h.api.create(pod('web-a', [ref(owner)]));
    h.api.create(pod('web-b', [ref(owner), { ...ref(other), controller: false }]));
    startGc(h);
    h.record(['pods', 'replicasets']);
    h.api.delete('replicasets', 'default', 'web', { propagationPolicy: 'Orphan' });
    h.settle();
    assert.deepEqual(h.actions(), [
      'MODIFIED replicasets default/web',
      'MODIFIED pods default/web-a',
      'MODIFIED pods default/web-b',
      'DELETED replicasets default/web',
    ]);
    assert.equal(h.api.get('pods', 'default', 'web-a').metadata.ownerReferences, undefined);
    assert.deepEqual(h.api.get('pods', 'default', 'web-b').metadata.ownerReferences, [
      { ...ref(other), controller: false },
    ]);
  });

  test('partial owners: only the absent owner’s reference is removed', () => {
    const h = newHarness(5);
    const a = h.api.create(rs('a'));
    const b = h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'default' } });
    h.api.create(pod('shared', [ref(a), { ...ref(b), controller: false }]));
    startGc(h);
    h.record(['pods']);
    h.api.delete('configmaps', 'default', 'b');
    h.settle();
    assert.deepEqual(h.actions(), ['MODIFIED pods default/shared']);
    assert.deepEqual(h.api.get('pods', 'default', 'shared').metadata.ownerReferences, [ref(a)]);
  });

  test('a reference whose uid does not match the live owner (re-created under the same name) counts as absent', () => {
    const h = newHarness(6);
    const old = h.api.create(rs('web'));
    h.api.create(pod('web-a', [ref(old)]));
    h.api.delete('replicasets', 'default', 'web');
    h.api.create(rs('web'));
    h.record(['pods']);
    startGc(h);
    h.settle();
    assert.deepEqual(h.actions(), ['DELETED pods default/web-a']);
    assert.deepEqual(names(h, 'replicasets'), ['web']);
  });

  test('a cluster-scoped owner may own namespaced dependents', () => {
    const h = newHarness(7);
    const node = h.api.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    h.api.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: 'node-1',
        namespace: 'kube-node-lease',
        ownerReferences: [{ ...ref(node), controller: false, blockOwnerDeletion: false }],
      },
      spec: {},
    });
    startGc(h);
    h.record(['leases']);
    h.api.delete('nodes', undefined, 'node-1');
    h.settle();
    assert.deepEqual(h.actions(), ['DELETED leases kube-node-lease/node-1']);
  });

  test('a namespaced owner must be in the dependent’s namespace', () => {
    const h = newHarness(8);
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    const elsewhere = h.api.create({ ...rs('web'), metadata: { name: 'web', namespace: 'other' } });
    h.api.create(pod('web-a', [ref(elsewhere)]));
    h.record(['pods']);
    startGc(h);
    h.settle();
    assert.deepEqual(h.actions(), ['DELETED pods default/web-a']);
    // reportInvalidNamespaceOwnerRef (graph_builder.go): a Warning on the dependent, as `kubectl get events` shows it.
    const events = h.api
      .list('events', { namespace: 'default' })
      .items.filter((e) => e.reason === 'OwnerRefInvalidNamespace');
    assert.deepEqual(
      events.map((e) => [e.type, e.involvedObject.kind, e.involvedObject.name, e.source?.component, e.message]),
      [
        [
          'Warning',
          'Pod',
          'web-a',
          'garbage-collector-controller',
          `ownerRef [apps/v1/ReplicaSet, namespace: default, name: web, uid: ${elsewhere.metadata.uid}] does not exist in namespace "default"`,
        ],
      ],
    );
  });

  test('a reference to an owner that exists nowhere is dangling, without an OwnerRefInvalidNamespace warning', () => {
    const h = newHarness(10);
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    h.api.create({ ...rs('web'), metadata: { name: 'web', namespace: 'other' } });
    h.api.create(
      pod('web-a', [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'not-a-live-uid', controller: true },
      ]),
    );
    h.record(['pods']);
    startGc(h);
    h.settle();
    assert.deepEqual(h.actions(), ['DELETED pods default/web-a']);
    assert.deepEqual(
      h.api.list('events', {}).items.filter((e) => e.reason === 'OwnerRefInvalidNamespace'),
      [],
    );
  });

  test('a cluster-scoped dependent of a namespaced owner gets the warning for namespace ""', () => {
    const h = newHarness(11);
    const owner = h.api.create(rs('web'));
    h.api.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-9', ownerReferences: [ref(owner)] },
    });
    h.record(['nodes']);
    startGc(h);
    h.settle();
    // The reference cannot be resolved: the collector leaves the node alone (namespacedOwnerOfClusterScopedObjectErr).
    assert.deepEqual(h.actions(), []);
    const events = h.api.list('events', {}).items.filter((e) => e.reason === 'OwnerRefInvalidNamespace');
    assert.deepEqual(
      events.map((e) => [e.involvedObject.kind, e.involvedObject.name, e.message]),
      [
        [
          'Node',
          'node-9',
          `ownerRef [apps/v1/ReplicaSet, namespace: , name: web, uid: ${owner.metadata.uid}] does not exist in namespace ""`,
        ],
      ],
    );
  });

  test('dependents whose owners all exist are left alone, and nothing stays pending', () => {
    const h = newHarness(9);
    const owner = h.api.create(rs('web'));
    h.api.create(pod('web-a', [ref(owner)]));
    h.record(['pods', 'replicasets']);
    startGc(h);
    h.settle();
    assert.deepEqual(h.actions(), []);
    assert.equal(h.clock.pendingForegroundTimers, 0);
  });
});
