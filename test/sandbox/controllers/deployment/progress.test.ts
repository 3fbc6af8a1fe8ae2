import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeploymentCondition } from 'kubernetes-types/apps/v1';
import {
  deploymentManifest,
  newDeploymentHarness,
  reportReplicaSets,
  setImage,
  type DeploymentHarness,
} from './fixtures';

function progressing(h: DeploymentHarness): DeploymentCondition {
  return h.deployment().status!.conditions!.find((c) => c.type === 'Progressing')!;
}

test('ProgressDeadlineExceeded one second after lastUpdateTime + progressDeadlineSeconds, then nothing pending', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 2, extra: { progressDeadlineSeconds: 60 } }));
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  setImage(h, 'nginx:broken'); // t = 1 s
  h.advance(0);
  const v2 = h.replicaSets()[1].metadata!.name!;
  h.advance(4000); // t = 5 s: the new pod exists but never becomes available
  reportReplicaSets(h, { unavailable: [v2] });
  h.advance(0);
  const progress = progressing(h);
  assert.deepEqual(progress, {
    type: 'Progressing',
    status: 'True',
    lastUpdateTime: '2026-01-01T00:00:05Z',
    lastTransitionTime: '2026-01-01T00:00:00Z',
    reason: 'ReplicaSetUpdated',
    message: `ReplicaSet "${v2}" is progressing.`,
  });
  assert.equal(h.clock.nextForegroundTimerAt(), Date.parse('2026-01-01T00:01:06Z'));
  h.clock.advanceTo(Date.parse('2026-01-01T00:01:06Z') - 1);
  assert.equal(progressing(h).reason, 'ReplicaSetUpdated');
  h.clock.advanceTo(Date.parse('2026-01-01T00:01:06Z'));
  assert.deepEqual(progressing(h), {
    type: 'Progressing',
    status: 'False',
    lastUpdateTime: '2026-01-01T00:01:06Z',
    lastTransitionTime: '2026-01-01T00:01:06Z',
    reason: 'ProgressDeadlineExceeded',
    message: `ReplicaSet "${v2}" has timed out progressing.`,
  });
  assert.equal(h.clock.pendingForegroundTimers, 0);
  assert.deepEqual(
    h.replicaSets().map((r) => r.spec!.replicas),
    [2, 1],
    'the rollout itself goes on',
  );
});

test('progress refreshes lastUpdateTime and pushes the deadline back; completion withdraws the check', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 2, extra: { progressDeadlineSeconds: 60 } }));
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  setImage(h, 'nginx:1.28');
  h.advance(0);
  const [v1, v2] = h.replicaSets().map((r) => r.metadata!.name!);
  h.advance(50_000);
  reportReplicaSets(h, { unavailable: [v2] });
  h.advance(0);
  assert.equal(progressing(h).lastUpdateTime, '2026-01-01T00:00:51Z');
  h.advance(50_000); // past the first deadline (t = 61 s), not the refreshed one
  assert.equal(progressing(h).reason, 'ReplicaSetUpdated');
  reportReplicaSets(h, { pods: { [v1]: { replicas: 2, available: 2 }, [v2]: { replicas: 1, available: 1 } } });
  for (let i = 0; i < 6; i++) {
    h.advance(0);
    reportReplicaSets(h);
  }
  h.advance(0);
  assert.equal(progressing(h).reason, 'NewReplicaSetAvailable');
  assert.equal(h.clock.pendingForegroundTimers, 0);
});

test('a ReplicaFailure condition on the new ReplicaSet is copied to the Deployment', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 1 }));
  h.advance(0);
  const rs = h.replicaSets()[0];
  const condition = {
    type: 'ReplicaFailure',
    status: 'True',
    lastTransitionTime: '2026-01-01T00:00:00Z',
    reason: 'FailedCreate',
    message: 'pods "web-x" is forbidden: exceeded quota',
  };
  h.api.updateStatus({ ...rs, status: { replicas: 0, observedGeneration: 1, conditions: [condition] } });
  h.advance(0);
  const got = h.deployment().status!.conditions!.find((c) => c.type === 'ReplicaFailure');
  assert.deepEqual(got, { ...condition, lastUpdateTime: condition.lastTransitionTime });
});
