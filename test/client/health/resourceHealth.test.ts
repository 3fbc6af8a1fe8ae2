/** Argo CD's built-in health rules, one table per kind, whole results compared. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { resourceHealth } from '../../../client/src/health/resourceHealth';
import { worstHealth, type HealthStatus } from '../../../client/src/health/types';

type Case = [name: string, obj: Record<string, unknown>, want: HealthStatus | undefined];

function object(
  apiVersion: string,
  kind: string,
  body: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name: 'web', namespace: 'default', generation: 1, ...meta }, ...body };
}

function table(apiVersion: string, kind: string, cases: Case[]): void {
  describe(kind, () => {
    for (const [name, body, want] of cases) {
      test(name, () => {
        const { metadata, ...rest } = body as { metadata?: Record<string, unknown> };
        assert.deepEqual(resourceHealth(object(apiVersion, kind, rest, metadata)), want);
      });
    }
  });
}

const dep = (replicas: number, status: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  spec: { replicas, ...spec },
  status: { observedGeneration: 1, ...status },
});

table('apps/v1', 'Deployment', [
  [
    'all replicas updated and available',
    dep(3, { replicas: 3, updatedReplicas: 3, availableReplicas: 3 }),
    { status: 'Healthy', message: '' },
  ],
  [
    'updated but not all available',
    dep(3, { replicas: 3, updatedReplicas: 3, availableReplicas: 2 }),
    { status: 'Progressing', message: 'Waiting for rollout to finish: 2 of 3 updated replicas are available...' },
  ],
  [
    'not all updated',
    dep(3, { replicas: 3, updatedReplicas: 1 }),
    { status: 'Progressing', message: 'Waiting for rollout to finish: 1 out of 3 new replicas have been updated...' },
  ],
  [
    'old replicas terminating',
    dep(3, { replicas: 4, updatedReplicas: 3, availableReplicas: 3 }),
    { status: 'Progressing', message: 'Waiting for rollout to finish: 1 old replicas are pending termination...' },
  ],
  ['paused', dep(3, {}, { paused: true }), { status: 'Suspended', message: 'Deployment is paused' }],
  [
    'progress deadline exceeded',
    dep(3, {
      replicas: 3,
      updatedReplicas: 3,
      availableReplicas: 1,
      conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }],
    }),
    { status: 'Degraded', message: 'Deployment "web" exceeded its progress deadline' },
  ],
  [
    'new generation not observed',
    { metadata: { generation: 2 }, ...dep(3, { replicas: 3, updatedReplicas: 3, availableReplicas: 3 }) },
    {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: observed deployment generation less then desired generation',
    },
  ],
  [
    'being deleted',
    { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' }, ...dep(3, {}) },
    { status: 'Progressing', message: 'Pending deletion' },
  ],
]);

table('apps/v1', 'ReplicaSet', [
  [
    'all available',
    { spec: { replicas: 2 }, status: { observedGeneration: 1, replicas: 2, availableReplicas: 2 } },
    { status: 'Healthy', message: '' },
  ],
  [
    'waiting',
    { spec: { replicas: 2 }, status: { observedGeneration: 1, replicas: 2, availableReplicas: 1 } },
    { status: 'Progressing', message: 'Waiting for rollout to finish: 1 out of 2 new replicas are available...' },
  ],
  [
    'replica failure',
    {
      spec: { replicas: 2 },
      status: {
        observedGeneration: 1,
        conditions: [{ type: 'ReplicaFailure', status: 'True', message: 'pods "web-x" is forbidden: exceeded quota' }],
      },
    },
    { status: 'Degraded', message: 'pods "web-x" is forbidden: exceeded quota' },
  ],
]);

table('apps/v1', 'StatefulSet', [
  [
    'not observed',
    { spec: { replicas: 1 }, status: {} },
    { status: 'Progressing', message: 'Waiting for statefulset spec update to be observed...' },
  ],
  [
    'pods not ready',
    { spec: { replicas: 3 }, status: { observedGeneration: 1, readyReplicas: 1 } },
    { status: 'Progressing', message: 'Waiting for 2 pods to be ready...' },
  ],
  [
    'partitioned roll out complete',
    {
      spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } },
      status: { observedGeneration: 1, readyReplicas: 3, updatedReplicas: 3 },
    },
    { status: 'Healthy', message: 'partitioned roll out complete: 3 new pods have been updated...' },
  ],
  [
    'partitioned roll out waiting',
    {
      spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } },
      status: { observedGeneration: 1, readyReplicas: 3, updatedReplicas: 1 },
    },
    {
      status: 'Progressing',
      message: 'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
    },
  ],
  [
    'OnDelete',
    {
      spec: { replicas: 2, updateStrategy: { type: 'OnDelete' } },
      status: { observedGeneration: 1, readyReplicas: 2 },
    },
    { status: 'Healthy', message: 'statefulset has 2 ready pods' },
  ],
]);

table('apps/v1', 'DaemonSet', [
  [
    'rolled out',
    { status: { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 } },
    { status: 'Healthy', message: '' },
  ],
  [
    'updating',
    { status: { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 1 } },
    {
      status: 'Progressing',
      message: 'Waiting for daemon set "web" rollout to finish: 1 out of 3 new pods have been updated...',
    },
  ],
  [
    'not available',
    { status: { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 2 } },
    {
      status: 'Progressing',
      message: 'Waiting for daemon set "web" rollout to finish: 2 of 3 updated pods are available...',
    },
  ],
]);

const ready = { type: 'Ready', status: 'True' };
table('v1', 'Pod', [
  [
    'running and ready',
    { spec: { restartPolicy: 'Always' }, status: { phase: 'Running', conditions: [ready] } },
    { status: 'Healthy', message: '' },
  ],
  ['pending', { spec: {}, status: { phase: 'Pending' } }, { status: 'Progressing', message: '' }],
  [
    'pending, unschedulable: the scheduler says why',
    {
      spec: {},
      status: {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/3 nodes are available: 3 Insufficient cpu.',
          },
        ],
      },
    },
    { status: 'Progressing', message: '0/3 nodes are available: 3 Insufficient cpu.' },
  ],
  [
    'crash loop',
    {
      spec: { restartPolicy: 'Always' },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=app' } },
          },
        ],
      },
    },
    { status: 'Degraded', message: 'back-off 10s restarting failed container=app' },
  ],
  [
    'running, not ready, restarted',
    {
      spec: {},
      status: {
        phase: 'Running',
        containerStatuses: [{ name: 'app', lastState: { terminated: { exitCode: 1 } }, state: { running: {} } }],
      },
    },
    { status: 'Degraded', message: '' },
  ],
  [
    'running, not ready yet',
    { spec: {}, status: { phase: 'Running', containerStatuses: [{ name: 'app', state: { running: {} } }] } },
    { status: 'Progressing', message: '' },
  ],
  [
    'failed with exit code',
    {
      spec: { restartPolicy: 'Never' },
      status: { phase: 'Failed', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 2 } } }] },
    },
    { status: 'Degraded', message: 'container "app" failed with exit code 2' },
  ],
  [
    'OOMKilled',
    {
      spec: { restartPolicy: 'Never' },
      status: {
        phase: 'Failed',
        containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } }],
      },
    },
    { status: 'Degraded', message: 'OOMKilled' },
  ],
  [
    'succeeded',
    { spec: { restartPolicy: 'Never' }, status: { phase: 'Succeeded' } },
    { status: 'Healthy', message: '' },
  ],
  [
    'hook pod running',
    { spec: { restartPolicy: 'Never' }, status: { phase: 'Running', conditions: [ready] } },
    { status: 'Progressing', message: '' },
  ],
  ['no phase', { spec: {}, status: {} }, { status: 'Unknown', message: '' }],
]);

table('v1', 'Service', [
  ['ClusterIP', { spec: { type: 'ClusterIP' } }, { status: 'Healthy', message: '' }],
  [
    'LoadBalancer without address',
    { spec: { type: 'LoadBalancer' }, status: { loadBalancer: {} } },
    { status: 'Progressing', message: '' },
  ],
  [
    'LoadBalancer with address',
    { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } },
    { status: 'Healthy', message: '' },
  ],
]);

table('v1', 'PersistentVolumeClaim', [
  ['bound', { status: { phase: 'Bound' } }, { status: 'Healthy', message: '' }],
  ['pending', { status: { phase: 'Pending' } }, { status: 'Progressing', message: '' }],
  ['lost', { status: { phase: 'Lost' } }, { status: 'Degraded', message: '' }],
  ['no phase', {}, { status: 'Unknown', message: '' }],
]);

table('batch/v1', 'Job', [
  ['running', { status: { active: 1 } }, { status: 'Progressing', message: '' }],
  [
    'complete',
    {
      status: {
        conditions: [{ type: 'Complete', status: 'True', message: 'Reached expected number of succeeded pods' }],
      },
    },
    { status: 'Healthy', message: 'Reached expected number of succeeded pods' },
  ],
  [
    'failed',
    {
      status: {
        conditions: [{ type: 'Failed', status: 'True', message: 'Job has reached the specified backoff limit' }],
      },
    },
    { status: 'Degraded', message: 'Job has reached the specified backoff limit' },
  ],
  [
    'suspended',
    { status: { conditions: [{ type: 'Suspended', status: 'True', message: 'Job suspended' }] } },
    { status: 'Suspended', message: 'Job suspended' },
  ],
]);

table('networking.k8s.io/v1', 'Ingress', [
  ['no address', { status: { loadBalancer: {} } }, { status: 'Progressing', message: '' }],
  ['address', { status: { loadBalancer: { ingress: [{ hostname: 'lb' }] } } }, { status: 'Healthy', message: '' }],
]);

table('autoscaling/v2', 'HorizontalPodAutoscaler', [
  ['no conditions', { status: {} }, { status: 'Progressing', message: 'Waiting to Autoscale' }],
  [
    'rescaled',
    {
      status: {
        conditions: [
          {
            type: 'AbleToScale',
            status: 'True',
            reason: 'SucceededRescale',
            message: 'the HPA controller was able to update the target scale to 4',
          },
        ],
      },
    },
    { status: 'Healthy', message: 'the HPA controller was able to update the target scale to 4' },
  ],
  [
    'no metrics',
    {
      status: {
        conditions: [
          {
            type: 'ScalingActive',
            status: 'False',
            reason: 'FailedGetResourceMetric',
            message: 'unable to get metrics',
          },
        ],
      },
    },
    { status: 'Degraded', message: 'unable to get metrics' },
  ],
]);

describe('resourceHealth, generic', () => {
  test('a tracked object that does not exist is Missing', () => {
    assert.deepEqual(resourceHealth(undefined), {
      status: 'Missing',
      message: 'The object does not exist in the cluster',
    });
  });
  test('kinds without a built-in rule have no health', () => {
    assert.equal(resourceHealth(object('v1', 'ConfigMap', { data: {} })), undefined);
  });
  test('the worst health wins, in Argo CD order', () => {
    const h = (status: HealthStatus['status']): HealthStatus => ({ status, message: status });
    assert.deepEqual(worstHealth([h('Healthy'), h('Degraded'), h('Progressing')]), h('Degraded'));
    assert.deepEqual(worstHealth([h('Suspended'), h('Missing'), h('Healthy')]), h('Missing'));
    assert.deepEqual(worstHealth([]), { status: 'Healthy', message: '' });
  });
});
