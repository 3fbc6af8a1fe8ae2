import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, WatchEvent } from '../../../sandbox/api/types';
import { newApi } from '../fixtures';

const hpa = (min: number): KubeObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: min,
    maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
  },
});

test('watchers of another version of a kind share one converted, frozen object per write; storage-version watchers get the stored one', () => {
  const { api } = newApi();
  const v1 = api.resourceOf({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' });
  const seen: Record<string, WatchEvent[]> = { a: [], b: [], v2: [] };
  api.watch(v1, {}, (e) => seen.a.push(e));
  api.watch(v1, {}, (e) => seen.b.push(e));
  api.watch('horizontalpodautoscalers', {}, (e) => seen.v2.push(e));
  api.create(hpa(1));
  const stored = api.update({ ...api.get('horizontalpodautoscalers', 'default', 'web'), spec: hpa(2).spec });
  assert.deepEqual(
    seen.a.map((e) => e.type),
    ['ADDED', 'MODIFIED'],
  );
  for (let i = 0; i < 2; i++) {
    const [a, b, v2] = [seen.a[i].object, seen.b[i].object, seen.v2[i].object];
    assert.equal(a, b, 'one converted object for both v1 watchers');
    assert.ok(Object.isFrozen(a));
    assert.equal(a.apiVersion, 'autoscaling/v1');
    assert.equal((a.spec as { targetCPUUtilizationPercentage?: number }).targetCPUUtilizationPercentage, 50);
    assert.equal((a.spec as { minReplicas?: number }).minReplicas, i + 1);
    assert.equal(v2.apiVersion, 'autoscaling/v2');
  }
  assert.equal(seen.v2[1].object, stored, 'the storage version receives the stored object itself');
  assert.deepEqual(seen.a[1].object, api.get(v1, 'default', 'web'), 'the same as a GET in that version');
});
