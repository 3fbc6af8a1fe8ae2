/**
 * LimitRanger admission (upstream: plugin/pkg/admission/limitranger/admission.go: PodMutateLimitFunc,
 * PodValidateLimitFunc, minConstraint / maxConstraint / limitRequestRatioConstraint) and the LimitRange defaults
 * (pkg/apis/core/v1/defaults.go: SetDefaults_LimitRangeItem), through the API server; and the SchedulingGated
 * condition of gated pods (pkg/registry/core/pod/strategy.go: applySchedulingGatedCondition).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../../sandbox/api/types';
import { podStatusText } from '../../../../sandbox/printers/podStatus';
import { newApi, statusOf } from '../../fixtures';

function limitRange(limits: unknown[], name = 'limits'): KubeObject {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace: 'default' }, spec: { limits } };
}

function podWith(name: string, resources?: unknown, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra },
  };
}

describe('LimitRange defaults', () => {
  test('a Container item: default falls back to max, defaultRequest to default (SetDefaults_LimitRangeItem)', () => {
    const { api } = newApi();
    const lr = api.create(limitRange([{ type: 'Container', max: { cpu: '2' }, default: { memory: '512Mi' } }]));
    assert.deepEqual((lr.spec as { limits: unknown[] }).limits[0], {
      type: 'Container',
      max: { cpu: '2' },
      default: { memory: '512Mi', cpu: '2' },
      defaultRequest: { memory: '512Mi', cpu: '2' },
    });
  });

  test('the documentation example: a pod without resources gets the default request and limit, and the annotation', () => {
    // https://kubernetes.io/docs/tasks/administer-cluster/manage-resources/memory-default-namespace/
    const { api } = newApi();
    api.create(limitRange([{ type: 'Container', default: { memory: '512Mi' }, defaultRequest: { memory: '256Mi' } }]));
    const p = api.create(podWith('default-mem-demo')) as Pod;
    assert.deepEqual(p.spec!.containers[0].resources, { limits: { memory: '512Mi' }, requests: { memory: '256Mi' } });
    assert.equal(
      p.metadata!.annotations!['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: memory request for container app; memory limit for container app',
    );
    assert.equal(p.status!.qosClass, 'Burstable');
  });

  test('what the pod sets is kept; only the missing resources are filled in', () => {
    const { api } = newApi();
    api.create(limitRange([{ type: 'Container', default: { cpu: '1', memory: '1Gi' } }]));
    const p = api.create(podWith('own', { limits: { cpu: '500m' } })) as Pod;
    // Pod defaulting copied the 500m limit to the request before admission; LimitRanger adds memory.
    assert.deepEqual(p.spec!.containers[0].resources, {
      limits: { cpu: '500m', memory: '1Gi' },
      requests: { cpu: '500m', memory: '1Gi' },
    });
    assert.equal(
      p.metadata!.annotations!['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: memory request for container app; memory limit for container app',
    );
  });
});

describe('LimitRange min, max and ratio', () => {
  test('a limit above max is refused with 403 and upstream’s message', () => {
    const { api } = newApi();
    api.create(limitRange([{ type: 'Container', max: { cpu: '800m' }, min: { cpu: '200m' } }]));
    const s = statusOf(() => api.create(podWith('too-big', { limits: { cpu: '1500m' }, requests: { cpu: '500m' } })));
    assert.equal(s.code, 403);
    assert.equal(s.message, 'pods "too-big" is forbidden: maximum cpu usage per Container is 800m, but limit is 1500m');
  });

  test('several violations are listed in brackets; a missing request names itself', () => {
    const { api } = newApi();
    api.create(
      limitRange([{ type: 'Container', min: { memory: '500Mi' }, max: { memory: '1Gi' }, default: { memory: '1Gi' } }]),
    );
    const s = statusOf(() =>
      api.create(podWith('small', { requests: { memory: '100Mi' }, limits: { memory: '2Gi' } })),
    );
    assert.equal(
      s.message,
      'pods "small" is forbidden: [minimum memory usage per Container is 500Mi, but request is 100Mi, ' +
        'maximum memory usage per Container is 1Gi, but limit is 2Gi]',
    );
  });

  test('maxLimitRequestRatio prints the observed ratio as Go %f', () => {
    const { api } = newApi();
    api.create(limitRange([{ type: 'Container', maxLimitRequestRatio: { memory: '2' } }]));
    const s = statusOf(() =>
      api.create(podWith('ratio', { requests: { memory: '100Mi' }, limits: { memory: '250Mi' } })),
    );
    assert.equal(
      s.message,
      'pods "ratio" is forbidden: memory max limit to request ratio per Container is 2, but provided ratio is 2.500000',
    );
  });

  test('a Pod item bounds the sum over containers', () => {
    const { api } = newApi();
    api.create(limitRange([{ type: 'Pod', max: { cpu: '1' } }]));
    const two: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'two', namespace: 'default' },
      spec: {
        containers: [
          { name: 'a', image: 'nginx', resources: { limits: { cpu: '600m' } } },
          { name: 'b', image: 'nginx', resources: { limits: { cpu: '600m' } } },
        ],
      },
    };
    assert.equal(
      statusOf(() => api.create(two)).message,
      'pods "two" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m',
    );
  });

  test('a pod within the bounds is created; nothing is stored for a refused one', () => {
    const { api } = newApi();
    api.create(limitRange([{ type: 'Container', max: { cpu: '1' } }]));
    api.create(podWith('ok'));
    assert.equal((api.get('pods', 'default', 'ok') as Pod).spec!.containers[0].resources!.limits!.cpu, '1');
    statusOf(() => api.create(podWith('no', { limits: { cpu: '2' } })));
    assert.equal(api.tryGet('pods', 'default', 'no'), undefined);
  });

  test('other namespaces are not affected', () => {
    const { api } = newApi();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    api.create(limitRange([{ type: 'Container', max: { cpu: '1' } }]));
    const p = api.create({
      ...podWith('free', { limits: { cpu: '4' } }),
      metadata: { name: 'free', namespace: 'other' },
    });
    assert.equal(p.metadata.annotations, undefined);
  });
});

describe('scheduling gates', () => {
  test('a gated pod starts with PodScheduled=False, reason SchedulingGated', () => {
    const { api } = newApi();
    const p = api.create(podWith('gated', undefined, { schedulingGates: [{ name: 'example.com/foo' }] })) as Pod;
    assert.deepEqual(p.status!.conditions, [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: '2026-01-01T00:00:00Z',
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ]);
    // kubectl get pods: STATUS SchedulingGated (printPod reads the condition's reason).
    assert.equal(podStatusText(p), 'SchedulingGated');
    assert.equal((api.create(podWith('free')) as Pod).status!.conditions, undefined);
  });
});
