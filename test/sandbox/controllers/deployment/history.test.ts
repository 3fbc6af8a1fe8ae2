import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import { computeHash } from '../../../../sandbox/controllers/deployment/hash';
import {
  deploymentManifest,
  newDeploymentHarness,
  reportReplicaSets,
  setImage,
  type DeploymentHarness,
} from './fixtures';

function rollOut(h: DeploymentHarness): void {
  for (let i = 0; i < 8; i++) {
    h.settle();
    reportReplicaSets(h);
  }
  h.settle();
}

function revisions(h: DeploymentHarness): string[] {
  return h.replicaSets().map((rs) => {
    const a = rs.metadata!.annotations!;
    const history = a['deployment.kubernetes.io/revision-history'];
    return `${rs.spec!.template!.spec!.containers[0].image}:${a['deployment.kubernetes.io/revision']}${history ? ` (${history})` : ''}=${rs.spec!.replicas}`;
  });
}

test('rollback by template reuses the old ReplicaSet, bumps its revision and records the history', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 2 }));
  rollOut(h);
  setImage(h, 'nginx:1.28');
  rollOut(h);
  assert.deepEqual(revisions(h), ['nginx:1.27:1=0', 'nginx:1.28:2=2']);
  // kubectl rollout undo: the old RS's template, without its hash label, goes back into the Deployment.
  const old = h.replicaSets()[0];
  const labels = { ...old.spec!.template!.metadata!.labels };
  delete labels['pod-template-hash'];
  const d = h.deployment();
  h.advance(1000);
  h.api.update({ ...d, spec: { ...d.spec!, template: { ...old.spec!.template!, metadata: { labels } } } });
  rollOut(h);
  assert.deepEqual(revisions(h), ['nginx:1.27:3 (1)=2', 'nginx:1.28:2=0']);
  assert.equal(h.deployment().metadata!.annotations!['deployment.kubernetes.io/revision'], '3');
  setImage(h, 'nginx:1.28');
  rollOut(h);
  assert.deepEqual(revisions(h), ['nginx:1.27:3 (1)=0', 'nginx:1.28:4 (2)=2']);
});

test('revisionHistoryLimit deletes the oldest revisions that are scaled to zero', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 1, extra: { revisionHistoryLimit: 1 } }));
  rollOut(h);
  for (const image of ['nginx:1.28', 'nginx:1.29', 'nginx:1.30']) {
    setImage(h, image);
    rollOut(h);
  }
  assert.deepEqual(revisions(h), ['nginx:1.29:3=0', 'nginx:1.30:4=1']);
});

test('an RS already named after the hash with another template is a collision: collisionCount goes up and the name changes', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 1, extra: { paused: true } }));
  h.settle();
  const d = h.deployment();
  const hash = computeHash(d.spec!.template);
  const template = {
    metadata: { labels: { app: 'squatter' } },
    spec: { containers: [{ name: 'x', image: 'busybox' }] },
  };
  h.api.create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: `web-${hash}`, namespace: 'default', labels: { app: 'squatter' } },
    spec: { replicas: 0, selector: { matchLabels: { app: 'squatter' } }, template },
  });
  h.api.patch('deployments', 'default', 'web', 'merge', { spec: { paused: false } });
  h.settle();
  const after = h.deployment();
  assert.equal(after.status!.collisionCount, 1);
  const second = computeHash(d.spec!.template, 1);
  assert.notEqual(second, hash);
  assert.deepEqual(
    h
      .replicaSets()
      .map((rs: ReplicaSet) => `${rs.metadata!.name}=${rs.spec!.replicas}`)
      .sort(),
    [`web-${hash}=0`, `web-${second}=1`].sort(),
  );
  assert.equal(h.api.get('replicasets', 'default', `web-${hash}`).metadata.ownerReferences, undefined);
});
