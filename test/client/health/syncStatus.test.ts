/**
 * Sync status on a real sandbox cluster: every bundled example, applied from
 * its file, settles Synced (defaults, status and controller fields are not
 * drift); a hand-made change is OutOfSync and names its field; a deleted
 * object is Missing; an applied object no file declares is Extra; objects the
 * cluster made have no status.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { gitOpsFor } from '../../../sandbox/gitops/forCluster';
import type { GitOpsSync } from '../../../sandbox/gitops/gitOpsSync';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { applyManifest } from '../../../sandbox/operations/apply/apply';
import { syncStatusOf } from '../../../client/src/health/syncStatus';
import type { SyncStatus } from '../../../client/src/health/syncStatus';
import { configMap, deployment } from '../../sandbox/fixtures';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

function setup(): { c: Cluster; g: GitOpsSync } {
  const c = new Cluster({ seed: 3 });
  const g = gitOpsFor(c, { selfHeal: false });
  c.start();
  g.start();
  return { c, g };
}

/** The status of the object as the host would compute it: the declaration in effect and the live object. */
function statusOf(
  c: Cluster,
  g: GitOpsSync,
  resource: string,
  namespace: string | undefined,
  name: string,
): SyncStatus | undefined {
  return syncStatusOf(g.desired(resource, namespace, name), c.api.tryGet(resource, namespace, name));
}

describe('syncStatusOf', () => {
  test('every example applied from its file is Synced once the cluster settled, and a minute later', () => {
    const { c, g } = setup();
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));
    assert.ok(files.length >= 4, files.join(', '));
    for (const f of files) {
      const result = g.setSource(f, manifestObjects(readFileSync(join(EXAMPLES, f), 'utf8')).manifests);
      assert.deepEqual(
        result.outcomes.filter((o) => !o.ok),
        [],
        f,
      );
    }
    c.runUntilSettled();
    const check = (when: string) => {
      const all = g.declaredObjects();
      assert.ok(all.length >= 6, `${all.length} declared objects`);
      for (const d of all) {
        const s = statusOf(c, g, d.resource, d.namespace, d.name);
        assert.equal(s?.status, 'Synced', `${when}: ${d.resource}/${d.name}: ${s?.message}`);
        assert.equal(s?.message, `Synced with ${d.source}:${d.line + 1}`);
      }
    };
    check('settled');
    c.runFor(60_000);
    check('a minute later');
  });

  test('a hand-scaled Deployment is OutOfSync on spec.replicas; deleted it is Missing', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', [{ line: 8, object: deployment('web', 3) }]);
    c.runUntilSettled();
    c.scale('deployments', 'default', 'web', 5);
    assert.deepEqual(statusOf(c, g, 'deployments', 'default', 'web'), {
      status: 'OutOfSync',
      message: 'OutOfSync: spec.replicas differs from web.yaml:9',
      drift: ['spec.replicas'],
    });
    c.api.delete('deployments', 'default', 'web', { propagationPolicy: 'Background' });
    c.runUntilSettled();
    assert.deepEqual(statusOf(c, g, 'deployments', 'default', 'web'), {
      status: 'Missing',
      message: 'Missing: declared in web.yaml:9, not in the cluster',
      drift: [],
    });
  });

  test('more than three fields: the first three and how many more', () => {
    const { c, g } = setup();
    g.setSource('cfg.yaml', [{ line: 0, object: configMap('cfg', { a: '1', b: '2', c: '3', d: '4' }) }]);
    const live = c.api.get('configmaps', 'default', 'cfg');
    c.api.update({ ...live, data: { a: 'x', b: 'x', c: 'x', d: 'x' } });
    assert.equal(
      statusOf(c, g, 'configmaps', 'default', 'cfg')?.message,
      'OutOfSync: data.a, data.b, data.c and 1 more differ from cfg.yaml:1',
    );
  });

  test('Extra: applied from a file that no longer declares it, or by kubectl apply; the cluster-made have none', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', [{ line: 0, object: deployment('web', 1) }]);
    c.runUntilSettled();
    // The desired state is forgotten (a restored session without it), the object stays.
    g.loadDesiredState({ sources: [] });
    assert.deepEqual(statusOf(c, g, 'deployments', 'default', 'web'), {
      status: 'Extra',
      message: 'Extra: no saved file declares it (applied from web.yaml, which no longer declares it)',
      drift: [],
    });
    applyManifest(c.api, configMap('by-hand'));
    assert.equal(
      statusOf(c, g, 'configmaps', 'default', 'by-hand')?.message,
      'Extra: no saved file declares it (applied by kubectl apply)',
    );
    c.api.create(configMap('created'));
    assert.equal(statusOf(c, g, 'configmaps', 'default', 'created'), undefined, 'kubectl create: not tracked');
    const pod = c.api.list('pods', { namespace: 'default' }).items[0];
    assert.ok(pod, 'the Deployment made a pod');
    assert.equal(statusOf(c, g, 'pods', 'default', pod.metadata.name!), undefined);
    assert.equal(statusOf(c, g, 'services', 'default', 'kubernetes'), undefined);
  });
});
