/**
 * `kubectl rollout restart`, `rollout undo` and `scale` as operations on the
 * API verbs, against a whole cluster in virtual time (kubectl
 * pkg/polymorphichelpers objectrestarter.go and rollback.go; pkg/scale).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { rolloutRestart, rolloutUndo, RESTARTED_AT } from '../../../sandbox/operations/rollout';
import { scale } from '../../../sandbox/operations/scale';
import type { KubeObject } from '../../../sandbox/api/types';
import { deployment, statusOf } from '../fixtures';

type Template = { metadata?: { annotations?: Record<string, string> }; spec: { containers: { image: string }[] } };
const templateOf = (d: KubeObject): Template => (d.spec as { template: Template }).template;
const imageOf = (c: Cluster): string => templateOf(c.api.get('deployments', 'default', 'web')).spec.containers[0].image;
const revision = (c: Cluster): string | undefined =>
  c.api.get('deployments', 'default', 'web').metadata.annotations?.['deployment.kubernetes.io/revision'];

function cluster(): Cluster {
  const c = new Cluster({ nodes: 2, seed: 3 });
  c.start();
  c.apply(deployment('web', 2));
  assert.ok(c.runUntilSettled().settled);
  return c;
}

function setImage(c: Cluster, image: string): void {
  c.api.patch('deployments', 'default', 'web', 'strategic', {
    spec: { template: { spec: { containers: [{ name: 'app', image }] } } },
  });
  assert.ok(c.runUntilSettled().settled);
}

describe('rollout undo', () => {
  test("puts the previous revision's template back; the controller rolls the pods", () => {
    const c = cluster();
    assert.throws(() => rolloutUndo(c.api, 'deployments', 'default', 'web'), {
      message: 'no rollout history found for deployment "web"',
    });
    setImage(c, 'nginx:1.28');
    assert.equal(revision(c), '2');
    const r = rolloutUndo(c.api, 'deployments', 'default', 'web');
    assert.equal(r.message, 'deployment.apps/web rolled back');
    assert.equal(imageOf(c), 'nginx:1.27');
    assert.equal(
      templateOf(c.api.get('deployments', 'default', 'web')).metadata &&
        (templateOf(c.api.get('deployments', 'default', 'web')).metadata as { labels?: Record<string, string> })
          .labels?.['pod-template-hash'],
      undefined,
      'no pod-template-hash label in the Deployment',
    );
    assert.ok(c.runUntilSettled().settled);
    assert.equal(revision(c), '3', 'the old ReplicaSet becomes revision 3');
    const images = c.api
      .list('pods', { labelSelector: 'app=web' })
      .items.map((p) => (p.spec as Template['spec']).containers[0].image);
    assert.deepEqual(images, ['nginx:1.27', 'nginx:1.27']);
  });

  test("--to-revision: kubectl's messages for a missing revision and for the revision already in place", () => {
    const c = cluster();
    setImage(c, 'nginx:1.28');
    assert.throws(() => rolloutUndo(c.api, 'deployments', 'default', 'web', 5), {
      message: 'unable to find specified revision 5 in history',
    });
    assert.equal(
      rolloutUndo(c.api, 'deployments', 'default', 'web', 2).message,
      'deployment.apps/web skipped rollback (current template already matches revision 2)',
    );
    assert.equal(rolloutUndo(c.api, 'deployments', 'default', 'web', 1).message, 'deployment.apps/web rolled back');
    assert.equal(imageOf(c), 'nginx:1.27');
  });

  test('a paused Deployment is refused; other kinds have no rollbacker', () => {
    const c = cluster();
    setImage(c, 'nginx:1.28');
    c.api.patch('deployments', 'default', 'web', 'merge', { spec: { paused: true } });
    assert.throws(() => rolloutUndo(c.api, 'deployments', 'default', 'web'), {
      message:
        "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/web' and try again",
    });
    assert.throws(() => rolloutUndo(c.api, 'replicasets', 'default', 'web'), {
      message: 'no rollbacker has been implemented for "ReplicaSet.apps"',
    });
  });
});

describe('rollout restart', () => {
  test('stamps restartedAt on the template (a new ReplicaSet rolls the pods); twice in one second is refused', () => {
    const c = cluster();
    c.runFor(5000);
    const r = rolloutRestart(c.api, 'deployments', 'default', 'web');
    assert.equal(r.message, 'deployment.apps/web restarted');
    const at = templateOf(c.api.get('deployments', 'default', 'web')).metadata?.annotations?.[RESTARTED_AT];
    assert.equal(at, `${new Date(c.clock.now()).toISOString().slice(0, 19)}Z`, 'RFC 3339, to the second');
    assert.throws(() => rolloutRestart(c.api, 'deployments', 'default', 'web'), {
      message:
        'failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another',
    });
    assert.ok(c.runUntilSettled().settled);
    assert.equal(revision(c), '2');
    assert.equal(c.api.list('replicasets').items.length, 2);
  });

  test('a paused Deployment and kinds without a pod template rollout are refused in kubectl’s words', () => {
    const c = cluster();
    c.api.patch('deployments', 'default', 'web', 'merge', { spec: { paused: true } });
    assert.throws(() => rolloutRestart(c.api, 'deployments', 'default', 'web'), {
      message: `deployments.apps "web" can't restart paused deployment (run rollout resume first)`,
    });
    const rs = c.api.list('replicasets').items[0].metadata.name!;
    assert.throws(() => rolloutRestart(c.api, 'replicasets', 'default', rs), {
      message: `replicasets.apps "${rs}" restarting is not supported`,
    });
  });
});

describe('scale', () => {
  test('through the scale subresource, with kubectl’s message; preconditions are checked', () => {
    const c = cluster();
    const r = scale(c.api, 'deployments', 'default', 'web', 4);
    assert.equal(r.message, 'deployment.apps/web scaled');
    assert.deepEqual([r.scale.kind, (r.scale.spec as { replicas: number }).replicas], ['Scale', 4]);
    assert.ok(c.runUntilSettled().settled);
    assert.equal(c.api.list('pods', { labelSelector: 'app=web' }).items.length, 4);
    assert.throws(() => scale(c.api, 'deployments', 'default', 'web', 2, { currentReplicas: 3 }), {
      message: 'Expected replicas to be 3, was 4',
    });
    assert.throws(
      () => scale(c.api, 'deployments', 'default', 'web', 2, { resourceVersion: '1' }),
      /Expected resource version to be 1, was \d+$/,
    );
    assert.equal(
      scale(c.api, 'deployments', 'default', 'web', 2, { currentReplicas: 4 }).message,
      'deployment.apps/web scaled',
    );
    assert.throws(() => scale(c.api, 'deployments', 'default', 'web', -1), {
      message: 'The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0',
    });
  });

  test('a kind without /scale is 404, as the subresource is not there', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' } });
    assert.deepEqual(
      [
        statusOf(() => scale(c.api, 'configmaps', 'default', 'cfg', 2)).code,
        statusOf(() => scale(c.api, 'configmaps', 'default', 'cfg', 2)).message,
      ],
      [404, 'the server could not find the requested resource'],
    );
  });
});
