/** The Cluster tree's sync badge, from a real sandbox: declared objects have one, objects the cluster made do not. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { gitOpsFor } from '../../../sandbox/gitops/forCluster';
import { ClusterTree } from '../../../client/src/model/clusterTree';
import { SyncStatuses } from '../../../client/src/model/syncStatuses';
import type { TreeNode } from '../../../client/src/model/treeNode';
import { DesiredIndex } from '../../../client/src/sandbox/desiredIndex';
import { MirrorCache } from '../../../client/src/sandbox/mirror';
import { configMap, deployment } from '../../sandbox/fixtures';

const RESOURCES = ['nodes', 'namespaces', 'deployments', 'replicasets', 'pods', 'configmaps', 'services'];

function mirrorOf(c: Cluster): MirrorCache {
  const cache = new MirrorCache();
  const objects = RESOURCES.flatMap((resource) => c.api.list(resource).items.map((object) => ({ resource, object })));
  cache.apply({ kind: 'list', resourceVersion: c.api.resourceVersion, objects });
  return cache;
}

/** `label sync` of every node under the default namespace, depth first. */
function badges(tree: ClusterTree): string[] {
  const out: string[] = [];
  const walk = (n: TreeNode) => {
    if (n.source.type === 'object') out.push(`${n.label} ${n.sync ?? '-'}`);
    for (const child of tree.children(n)) walk(child);
  };
  const namespaces = tree.roots().find((r) => r.id === 'namespaces')!;
  for (const ns of tree.children(namespaces)) if (ns.label === 'default') walk(ns);
  return out;
}

describe('the tree shows sync status', () => {
  test('Synced on declared objects, nothing on what the cluster made; OutOfSync once scaled by hand', () => {
    const c = new Cluster({ seed: 4 });
    const g = gitOpsFor(c, { selfHeal: false });
    c.start();
    g.start();
    g.setSource('web.yaml', [
      { line: 0, object: deployment('web', 1) },
      { line: 20, object: configMap('cfg', { a: '1' }) },
    ]);
    c.runUntilSettled();
    const desired = new DesiredIndex();
    desired.replace(g.declaredObjects().map(({ key: _key, ...o }) => o));
    const statuses = new SyncStatuses(desired);
    const treeOf = () => new ClusterTree(mirrorOf(c), () => c.clock.now(), { syncOf: (r, o) => statuses.of(r, o) });
    const synced = badges(treeOf());
    assert.deepEqual(
      synced.filter((b) => !/^web-/.test(b)),
      // kube-root-ca.crt: the root CA publisher's ConfigMap, in every namespace, made by the cluster (no sync status).
      ['web Synced', 'kubernetes -', 'cfg Synced', 'kube-root-ca.crt -'],
    );
    assert.ok(
      synced.some((b) => /^web-[a-z0-9]+ -$/.test(b)),
      `the ReplicaSet has no badge: ${synced.join(', ')}`,
    );
    assert.ok(
      synced.some((b) => /^web-[a-z0-9]+-[a-z0-9]{5} -$/.test(b)),
      `the pod has none: ${synced.join(', ')}`,
    );
    c.scale('deployments', 'default', 'web', 2);
    assert.ok(badges(treeOf()).includes('web OutOfSync'));
    const node = treeOf();
    const web = (function find(n: TreeNode[]): TreeNode | undefined {
      for (const x of n) {
        if (x.label === 'web' && x.source.type === 'object') return x;
        const inner = find(node.children(x));
        if (inner) return inner;
      }
      return undefined;
    })(node.roots());
    const tooltip = web?.tooltip;
    assert.match(
      typeof tooltip === 'function' ? tooltip() : (tooltip ?? ''),
      /OutOfSync: spec\.replicas differs from web\.yaml:1$/,
    );
  });
});
