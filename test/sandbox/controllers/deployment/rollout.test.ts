import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../sandbox/api/types';
import {
  deploymentManifest,
  newDeploymentHarness,
  patchSpec,
  reportReplicaSets,
  setImage,
  type DeploymentHarness,
} from './fixtures';

/** Records every change of an RS's `spec.replicas` as `name=replicas`, checking `check` at each. */
function watchSizes(h: DeploymentHarness, check: () => void): string[] {
  const steps: string[] = [];
  const last = new Map<string, number>();
  h.api.watch('replicasets', { resourceVersion: h.api.resourceVersion }, (e) => {
    const rs = e.object;
    if (e.type === 'DELETED' || last.get(rs.metadata!.name!) === rs.spec!.replicas) return;
    last.set(rs.metadata!.name!, rs.spec!.replicas!);
    steps.push(`${rs.metadata!.name}=${rs.spec!.replicas}`);
    check();
  });
  return steps;
}

test('rolling update, 3 replicas at 25%/25%: one surge pod at a time, never below 3 available', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 3 }));
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  const [v1] = h.replicaSets().map((r) => r.metadata!.name!);
  const violations: string[] = [];
  const steps = watchSizes(h, () => {
    const rss = h.replicaSets();
    const total = rss.reduce((n, r) => n + r.spec!.replicas!, 0);
    const available = rss.reduce((n, r) => n + Math.min(r.spec!.replicas!, r.status?.availableReplicas ?? 0), 0);
    if (total > 3 + 1 || available < 3 - 0) violations.push(`total ${total}, available ${available}`);
  });
  setImage(h, 'nginx:1.28');
  for (let i = 0; i < 6; i++) {
    h.settle();
    reportReplicaSets(h);
  }
  h.settle();
  const v2 = h
    .replicaSets()
    .map((r) => r.metadata!.name!)
    .find((n) => n !== v1)!;
  assert.deepEqual(steps, [`${v2}=1`, `${v1}=2`, `${v2}=2`, `${v1}=1`, `${v2}=3`, `${v1}=0`]);
  assert.deepEqual(violations, []);
  const d = h.deployment();
  assert.deepEqual(
    [d.status!.replicas, d.status!.updatedReplicas, d.status!.availableReplicas, d.status!.unavailableReplicas],
    [3, 3, 3, undefined],
  );
  assert.equal(d.status!.conditions!.find((c) => c.type === 'Progressing')!.reason, 'NewReplicaSetAvailable');
  assert.equal(d.metadata!.annotations!['deployment.kubernetes.io/revision'], '2');
  assert.deepEqual(
    h
      .logLines()
      .filter((l) => l.includes('ScalingReplicaSet'))
      .map((l) => l.replace(/^.* default\/web: /, '')),
    [
      `Scaled up replica set ${v1} from 0 to 3`,
      `Scaled up replica set ${v2} from 0 to 1`,
      `Scaled down replica set ${v1} from 3 to 2`,
      `Scaled up replica set ${v2} from 1 to 2`,
      `Scaled down replica set ${v1} from 2 to 1`,
      `Scaled up replica set ${v2} from 2 to 3`,
      `Scaled down replica set ${v1} from 1 to 0`,
    ],
  );
});

test('a broken new template never costs old pods: the rollout stalls at the surge', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 4 }));
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  setImage(h, 'nginx:broken');
  h.advance(0);
  const v2 = h.replicaSets()[1].metadata!.name!;
  for (let i = 0; i < 3; i++) {
    reportReplicaSets(h, { unavailable: [v2] });
    h.advance(1000);
  }
  // 4 replicas at 25%/25%: surge 1, unavailable 1 → the new RS gets 2, the old keeps 3.
  assert.deepEqual(
    h.replicaSets().map((r) => r.spec!.replicas),
    [3, 2],
  );
});

test('Recreate: old ReplicaSets go to zero and their pods away before the new one is created', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 2, strategy: { type: 'Recreate' } }));
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  const v1 = h.replicaSets()[0];
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-old-pod',
      namespace: 'default',
      labels: v1.spec!.template!.metadata!.labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: v1.metadata!.name!,
          uid: v1.metadata!.uid!,
          controller: true,
        },
      ],
    },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
  };
  h.api.create(pod);
  h.api.updateStatus({ ...h.api.get('pods', 'default', 'web-old-pod'), status: { phase: 'Running' } });
  setImage(h, 'nginx:1.28');
  h.settle();
  assert.deepEqual(h.sizes(), [`${v1.metadata!.name}=0`], 'scaled down, nothing new while the old RS reports replicas');
  reportReplicaSets(h);
  h.settle();
  assert.equal(h.replicaSets().length, 1, 'an old pod is still running');
  h.api.delete('pods', 'default', 'web-old-pod', { gracePeriodSeconds: 0 });
  h.settle();
  const rss = h.replicaSets();
  assert.equal(rss.length, 2);
  assert.deepEqual(
    rss.map((r) => r.spec!.replicas),
    [0, 2],
  );
  const d = h.deployment();
  assert.equal(d.status!.conditions!.find((c) => c.type === 'Available')!.reason, 'MinimumReplicasUnavailable');
});

test('paused: scaling still applies, no new ReplicaSet; the Progressing condition says paused, then resumed', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 3 }));
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  const reasons: string[] = [];
  h.api.watch('deployments', { resourceVersion: h.api.resourceVersion }, (e) => {
    const c = e.object.status?.conditions?.find((x) => x.type === 'Progressing');
    const text = `${c?.status}/${c?.reason}/${c?.message}`;
    if (reasons.at(-1) !== text) reasons.push(text);
  });
  patchSpec(h, { paused: true });
  h.settle();
  setImage(h, 'nginx:1.28');
  patchSpec(h, { replicas: 5 });
  h.settle();
  assert.equal(h.replicaSets().length, 1);
  assert.deepEqual(
    h.replicaSets().map((r) => r.spec!.replicas),
    [5],
  );
  assert.equal(h.clock.pendingForegroundTimers, 0);
  patchSpec(h, { paused: false });
  h.settle();
  const v2 = h.replicaSets()[1].metadata!.name!;
  assert.deepEqual(reasons, [
    `True/NewReplicaSetAvailable/ReplicaSet "${h.replicaSets()[0].metadata!.name}" has successfully progressed.`,
    'Unknown/DeploymentPaused/Deployment is paused',
    'Unknown/DeploymentResumed/Deployment is resumed',
    `True/NewReplicaSetCreated/Created new replica set "${v2}"`,
  ]);
});

test('scaling mid-rollout is proportional, leftovers to the largest ReplicaSet', () => {
  const h = newDeploymentHarness();
  h.api.create(
    deploymentManifest('web', {
      replicas: 10,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } },
    }),
  );
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  setImage(h, 'nginx:broken');
  h.advance(0);
  const v2 = h.replicaSets()[1].metadata!.name!;
  reportReplicaSets(h, { unavailable: [v2] });
  h.advance(0);
  assert.deepEqual(
    h.replicaSets().map((r) => r.spec!.replicas),
    [8, 5],
  );
  patchSpec(h, { replicas: 20 });
  h.advance(0);
  // allowed 20 + 3 = 23, 10 to add: old 8 → 8·23/13 = 14 (+6), new 5 → 5·23/13 = 9 (+4).
  assert.deepEqual(
    h.replicaSets().map((r) => r.spec!.replicas),
    [14, 9],
  );
  assert.deepEqual(
    h.replicaSets().map((r) => r.metadata!.annotations!['deployment.kubernetes.io/desired-replicas']),
    ['20', '20'],
  );
});
