/** What the tree knows about state: context values, the Fail Node countdown, filters, grouping, the empty state. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterTree } from '../../../client/src/model/clusterTree';
import {
  evictionAt,
  healthSummary,
  lastTerminations,
  needsAttention,
  nodeContextValue,
  nodeFailureText,
  podContextValue,
} from '../../../client/src/model/liveState';
import { tooltipText } from '../../../client/src/model/treeNode';
import type { TreeNode } from '../../../client/src/model/treeNode';
import { DEFAULT_TREE_OPTIONS, describeTreeOptions, readTreeOptions } from '../../../client/src/model/treeOptions';
import type { TreeOptions } from '../../../client/src/model/treeOptions';
import type { Node } from 'kubernetes-types/core/v1';
import type { Typed } from '../../../sandbox/api/types';
import { CREATED, NOW, cacheOf, namespace, node, pod, webCluster } from './fixtures';

/** Every row, depth first, as `indent label (description) [contextValue]`. */
function outline(tree: ClusterTree, nodes = tree.roots(), depth = 0): string[] {
  return nodes.flatMap((n: TreeNode) => [
    `${'  '.repeat(depth)}${n.label}${n.description ? ` (${n.description})` : ''}`,
    ...outline(tree, tree.children(n), depth + 1),
  ]);
}

function treeWith(options: Partial<TreeOptions>, failed: { name: string; notReadyAt: number }[] = []): ClusterTree {
  return new ClusterTree(webCluster(), () => NOW, {
    options: () => ({ ...DEFAULT_TREE_OPTIONS, ...options }),
    failedNodes: () => failed,
  });
}

describe('context values', () => {
  test("a node's carry its readiness, schedulability and whether Fail Node stopped its kubelet", () => {
    const failed = { name: 'node-1', notReadyAt: NOW + 40_000 };
    assert.equal(nodeContextValue(node('node-1', true), undefined), 'node.ready.schedulable');
    assert.equal(nodeContextValue(node('node-1', true, true), undefined), 'node.ready.unschedulable');
    assert.equal(nodeContextValue(node('node-1', false), failed), 'node.notready.schedulable.kubeletStopped');
    const blank: Typed<Node> = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } };
    assert.equal(nodeContextValue(blank, undefined), 'node.unknown.schedulable');
  });

  test("a pod's carry its phase, or terminating once deleted", () => {
    assert.equal(podContextValue(pod('a', 'running', 'node-1')), 'pod.running');
    assert.equal(podContextValue(pod('a', 'pending', undefined)), 'pod.pending');
    assert.equal(podContextValue(pod('a', 'completed', 'node-1')), 'pod.succeeded');
    const p = pod('a', 'running', 'node-1');
    assert.equal(podContextValue({ ...p, metadata: { ...p.metadata, deletionTimestamp: CREATED } }), 'pod.terminating');
  });
});

describe('Fail Node, marked at once', () => {
  test('counts down to NotReady, then to the eviction of the pods that tolerate the taint for 300 s', () => {
    const failed = { name: 'node-1', notReadyAt: NOW + 38_000 };
    assert.equal(nodeFailureText(node('node-1', true), [], failed, NOW), 'kubelet stopped — NotReady in 38s');
    assert.equal(
      nodeFailureText(node('node-1', true), [], failed, NOW + 39_000),
      'kubelet stopped — NotReady any moment',
    );
    const tainted: Typed<Node> = {
      ...node('node-1', false),
      spec: {
        taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2025-01-01T00:09:00Z' }],
      },
    };
    const p = pod('web-1', 'running', 'node-1');
    const tolerating = {
      ...p,
      spec: {
        ...p.spec!,
        tolerations: [
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
    };
    assert.equal(evictionAt(tainted, [tolerating]), Date.UTC(2025, 0, 1, 0, 14, 0));
    assert.equal(nodeFailureText(tainted, [tolerating], failed, NOW), 'kubelet stopped — evicting pods in 4m');
    assert.equal(nodeFailureText(tainted, [p], failed, NOW), 'kubelet stopped');
  });

  test('the tree shows it on the node row and offers Recover Node by its context value', () => {
    const rows = outline(treeWith({}, [{ name: 'node-1', notReadyAt: NOW + 40_000 }]));
    assert.ok(rows.includes('  node-1 (Ready · 2 pods · kubelet stopped — NotReady in 40s)'), rows.join('\n'));
    const tree = treeWith({}, [{ name: 'node-1', notReadyAt: NOW + 40_000 }]);
    const node1 = tree.children(tree.roots()[0])[0];
    assert.equal(node1.contextValue, 'node.ready.schedulable.kubeletStopped');
  });
});

describe('a failed drain, kept on its node', () => {
  test("the cordoned node's row says so, its tooltip says kubectl's reason and what to do", () => {
    const message =
      'cannot delete cannot delete Pods that declare no controller (use --force to override): default/debug';
    const tree = new ClusterTree(webCluster(), () => NOW, {
      refusedDrains: () => [{ node: 'node-3', message }],
    });
    const nodes = tree.children(tree.roots()[0]);
    const node3 = nodes.find((n) => n.label === 'node-3')!;
    assert.equal(node3.description, 'Ready · SchedulingDisabled · 1 pod · drain failed');
    assert.ok(
      // The tooltip is Markdown: its punctuation is escaped.
      tooltipText(node3)!
        .replace(/\\(.)/g, '$1')
        .includes(`Drain failed: ${message}. The node stays cordoned: Uncordon it, or drain it again.`),
      tooltipText(node3),
    );
    const node1 = nodes.find((n) => n.label === 'node-1')!;
    assert.equal(node1.description, 'Ready · 2 pods');
    assert.ok(!tooltipText(node1)!.includes('Drain failed'));
  });
});

describe('pod tooltip', () => {
  test("says each container's last termination: reason, exit code, when", () => {
    assert.deepEqual(lastTerminations(pod('c', 'crashing', 'node-1'), NOW), ['app: Error, exit code 1, 60s ago']);
    assert.deepEqual(lastTerminations(pod('a', 'running', 'node-1'), NOW), []);
    const tree = new ClusterTree(webCluster(), () => NOW);
    const crashing = tree.children(tree.roots()[0])[0];
    const row = tree.children(crashing).find((n) => n.label === 'web-7d9f-c')!;
    assert.match(tooltipText(row)!, /- Last termination of app: Error, exit code 1, 60s ago$/);
  });
});

describe('filters and grouping', () => {
  test('unhealthy only: the parents on the way to what needs attention, nothing else', () => {
    assert.deepEqual(outline(treeWith({ unhealthyOnly: true })), [
      'Nodes (3)',
      '  node-1 (Ready · 2 pods)',
      '    web-7d9f-c (CrashLoopBackOff · 4 restarts · node-1 · 5m)',
      '  node-2 (NotReady · 0 pods)',
      '  node-3 (Ready · SchedulingDisabled · 1 pod)',
      '    debug (Running · 0/1 ready · node-3 · 5m)',
      'Namespaces',
      '  default',
      '    Deployments (1)',
      '      web (1/3)',
      '        web-7d9f (1/3)',
      '          web-7d9f-b (Pending · 5m)',
      '          web-7d9f-c (CrashLoopBackOff · 4 restarts · node-1 · 5m)',
      '    Pods (1)',
      '      debug (Running · 0/1 ready · node-3 · 5m)',
    ]);
  });

  test('old 0/0 ReplicaSets are hidden by default and shown on request', () => {
    const rs = (tree: ClusterTree) => outline(tree).filter((r) => r.trim().startsWith('web-old'));
    assert.deepEqual(rs(treeWith({})), []);
    assert.deepEqual(rs(treeWith({ hideEmptyReplicaSets: false })), ['        web-old (0/0)']);
  });

  test('one namespace: only its objects, and on the nodes only its pods', () => {
    const cache = webCluster();
    cache.apply({
      kind: 'changes',
      changes: [
        { type: 'ADDED', resource: 'namespaces', object: namespace('shop') },
        { type: 'ADDED', resource: 'pods', object: pod('cart', 'running', 'node-1', undefined, 'shop') },
      ],
    });
    const tree = new ClusterTree(cache, () => NOW, { options: () => ({ ...DEFAULT_TREE_OPTIONS, namespace: 'shop' }) });
    assert.deepEqual(outline(tree), [
      'Nodes (3)',
      '  node-1 (Ready · 3 pods)',
      '    cart (Running · node-1 · 5m)',
      '  node-2 (NotReady · 0 pods)',
      '  node-3 (Ready · SchedulingDisabled · 1 pod)',
      'Namespaces',
      '  shop',
      '    Pods (1)',
      '      cart (Running · node-1 · 5m)',
    ]);
  });

  test('by node: each node with its pods, the unscheduled ones apart, namespaces after', () => {
    const tree = treeWith({ groupBy: 'node' });
    const roots = tree.roots();
    assert.deepEqual(
      roots.map((r) => [r.label, r.collapsible]),
      [
        ['node-1', 'expanded'],
        ['node-2', 'none'],
        ['node-3', 'expanded'],
        ['Unscheduled', 'expanded'],
        ['Namespaces', 'collapsed'],
      ],
    );
    assert.deepEqual(
      tree.children(roots[3]).map((p) => [p.label, p.id]),
      [['web-7d9f-b', 'unscheduled/pods/uid-web-7d9f-b']],
    );
  });

  test('options read back from storage fall back to their defaults, and the view says which are on', () => {
    assert.deepEqual(readTreeOptions(undefined), DEFAULT_TREE_OPTIONS);
    assert.deepEqual(readTreeOptions({ groupBy: 'pods', unhealthyOnly: 'yes', namespace: '' }), DEFAULT_TREE_OPTIONS);
    const all: TreeOptions = { groupBy: 'node', unhealthyOnly: true, namespace: 'shop', hideEmptyReplicaSets: false };
    assert.deepEqual(readTreeOptions(all), all);
    assert.equal(describeTreeOptions(all), 'by node · unhealthy only · namespace shop · all ReplicaSets');
    assert.equal(describeTreeOptions(DEFAULT_TREE_OPTIONS), '');
  });
});

describe('empty state and ids', () => {
  test('before anything is applied the tree is empty (the view shows its welcome), with the system objects only', () => {
    const cache = cacheOf([
      { resource: 'nodes', object: node('node-1', true) },
      { resource: 'namespaces', object: namespace('default') },
      { resource: 'namespaces', object: namespace('kube-system') },
      {
        resource: 'services',
        object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', namespace: 'default', uid: 'k' } },
      },
    ]);
    const tree = new ClusterTree(cache, () => NOW);
    assert.equal(tree.hasUserObjects(), false);
    assert.deepEqual(tree.roots(), []);
    assert.equal(new ClusterTree(webCluster(), () => NOW).roots().length, 2);
  });

  test('an object moving from under its deleted owner to its group gets a new id, never one id in two places', () => {
    const cache = webCluster();
    const tree = new ClusterTree(cache, () => NOW);
    const ids = (t: ClusterTree) => {
      const all: string[] = [];
      const walk = (nodes: TreeNode[]) => nodes.forEach((n) => (all.push(n.id), walk(t.children(n))));
      walk(t.roots());
      return all;
    };
    const before = ids(tree).filter((id) => id.endsWith('replicasets/uid-web-7d9f'));
    const dep = cache.get('deployments', 'default', 'web')!;
    cache.apply({ kind: 'changes', changes: [{ type: 'DELETED', resource: 'deployments', object: dep }] });
    tree.invalidate();
    const after = ids(tree);
    assert.deepEqual(before, ['deployments/uid-web/replicasets/uid-web-7d9f']);
    assert.deepEqual(
      after.filter((id) => id.endsWith('replicasets/uid-web-7d9f')),
      ['replicasets/uid-web-7d9f'],
    );
    assert.equal(new Set(after).size, after.length, 'ids are unique');
  });
});

describe('health summary (status bar)', () => {
  test('failing pods, NotReady nodes and Pending pods, in that order; nothing when all is well', () => {
    const cache = webCluster();
    const s = healthSummary(cache.list('pods'), cache.list('nodes'), [{ name: 'node-3', notReadyAt: NOW }]);
    assert.equal(s.text, '1 pod failing · node-2 NotReady · 1 pod Pending');
    assert.deepEqual(s.details, [
      'Failing: default/web-7d9f-c',
      'NotReady: node-2',
      'Kubelet stopped (Fail Node): node-3',
      'Pending: default/web-7d9f-b',
    ]);
    assert.equal(healthSummary([pod('a', 'running', 'node-1')], [node('node-1', true)]).text, '');
  });

  test('needsAttention: not running-and-ready pods, nodes not Ready or cordoned, workloads short of replicas', () => {
    const cache = webCluster();
    const flagged = (r: string) =>
      cache
        .list(r)
        .filter(needsAttention)
        .map((o) => o.metadata.name);
    assert.deepEqual(flagged('pods'), ['debug', 'web-7d9f-b', 'web-7d9f-c']);
    assert.deepEqual(flagged('nodes'), ['node-2', 'node-3']);
    assert.deepEqual(flagged('deployments'), ['web']);
    assert.deepEqual(flagged('replicasets'), ['web-7d9f']);
  });
});
