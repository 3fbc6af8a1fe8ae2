/** The cluster tree for StatefulSets (pods and claims), ReplicationControllers, PVCs and HPAs. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterTree } from '../../../client/src/model/clusterTree';
import type { TreeNode } from '../../../client/src/model/treeNode';
import type { TreeOptions } from '../../../client/src/model/treeOptions';
import type { KubeObject } from '../../../sandbox/api/types';
import { NOW, cacheOf, controller, deployment, meta, namespace, pod } from './fixtures';

function statefulSet(name: string, replicas: number, ready: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta(name, `uid-${name}`, 'default'),
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    },
    status: { replicas, readyReplicas: ready, availableReplicas: ready },
  } as KubeObject;
}

function claim(name: string, phase: 'Bound' | 'Pending'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta(name, `uid-${name}`, 'default'),
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'standard',
      resources: { requests: { storage: '1Gi' } },
      ...(phase === 'Bound' ? { volumeName: `pvc-uid-${name}` } : {}),
    },
    status:
      phase === 'Bound'
        ? { phase, capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] }
        : { phase: 'Pending' },
  } as KubeObject;
}

function replicationController(name: string, replicas: number, ready: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: meta(name, `uid-${name}`, 'default'),
    spec: { replicas, selector: { app: name } },
    status: { replicas, readyReplicas: ready },
  } as KubeObject;
}

function hpa(name: string, kind: string, target: string, current: number | undefined, replicas: number): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta(name, `uid-hpa-${name}`, 'default'),
    spec: {
      scaleTargetRef: { apiVersion: kind === 'ReplicationController' ? 'v1' : 'apps/v1', kind, name: target },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
    },
    status: {
      currentReplicas: replicas,
      desiredReplicas: replicas,
      ...(current === undefined
        ? {}
        : {
            currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }],
          }),
    },
  } as KubeObject;
}

function cluster(options?: TreeOptions): ClusterTree {
  const setOwner = controller('StatefulSet', 'db', 'uid-db');
  const rcOwner = controller('ReplicationController', 'legacy', 'uid-legacy', 'v1');
  const cache = cacheOf([
    { resource: 'namespaces', object: namespace('default') },
    { resource: 'statefulsets', object: statefulSet('db', 2, 1) },
    { resource: 'pods', object: pod('db-0', 'running', 'node-1', setOwner) },
    { resource: 'pods', object: pod('db-1', 'pending', undefined, setOwner) },
    // data-db-2 is left by a scale-down (the Retain policy keeps it): still the set's.
    { resource: 'persistentvolumeclaims', object: claim('data-db-0', 'Bound') },
    { resource: 'persistentvolumeclaims', object: claim('data-db-1', 'Pending') },
    { resource: 'persistentvolumeclaims', object: claim('data-db-2', 'Bound') },
    // Not `<claim>-<set>-<ordinal>` of any set: their own group.
    { resource: 'persistentvolumeclaims', object: claim('data-db-x', 'Bound') },
    { resource: 'persistentvolumeclaims', object: claim('cache', 'Pending') },
    { resource: 'replicationcontrollers', object: replicationController('legacy', 1, 1) },
    { resource: 'pods', object: pod('legacy-abcde', 'running', 'node-1', rcOwner) },
    { resource: 'deployments', object: deployment('web', 2, 2) },
    { resource: 'horizontalpodautoscalers', object: hpa('web', 'Deployment', 'web', 12, 2) },
    { resource: 'horizontalpodautoscalers', object: hpa('db', 'StatefulSet', 'db', undefined, 2) },
    { resource: 'horizontalpodautoscalers', object: hpa('gone', 'Deployment', 'gone', undefined, 1) },
  ]);
  return new ClusterTree(cache, () => NOW, options ? { options: () => options } : {});
}

function namespaceGroups(tree: ClusterTree): TreeNode[] {
  const namespaces = tree.roots().find((n) => n.id === 'namespaces')!;
  const ns = tree.children(namespaces).find((n) => n.label === 'default')!;
  return tree.children(ns);
}

function group(tree: ClusterTree, title: string): TreeNode[] {
  const g = namespaceGroups(tree).find((n) => n.label === title);
  assert.ok(g, `no group ${title}`);
  return tree.children(g);
}

function rows(_tree: ClusterTree, nodes: TreeNode[]): [string, string | undefined, string | undefined][] {
  return nodes.map((n) => [n.label, n.description, n.icon.color]);
}

describe('ClusterTree: StatefulSets, ReplicationControllers, PVCs and HPAs', () => {
  test('groups appear in order and only when they have top-level objects', () => {
    assert.deepEqual(
      namespaceGroups(cluster()).map((g) => [g.label, g.description]),
      [
        ['Deployments', '1'],
        ['StatefulSets', '1'],
        ['ReplicationControllers', '1'],
        ['PersistentVolumeClaims', '2'],
        ['HorizontalPodAutoscalers', '1'],
      ],
    );
  });

  test('a StatefulSet shows its HPA, its pods and its claims <claim>-<set>-<ordinal>, kept after a scale-down', () => {
    const tree = cluster();
    const [db] = group(tree, 'StatefulSets');
    assert.equal(db!.description, '1/2');
    assert.equal(db!.collapsible, 'expanded');
    assert.deepEqual(rows(tree, tree.children(db!)), [
      ['db', 'cpu: <unknown>/50% · 2 replicas (1–5)', undefined],
      ['db-0', 'Running · node-1 · 5m', 'charts.green'],
      ['db-1', 'Pending · 5m', 'charts.yellow'],
      ['data-db-0', 'Bound · 1Gi · RWO', 'charts.green'],
      ['data-db-1', 'Pending', 'charts.yellow'],
      ['data-db-2', 'Bound · 1Gi · RWO', 'charts.green'],
    ]);
    assert.deepEqual(
      tree.children(db!).map((n) => n.contextValue),
      ['horizontalpodautoscaler', 'pod.running', 'pod.pending', ...Array(3).fill('persistentvolumeclaim')],
    );
  });

  test('claims no set names sit in the PersistentVolumeClaims group, in kubectl words', () => {
    const tree = cluster();
    assert.deepEqual(rows(tree, group(tree, 'PersistentVolumeClaims')), [
      ['cache', 'Pending', 'charts.yellow'],
      ['data-db-x', 'Bound · 1Gi · RWO', 'charts.green'],
    ]);
  });

  test('a ReplicationController groups its pods, described as DESIRED/READY', () => {
    const tree = cluster();
    const [rc] = group(tree, 'ReplicationControllers');
    assert.equal(rc!.description, '1/1');
    assert.equal(rc!.contextValue, 'replicationcontroller');
    assert.deepEqual(
      tree.children(rc!).map((n) => n.label),
      ['legacy-abcde'],
    );
  });

  test('an HPA sits under the workload it scales with kubectl TARGETS; one whose target is missing has a group', () => {
    const tree = cluster();
    const [web] = group(tree, 'Deployments');
    assert.deepEqual(rows(tree, tree.children(web!)), [['web', 'cpu: 12%/50% · 2 replicas (1–5)', undefined]]);
    assert.deepEqual(rows(tree, group(tree, 'HorizontalPodAutoscalers')), [
      ['gone', 'cpu: <unknown>/50% · 1 replica (1–5)', undefined],
    ]);
  });

  test('only what needs attention keeps a Pending claim and the set above it', () => {
    const tree = cluster({ groupBy: 'namespace', unhealthyOnly: true, hideEmptyReplicaSets: true });
    assert.deepEqual(
      namespaceGroups(tree).map((g) => g.label),
      ['StatefulSets', 'PersistentVolumeClaims'],
    );
    assert.deepEqual(
      rows(tree, group(tree, 'PersistentVolumeClaims')).map((r) => r[0]),
      ['cache'],
    );
  });
});
