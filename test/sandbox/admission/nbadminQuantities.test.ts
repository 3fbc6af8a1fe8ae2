/**
 * Quantities outside containers are stored in canonical form, as the API server's round trip through
 * resource.Quantity does (apimachinery resource/quantity.go: MarshalJSON writes String()), with the documentation's
 * examples (test/fixtures/docs/nbadmin, see SOURCE.md): "Configure Default CPU Requests and Limits for a Namespace",
 * "Limit Ranges" and "Resource Quotas".
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import { newApi } from '../fixtures';

const DIR = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbadmin');

function examples(file: string): KubeObject[] {
  return parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => ({
    ...(d.toJS() as KubeObject),
    metadata: { ...(d.toJS() as KubeObject).metadata, namespace: 'default' },
  }));
}

describe('canonical quantities in LimitRange, ResourceQuota and PersistentVolumeClaim', () => {
  test('cpu-defaults.yaml: `cpu: 1` and `cpu: 0.5` are stored as "1" and "500m"', () => {
    const { api } = newApi();
    const [lr] = examples('admin/resource/cpu-defaults.yaml');
    api.create(lr);
    const stored = api.get('limitranges', 'default', 'cpu-limit-range');
    assert.deepEqual((stored.spec as { limits: unknown[] }).limits, [
      { default: { cpu: '1' }, defaultRequest: { cpu: '500m' }, type: 'Container' },
    ]);
  });

  test('limit-memory-ratio-pod.yaml: the ratio `memory: 2` is stored as "2"; min and max too', () => {
    const { api } = newApi();
    const [lr] = examples('admin/resource/limit-memory-ratio-pod.yaml');
    api.create(lr);
    api.create({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'sizes', namespace: 'default' },
      spec: { limits: [{ type: 'Pod', max: { memory: '2048Mi', cpu: 2 }, min: { cpu: '0.1' } }] },
    });
    assert.deepEqual(
      (api.get('limitranges', 'default', 'limit-memory-ratio-pod').spec as { limits: unknown[] }).limits,
      [{ maxLimitRequestRatio: { memory: '2' }, type: 'Pod' }],
    );
    assert.deepEqual((api.get('limitranges', 'default', 'sizes').spec as { limits: unknown[] }).limits, [
      { type: 'Pod', max: { memory: '2Gi', cpu: '2' }, min: { cpu: '100m' } },
    ]);
  });

  test('quota.yaml: `cpu: "1000"` is stored as 1k, the other quantities unchanged', () => {
    const { api } = newApi();
    for (const q of examples('policy/quota.yaml')) api.create(q);
    assert.deepEqual(api.get('resourcequotas', 'default', 'pods-high').spec?.hard, {
      cpu: '1k',
      memory: '200Gi',
      pods: '10',
    });
    assert.deepEqual(api.get('resourcequotas', 'default', 'pods-low').spec?.hard, {
      cpu: '5',
      memory: '10Gi',
      pods: '10',
    });
  });

  test("a claim's requested storage and a volume's capacity are canonical", () => {
    const { api } = newApi();
    api.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5120Mi' } } },
    });
    api.create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv' },
      spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1024Mi' }, hostPath: { path: '/data' } },
    });
    assert.deepEqual(api.get('persistentvolumeclaims', 'default', 'data').spec?.resources, {
      requests: { storage: '5Gi' },
    });
    assert.deepEqual(api.get('persistentvolumes', '', 'pv').spec?.capacity, { storage: '1Gi' });
  });
});
