/**
 * One object declared by two files (Argo CD's shared resource): the file
 * applied last is in the cluster; removing a declaration re-applies the one
 * that remains instead of deleting the object; a conflicting second
 * declaration is said out loud.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { gitOpsFor } from '../../../sandbox/gitops/forCluster';
import type { GitOpsSync, Revert } from '../../../sandbox/gitops/gitOpsSync';
import { DesiredState, SOURCE_ANNOTATION, trackingKey } from '../../../sandbox/gitops/desiredState';
import type { TrackedObject } from '../../../sandbox/gitops/desiredState';
import { configMap, deployment } from '../fixtures';

function setup(reverts: Revert[] = []): { c: Cluster; g: GitOpsSync } {
  const c = new Cluster({ seed: 1 });
  const g = gitOpsFor(c, { selfHeal: true, onRevert: (r) => reverts.push(r) });
  c.start();
  g.start();
  c.runUntilSettled();
  return { c, g };
}

const live = (c: Cluster) => c.api.tryGet('deployments', 'default', 'web');
const replicas = (c: Cluster) => (live(c)?.spec as { replicas: number } | undefined)?.replicas;
const doc = (line: number, object = deployment('web', 3)) => [{ line, object }];

function logLines(c: Cluster, reason: string): string[] {
  return c.log
    .recent()
    .filter((e) => e.reason === reason)
    .map((e) => `${e.level} ${e.object}: ${e.message}`);
}

describe('DesiredState: declarations of one object by several sources', () => {
  const tracked = (source: string, line = 0): TrackedObject => ({
    key: trackingKey('configmaps', 'default', 'cfg'),
    resource: 'configmaps',
    namespace: 'default',
    name: 'cfg',
    source,
    line,
    manifest: configMap('cfg', { from: source }),
  });

  test('the newest declaration is in effect; withdrawing it brings back the one before', () => {
    const s = new DesiredState();
    const key = tracked('a.yaml').key;
    assert.deepEqual(s.declare(tracked('a.yaml')), []);
    assert.deepEqual(
      s.declare(tracked('b.yaml', 4)).map((d) => d.source),
      ['a.yaml'],
    );
    assert.equal(s.get(key)?.source, 'b.yaml');
    assert.deepEqual(s.keysOf('a.yaml'), [key]);
    assert.deepEqual(
      s.all().map((t) => t.source),
      ['b.yaml'],
    );
    // a.yaml saved again: it is the newest now.
    s.declare(tracked('a.yaml', 7));
    assert.deepEqual(
      s.declarations(key).map((d) => `${d.source}:${d.line}`),
      ['b.yaml:4', 'a.yaml:7'],
    );
    const w = s.withdraw(key, 'a.yaml');
    assert.equal(w?.wasInEffect, true);
    assert.equal(w?.inEffect?.source, 'b.yaml');
    assert.equal(s.withdraw(key, 'a.yaml'), undefined, 'a second withdrawal finds nothing');
    const last = s.withdraw(key, 'b.yaml');
    assert.deepEqual([last?.wasInEffect, last?.inEffect], [true, undefined]);
    assert.equal(s.get(key), undefined);
    assert.deepEqual(s.keysOf('b.yaml'), []);
  });

  test('withdrawing a shadowed declaration leaves the one in effect', () => {
    const s = new DesiredState();
    s.declare(tracked('a.yaml'));
    s.declare(tracked('b.yaml'));
    const w = s.withdraw(tracked('a.yaml').key, 'a.yaml');
    assert.deepEqual([w?.wasInEffect, w?.inEffect?.source], [false, 'b.yaml']);
  });

  test('the order of declarations survives the data form; older data without order loads in saved order', () => {
    const s = new DesiredState();
    s.declare(tracked('b.yaml'));
    s.declare(tracked('a.yaml'));
    const copy = new DesiredState();
    copy.load(JSON.parse(JSON.stringify(s.toData())));
    assert.equal(copy.get(tracked('a.yaml').key)?.source, 'a.yaml');
    assert.deepEqual(copy.toData(), s.toData());
    const old = new DesiredState();
    old.load({
      sources: [{ source: 'x.yaml', objects: [{ ...tracked('x.yaml'), key: undefined } as unknown as TrackedObject] }],
    });
    assert.equal(old.get(tracked('x.yaml').key)?.source, 'x.yaml');
  });
});

describe('GitOpsSync: an object declared in two files', () => {
  test('the second file wins, with a SharedResource warning and `sharedWith` on its outcome', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    c.runUntilSettled();
    const second = g.setSource('new.yaml', doc(0, deployment('web', 1)));
    assert.deepEqual(second.outcomes, [
      { line: 0, message: 'deployment.apps/web configured', ok: true, action: 'configured', sharedWith: ['web.yaml'] },
    ]);
    assert.equal(replicas(c), 1);
    assert.equal(live(c)?.metadata.annotations?.[SOURCE_ANNOTATION], 'new.yaml');
    assert.equal(g.desired('deployments', 'default', 'web')?.source, 'new.yaml');
    assert.deepEqual(logLines(c, 'SharedResource'), [
      "Warning default/web: deployment.apps/web is also declared in web.yaml; new.yaml's declaration, applied last, is the one in the cluster (deleting either file re-applies the other's)",
    ]);
    assert.deepEqual(
      g.declaredObjects().map((o) => ({ source: o.source, line: o.line, shadowed: o.shadowed })),
      [{ source: 'new.yaml', line: 0, shadowed: [{ source: 'web.yaml', line: 8 }] }],
    );
    // Saving new.yaml again changes nothing and does not warn again: the ownership did not move.
    g.setSource('new.yaml', doc(0, deployment('web', 1)));
    assert.equal(logLines(c, 'SharedResource').length, 1);
  });

  test("deleting the file in effect re-applies the other file's declaration; the object is never deleted", () => {
    const { c, g } = setup();
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    c.runUntilSettled();
    const uid = live(c)?.metadata.uid;
    g.setSource('new.yaml', doc(0, deployment('web', 1)));
    c.runUntilSettled();
    assert.deepEqual(g.removeSource('new.yaml'), { pruned: [], reapplied: ['deployment.apps/web from web.yaml'] });
    assert.equal(replicas(c), 3);
    assert.equal(live(c)?.metadata.uid, uid, 'the same object, not a new one');
    assert.equal(live(c)?.metadata.annotations?.[SOURCE_ANNOTATION], 'web.yaml');
    assert.deepEqual(
      logLines(c, 'Synced').at(-1),
      'Normal default/web: deployment.apps/web configured from web.yaml: new.yaml no longer declares it',
    );
    assert.equal(c.runUntilSettled().settled, true);
    c.runFor(5000);
    assert.equal(replicas(c), 3, 'self-heal holds the remaining declaration');
    assert.deepEqual(g.removeSource('web.yaml'), { pruned: ['deployment.apps/web'] });
    assert.equal(live(c), undefined);
  });

  test('a file that stops declaring the object (edited, not deleted) hands it back too', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    g.setSource('new.yaml', [...doc(0, deployment('web', 1)), { line: 20, object: configMap('cfg') }]);
    const edited = g.setSource('new.yaml', [{ line: 0, object: configMap('cfg') }]);
    assert.deepEqual(edited.pruned, []);
    assert.deepEqual(edited.reapplied, ['deployment.apps/web from web.yaml']);
    assert.equal(replicas(c), 3);
  });

  test('deleting the shadowed file changes nothing live', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    g.setSource('new.yaml', doc(0, deployment('web', 1)));
    c.runUntilSettled();
    const rv = live(c)?.metadata.resourceVersion;
    assert.deepEqual(g.removeSource('web.yaml'), { pruned: [] });
    assert.equal(live(c)?.metadata.resourceVersion, rv);
    assert.equal(g.desired('deployments', 'default', 'web')?.source, 'new.yaml');
    assert.deepEqual(g.declaredObjects()[0].shadowed, []);
  });

  test('a file saved again takes the object back (the last applied wins)', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    g.setSource('new.yaml', doc(0, deployment('web', 1)));
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    assert.equal(replicas(c), 3);
    assert.equal(g.desired('deployments', 'default', 'web')?.source, 'web.yaml');
    assert.equal(logLines(c, 'SharedResource').length, 2, 'ownership moved twice, warned twice');
    assert.deepEqual(g.removeSource('web.yaml'), { pruned: [], reapplied: ['deployment.apps/web from new.yaml'] });
    assert.equal(replicas(c), 1);
  });

  test('Reset: a fresh cluster gets the declarations in effect, namespaces first', () => {
    const { g } = setup();
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } };
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    g.setSource('new.yaml', doc(0, deployment('web', 1)));
    g.setSource('ns.yaml', [{ line: 0, object: ns }]);
    g.setSource('z-app.yaml', [{ line: 0, object: configMap('cfg', {}, 'team') }]);
    const data = JSON.parse(JSON.stringify(g.desiredState()));
    const { c: fresh, g: again } = setup();
    // The configmap's file comes before the namespace's in the data: syncAll still creates the namespace first.
    again.loadDesiredState({ sources: [...data.sources].reverse() });
    again.syncAll();
    assert.equal(replicas(fresh), 1);
    assert.notEqual(fresh.api.tryGet('configmaps', 'team', 'cfg'), undefined);
    assert.deepEqual(logLines(fresh, 'SyncFailed'), []);
  });

  test('Revert Live to Manifest puts back one object now, even with self-heal off, and says what it changed', () => {
    const { c, g } = setup();
    g.selfHeal = false;
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    c.runUntilSettled();
    c.scale('deployments', 'default', 'web', 5);
    const result = g.revert('deployments', 'default', 'web');
    assert.equal(result.message, 'deployment.apps/web configured');
    assert.equal(result.source, 'web.yaml');
    assert.deepEqual(
      result.changes.map((ch) => ({ path: ch.path, segments: ch.segments, live: ch.live, desired: ch.desired })),
      [{ path: 'spec.replicas', segments: ['spec', 'replicas'], live: 5, desired: 3 }],
    );
    assert.equal(replicas(c), 3);
    assert.throws(() => g.revert('configmaps', 'default', 'nope'), /configmap\/nope is not declared in any saved file/);
  });

  test('self-heal tells its listener what it reverted, with the live values it replaced', () => {
    const reverts: Revert[] = [];
    const { c, g } = setup(reverts);
    g.setSource('web.yaml', doc(8, deployment('web', 3)));
    c.runUntilSettled();
    c.scale('deployments', 'default', 'web', 5);
    c.runFor(2000);
    assert.equal(replicas(c), 3);
    assert.deepEqual(
      reverts.map((r) => ({
        source: r.tracked.source,
        line: r.tracked.line,
        recreated: r.recreated,
        changes: r.changes.map((ch) => [ch.segments.join('.'), ch.live, ch.desired]),
      })),
      [{ source: 'web.yaml', line: 8, recreated: false, changes: [['spec.replicas', 5, 3]] }],
    );
    c.api.delete('deployments', 'default', 'web');
    c.runUntilSettled();
    assert.equal(reverts.at(-1)?.recreated, true);
    assert.deepEqual(reverts.at(-1)?.changes, []);
  });
});
