/**
 * autoscaling/v1 HorizontalPodAutoscalers served from the v2 store, converted as upstream's
 * pkg/apis/autoscaling/v1/conversion.go: the CPU target as targetCPUUtilizationPercentage, everything else in the
 * autoscaling.alpha.kubernetes.io annotations in v1's shapes, and back.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { tableFor } from '../../../sandbox/printers/tableFor';
import { newApi } from '../fixtures';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

const CPU = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };
const MEMORY = {
  type: 'Resource',
  resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
};
const PODS = {
  type: 'Pods',
  pods: { metric: { name: 'packets-per-second' }, target: { type: 'AverageValue', averageValue: '1k' } },
};

function v2Hpa(extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: ref,
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [CPU, MEMORY, PODS],
      ...extra,
    },
  };
}

function readV1(api: ReturnType<typeof newApi>['api']): KubeObject {
  return api.get(api.resourceOf({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }), 'default', 'web');
}

describe('autoscaling/v1 HorizontalPodAutoscaler conversion', () => {
  test('a v2 HPA read as v1: the CPU target as the field, the other metrics in v1 shapes in the annotation', () => {
    const { api } = newApi();
    api.create(v2Hpa());
    const v1 = readV1(api);
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.spec, {
      scaleTargetRef: ref,
      minReplicas: 2,
      maxReplicas: 10,
      targetCPUUtilizationPercentage: 50,
    });
    // upstream: Convert_autoscaling_ResourceMetricSource_To_v1_ResourceMetricSource, …PodsMetricSource…
    assert.deepEqual(JSON.parse(v1.metadata.annotations!['autoscaling.alpha.kubernetes.io/metrics']), [
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } },
      { type: 'Pods', pods: { metricName: 'packets-per-second', targetAverageValue: '1k' } },
    ]);
    // v1's status struct is always there, with its non-omitempty counters.
    assert.deepEqual(v1.status, { currentReplicas: 0, desiredReplicas: 0 });
  });

  test('status: every current metric (CPU too) in current-metrics, conditions in their annotation', () => {
    const { api } = newApi();
    const created = api.create(v2Hpa());
    api.updateStatus({
      ...created,
      status: {
        currentReplicas: 3,
        desiredReplicas: 4,
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 72, averageValue: '144m' } } },
          { type: 'Resource', resource: { name: 'memory', current: { averageValue: '80Mi' } } },
        ],
        conditions: [
          {
            type: 'AbleToScale',
            status: 'True',
            lastTransitionTime: '2026-01-01T00:00:00Z',
            reason: 'SucceededRescale',
            message: 'the HPA controller was able to update the target scale to 4',
          },
        ],
      },
    });
    const v1 = readV1(api);
    assert.deepEqual(v1.status, { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 72 });
    const annotations = v1.metadata.annotations!;
    assert.deepEqual(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/current-metrics']), [
      { type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 72, currentAverageValue: '144m' } },
      { type: 'Resource', resource: { name: 'memory', currentAverageValue: '80Mi' } },
    ]);
    assert.equal(
      annotations['autoscaling.alpha.kubernetes.io/conditions'],
      '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"SucceededRescale","message":"the HPA controller was able to update the target scale to 4"}]',
    );
  });

  test('behavior travels as the internal type marshalled without tags (Go field names, null pointers)', () => {
    const { api } = newApi();
    api.create(v2Hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
    const v1 = readV1(api);
    // Defaulting filled both rules (SetDefaults_HorizontalPodAutoscalerBehavior) before the conversion.
    assert.equal(
      v1.metadata.annotations!['autoscaling.alpha.kubernetes.io/behavior'],
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}]},' +
        '"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}',
    );
  });

  test('a v1 read written back through v1 loses nothing; the round-trip annotations are not stored', () => {
    const { api } = newApi();
    api.create(v2Hpa({ behavior: { scaleUp: { stabilizationWindowSeconds: 30 } } }));
    const before = api.get('horizontalpodautoscalers', 'default', 'web');
    const v1 = readV1(api);
    api.update({ ...v1, spec: { ...(v1.spec as object), maxReplicas: 12 } });
    const after = api.get('horizontalpodautoscalers', 'default', 'web');
    assert.equal(after.metadata.annotations, undefined);
    const { maxReplicas, metrics, ...rest } = after.spec as unknown as Record<string, unknown>;
    const beforeSpec = before.spec as unknown as Record<string, unknown>;
    assert.equal(maxReplicas, 12);
    // upstream puts the annotation's metrics first and the CPU target after them.
    const beforeMetrics = beforeSpec.metrics as unknown[];
    assert.deepEqual(metrics, [beforeMetrics[1], beforeMetrics[2], beforeMetrics[0]]);
    assert.deepEqual(beforeMetrics, [CPU, MEMORY, PODS]);
    assert.deepEqual(rest, { scaleTargetRef: ref, minReplicas: 2, behavior: beforeSpec.behavior });
  });

  test('a v1 HPA without a CPU target is stored with 80% CPU and reads back with it', () => {
    const { api } = newApi();
    api.create({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: { scaleTargetRef: ref, maxReplicas: 3 },
    });
    const v2 = api.get('horizontalpodautoscalers', 'default', 'web');
    assert.deepEqual((v2.spec as { metrics: unknown }).metrics, [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    assert.equal((readV1(api).spec as { targetCPUUtilizationPercentage: number }).targetCPUUtilizationPercentage, 80);
  });

  test('kubectl get hpa prints a v1 object as its v2 (the tree and watches print what they hold)', () => {
    const { api, clock } = newApi();
    const created = api.create(v2Hpa({ metrics: [MEMORY, CPU] }));
    api.updateStatus({
      ...created,
      status: {
        currentReplicas: 3,
        desiredReplicas: 3,
        currentMetrics: [
          { type: 'Resource', resource: { name: 'memory', current: { averageValue: '80Mi' } } },
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 20, averageValue: '40m' } } },
        ],
      },
    });
    const v2 = tableFor(
      'HorizontalPodAutoscaler',
      [api.get('horizontalpodautoscalers', 'default', 'web')],
      clock.now(),
    );
    const v1 = tableFor('HorizontalPodAutoscaler', [readV1(api)], clock.now());
    assert.deepEqual(v1.rows[0].cells, v2.rows[0].cells);
    assert.equal(v1.rows[0].cells[2], 'memory: 80Mi/100Mi, cpu: 20%/50%');
  });
});
