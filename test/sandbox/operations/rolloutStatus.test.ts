/** kubectl's status viewers (kubectl pkg/polymorphichelpers/rollout_status.go), line for line. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { KubeObject } from '../../../sandbox/api/types';
import { daemonSetRolloutStatus, statefulSetRolloutStatus } from '../../../sandbox/operations/rolloutStatus';

type Sts = StatefulSet & KubeObject;
type Ds = DaemonSet & KubeObject;

function sts(spec: Sts['spec'], status: Sts['status'], generation = 1): Sts {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', generation }, spec, status } as Sts;
}

describe('rollout status: StatefulSet', () => {
  const base = { selector: {}, serviceName: '', template: {} };
  test('spec not observed, pods not ready, partitioned, complete', () => {
    const ru = { ...base, replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } };
    assert.deepEqual(statefulSetRolloutStatus(sts(ru, { replicas: 0 })), {
      message: 'Waiting for statefulset spec update to be observed...',
      done: false,
    });
    assert.equal(
      statefulSetRolloutStatus(sts(ru, { replicas: 3, observedGeneration: 1, readyReplicas: 1 })).message,
      'Waiting for 2 pods to be ready...',
    );
    assert.deepEqual(
      statefulSetRolloutStatus(sts(ru, { replicas: 3, observedGeneration: 1, readyReplicas: 3, updatedReplicas: 1 })),
      { message: 'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...', done: false },
    );
    assert.deepEqual(
      statefulSetRolloutStatus(sts(ru, { replicas: 3, observedGeneration: 1, readyReplicas: 3, updatedReplicas: 2 })),
      { message: 'partitioned roll out complete: 2 new pods have been updated...', done: true },
    );
  });

  test('without rollingUpdate: revisions compared', () => {
    const plain = { ...base, replicas: 2, updateStrategy: { type: 'RollingUpdate' } };
    const status = { replicas: 2, observedGeneration: 1, readyReplicas: 2, updatedReplicas: 1, currentReplicas: 1 };
    assert.equal(
      statefulSetRolloutStatus(sts(plain, { ...status, currentRevision: 'web-a', updateRevision: 'web-b' })).message,
      'waiting for statefulset rolling update to complete 1 pods at revision web-b...',
    );
    assert.deepEqual(
      statefulSetRolloutStatus(
        sts(plain, { ...status, currentReplicas: 2, currentRevision: 'web-b', updateRevision: 'web-b' }),
      ),
      { message: 'statefulset rolling update complete 2 pods at revision web-b...', done: true },
    );
  });

  test('OnDelete is refused as kubectl refuses it', () => {
    assert.throws(
      () => statefulSetRolloutStatus(sts({ ...base, updateStrategy: { type: 'OnDelete' } }, { replicas: 0 })),
      { message: 'rollout status is only available for RollingUpdate strategy type' },
    );
  });
});

describe('rollout status: DaemonSet', () => {
  const ds = (status: Ds['status'], generation = 2): Ds =>
    ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', generation },
      spec: { selector: {}, template: {} },
      status,
    }) as Ds;
  const st = { currentNumberScheduled: 3, numberMisscheduled: 0, numberReady: 3, observedGeneration: 2 };
  test('each line in order', () => {
    assert.equal(
      daemonSetRolloutStatus(ds({ ...st, desiredNumberScheduled: 3, observedGeneration: 1 })).message,
      'Waiting for daemon set spec update to be observed...',
    );
    assert.equal(
      daemonSetRolloutStatus(ds({ ...st, desiredNumberScheduled: 3, updatedNumberScheduled: 1 })).message,
      'Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...',
    );
    assert.equal(
      daemonSetRolloutStatus(ds({ ...st, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 2 }))
        .message,
      'Waiting for daemon set "agent" rollout to finish: 2 of 3 updated pods are available...',
    );
    assert.deepEqual(
      daemonSetRolloutStatus(ds({ ...st, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 })),
      { message: 'daemon set "agent" successfully rolled out', done: true },
    );
  });
});
