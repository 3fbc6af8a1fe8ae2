import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterTree } from '../../../client/src/model/clusterTree';
import type { TreeNode } from '../../../client/src/model/treeNode';
import { NOW, cacheOf, controller, namespace, pod, webCluster } from './fixtures';

interface Shape {
  id: string;
  label: string;
  description?: string;
  icon: TreeNode['icon'];
  contextValue: string;
  collapsible: TreeNode['collapsible'];
  children?: Shape[];
}

/** The whole tree below `nodes`, every level expanded, without tooltips (tested apart). */
function expand(tree: ClusterTree, nodes: TreeNode[]): Shape[] {
  return nodes.map((n) => {
    const children = tree.children(n);
    const shape: Shape = {
      id: n.id,
      label: n.label,
      icon: n.icon,
      contextValue: n.contextValue,
      collapsible: n.collapsible,
    };
    if (n.description !== undefined) shape.description = n.description;
    if (children.length > 0) shape.children = expand(tree, children);
    return shape;
  });
}

const green = 'charts.green';
const yellow = 'charts.yellow';
const red = 'charts.red';

describe('ClusterTree', () => {
  test('nests workloads by owner, lists only non-empty groups, hides old 0/0 ReplicaSets, and describes each object in kubectl words', () => {
    const tree = new ClusterTree(webCluster(), () => NOW);
    const podA = {
      label: 'web-7d9f-a',
      description: 'Running · node-1 · 5m',
      icon: { id: 'vm', color: green },
      contextValue: 'pod.running',
      collapsible: 'none',
    } as const;
    const podB = {
      label: 'web-7d9f-b',
      description: 'Pending · 5m',
      icon: { id: 'vm', color: yellow },
      contextValue: 'pod.pending',
      collapsible: 'none',
    } as const;
    const podC = {
      label: 'web-7d9f-c',
      description: 'CrashLoopBackOff · 4 restarts · node-1 · 5m',
      icon: { id: 'vm', color: red },
      contextValue: 'pod.running',
      collapsible: 'none',
    } as const;
    const tickPod = {
      label: 'tick-1-x',
      description: 'Completed · node-1 · 5m',
      icon: { id: 'vm' },
      contextValue: 'pod.succeeded',
      collapsible: 'none',
    } as const;
    const debugPod = {
      label: 'debug',
      description: 'Running · 0/1 ready · node-3 · 5m',
      icon: { id: 'vm', color: yellow },
      contextValue: 'pod.running',
      collapsible: 'none',
    } as const;
    const expected: Shape[] = [
      {
        id: 'nodes',
        label: 'Nodes',
        description: '3',
        icon: { id: 'server-environment' },
        contextValue: 'group',
        collapsible: 'expanded',
        children: [
          {
            id: 'node/uid-node-1',
            label: 'node-1',
            description: 'Ready · 2 pods',
            icon: { id: 'server', color: green },
            contextValue: 'node.ready.schedulable',
            collapsible: 'collapsed',
            children: [
              { id: 'node/uid-node-1/pods/uid-tick-1-x', ...tickPod },
              { id: 'node/uid-node-1/pods/uid-web-7d9f-a', ...podA },
              { id: 'node/uid-node-1/pods/uid-web-7d9f-c', ...podC },
            ],
          },
          {
            id: 'node/uid-node-2',
            label: 'node-2',
            description: 'NotReady · 0 pods',
            icon: { id: 'server', color: red },
            contextValue: 'node.notready.schedulable',
            collapsible: 'none',
          },
          {
            id: 'node/uid-node-3',
            label: 'node-3',
            description: 'Ready · SchedulingDisabled · 1 pod',
            icon: { id: 'server', color: yellow },
            contextValue: 'node.ready.unschedulable',
            collapsible: 'collapsed',
            children: [{ id: 'node/uid-node-3/pods/uid-debug', ...debugPod }],
          },
        ],
      },
      {
        id: 'namespaces',
        label: 'Namespaces',
        icon: { id: 'symbol-namespace' },
        contextValue: 'group',
        collapsible: 'expanded',
        children: [
          {
            id: 'ns/default',
            label: 'default',
            icon: { id: 'symbol-namespace' },
            contextValue: 'namespace',
            collapsible: 'expanded',
            children: [
              {
                id: 'ns/default/deployments',
                label: 'Deployments',
                description: '1',
                icon: { id: 'layers' },
                contextValue: 'group',
                collapsible: 'expanded',
                children: [
                  {
                    id: 'deployments/uid-web',
                    label: 'web',
                    description: '1/3',
                    icon: { id: 'layers', color: yellow },
                    contextValue: 'deployment',
                    collapsible: 'expanded',
                    children: [
                      {
                        id: 'deployments/uid-web/replicasets/uid-web-7d9f',
                        label: 'web-7d9f',
                        description: '1/3',
                        icon: { id: 'copy', color: yellow },
                        contextValue: 'replicaset',
                        collapsible: 'expanded',
                        children: [
                          { id: 'deployments/uid-web/replicasets/uid-web-7d9f/pods/uid-web-7d9f-a', ...podA },
                          { id: 'deployments/uid-web/replicasets/uid-web-7d9f/pods/uid-web-7d9f-b', ...podB },
                          { id: 'deployments/uid-web/replicasets/uid-web-7d9f/pods/uid-web-7d9f-c', ...podC },
                        ],
                      },
                    ],
                  },
                ],
              },
              {
                id: 'ns/default/pods',
                label: 'Pods',
                description: '1',
                icon: { id: 'vm' },
                contextValue: 'group',
                collapsible: 'expanded',
                children: [{ id: 'pods/uid-debug', ...debugPod }],
              },
              {
                id: 'ns/default/services',
                label: 'Services',
                description: '1',
                icon: { id: 'plug' },
                contextValue: 'group',
                collapsible: 'expanded',
                children: [
                  {
                    id: 'services/uid-svc-web',
                    label: 'web',
                    description: 'ClusterIP · 10.96.0.10 · 80/TCP',
                    icon: { id: 'plug' },
                    contextValue: 'service',
                    collapsible: 'none',
                  },
                ],
              },
              {
                id: 'ns/default/cronjobs',
                label: 'CronJobs',
                description: '1',
                icon: { id: 'watch' },
                contextValue: 'group',
                collapsible: 'expanded',
                children: [
                  {
                    id: 'cronjobs/uid-tick',
                    label: 'tick',
                    description: '*/5 * * * * · 0 active',
                    icon: { id: 'watch' },
                    contextValue: 'cronjob',
                    collapsible: 'collapsed',
                    children: [
                      {
                        id: 'cronjobs/uid-tick/jobs/uid-tick-1',
                        label: 'tick-1',
                        description: 'Complete · 1/1',
                        icon: { id: 'checklist' },
                        contextValue: 'job',
                        collapsible: 'collapsed',
                        children: [{ id: 'cronjobs/uid-tick/jobs/uid-tick-1/pods/uid-tick-1-x', ...tickPod }],
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            id: 'ns/empty',
            label: 'empty',
            icon: { id: 'symbol-namespace' },
            contextValue: 'namespace',
            collapsible: 'none',
          },
        ],
      },
    ];
    assert.deepEqual(expand(tree, tree.roots()), expected);
  });

  test('an object whose controller is not in the cache, or does not nest its kind, sits in its own group', () => {
    const cache = cacheOf([
      { resource: 'namespaces', object: namespace('default') },
      { resource: 'pods', object: pod('orphan', 'running', 'node-1', controller('ReplicaSet', 'gone', 'uid-gone')) },
      {
        resource: 'cronjobs',
        object: {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: { name: 'cj', namespace: 'default', uid: 'uid-cj' },
          spec: { schedule: '* * * * *' },
        },
      },
      { resource: 'pods', object: pod('odd', 'running', 'node-1', controller('CronJob', 'cj', 'uid-cj', 'batch/v1')) },
    ]);
    const tree = new ClusterTree(cache, () => NOW);
    const ns = tree.children(tree.roots()[1])[0];
    const groups = tree.children(ns);
    assert.deepEqual(
      groups.map((g) => [g.label, tree.children(g).map((o) => o.label)]),
      [
        ['Pods', ['odd', 'orphan']],
        ['CronJobs', ['cj']],
      ],
    );
    assert.deepEqual(tree.children(tree.children(groups[1])[0]), []);
  });

  test('ids stay the same when objects change, and the tree shows the change once invalidated', () => {
    const cache = webCluster();
    const tree = new ClusterTree(cache, () => NOW);
    const podsOfRs = () => {
      const dep = tree.children(tree.children(tree.children(tree.children(tree.roots()[1])[0])[0])[0])[0];
      return tree.children(dep).map((p) => [p.id, p.description]);
    };
    const before = podsOfRs();
    const updated = pod('web-7d9f-b', 'running', 'node-3', controller('ReplicaSet', 'web-7d9f', 'uid-web-7d9f'));
    cache.apply({
      kind: 'changes',
      changes: [
        {
          type: 'MODIFIED',
          resource: 'pods',
          object: { ...updated, metadata: { ...updated.metadata, resourceVersion: '2' } },
        },
      ],
    });
    tree.invalidate();
    const after = podsOfRs();
    assert.deepEqual(
      after.map(([id]) => id),
      before.map(([id]) => id),
    );
    assert.deepEqual(after[1], [
      'deployments/uid-web/replicasets/uid-web-7d9f/pods/uid-web-7d9f-b',
      'Running · node-3 · 5m',
    ]);
  });

  test('only objects that can come from a file reveal their manifest when selected', () => {
    const tree = new ClusterTree(webCluster(), () => NOW);
    const all: TreeNode[] = [];
    const collect = (nodes: TreeNode[]): void => {
      for (const n of nodes) {
        all.push(n);
        collect(tree.children(n));
      }
    };
    collect(tree.roots());
    const revealing = new Set(all.filter((n) => n.revealsManifest).map((n) => n.id));
    assert.deepEqual([...revealing].sort(), [
      'cronjobs/uid-tick',
      'deployments/uid-web',
      'node/uid-node-3/pods/uid-debug',
      'ns/default',
      'ns/empty',
      'pods/uid-debug',
      'services/uid-svc-web',
    ]);
  });

  test('objects carry a ref for the commands: namespaced with their namespace, nodes without', () => {
    const tree = new ClusterTree(webCluster(), () => NOW);
    const [nodes, namespaces] = tree.roots();
    assert.deepEqual(tree.children(nodes)[0].ref, { resource: 'nodes', name: 'node-1' });
    const svc = tree.children(tree.children(tree.children(namespaces)[0])[2])[0];
    assert.deepEqual(svc.ref, { resource: 'services', namespace: 'default', name: 'web' });
    assert.equal(nodes.ref, undefined);
  });
});
