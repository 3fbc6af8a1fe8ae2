/**
 * LimitRange bounds (upstream: pkg/apis/core/validation/validation.go ValidateLimitRange, after
 * pkg/apis/core/v1/defaults.go SetDefaults_LimitRangeItem): min ≤ defaultRequest ≤ default ≤ max, 1 ≤
 * maxLimitRequestRatio ≤ max/min, default = defaultRequest for hugepages and extended resources. Upstream prints the
 * bad value as Go's %#v of a resource.Quantity. Examples from the documentation (test/fixtures/docs/nbadmin2, see
 * SOURCE.md), with their bounds turned the wrong way.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import { newApi, statusOf } from '../fixtures';

const DIR = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbadmin2');

function example(path: string): KubeObject & { spec: { limits: Record<string, unknown>[] } } {
  const o = parse(readFileSync(join(DIR, path), 'utf8')) as KubeObject & {
    spec: { limits: Record<string, unknown>[] };
  };
  o.metadata = { ...o.metadata, namespace: 'default' };
  return o;
}

function quantity(value: number, scale: number, s: string, format: string): string {
  return `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${s}", Format:"${format}"}`;
}

describe('LimitRange bounds', () => {
  test('cpu-constraints.yaml as written is stored; with min and max swapped it is refused three times', () => {
    const { api } = newApi();
    assert.ok(api.create(example('admin/resource/cpu-constraints.yaml')).metadata.uid);
    const swapped = example('admin/resource/cpu-constraints.yaml');
    swapped.metadata.name = 'swapped';
    swapped.spec.limits[0].max = { cpu: '200m' };
    swapped.spec.limits[0].min = { cpu: '800m' };
    const s = statusOf(() => api.create(swapped));
    assert.equal(s.code, 422);
    // defaulting made default = defaultRequest = max (200m), so min also exceeds both
    assert.equal(
      s.message,
      'LimitRange "swapped" is invalid: [' +
        `spec.limits[0].min[cpu]: Invalid value: ${quantity(800, -3, '800m', 'DecimalSI')}: min value 800m is greater than max value 200m, ` +
        `spec.limits[0].defaultRequest[cpu]: Invalid value: ${quantity(200, -3, '200m', 'DecimalSI')}: min value 800m is greater than default request value 200m, ` +
        `spec.limits[0].default[cpu]: Invalid value: ${quantity(800, -3, '800m', 'DecimalSI')}: min value 800m is greater than default value 200m]`,
    );
  });

  test('a default above max, a default request above the default: the messages name each pair', () => {
    const { api } = newApi();
    const lr = example('admin/resource/cpu-constraints.yaml');
    lr.spec.limits[0] = {
      type: 'Container',
      max: { memory: '1Gi' },
      default: { memory: '2Gi', cpu: '500m' },
      defaultRequest: { cpu: '1' },
    };
    const s = statusOf(() => api.create(lr));
    assert.equal(s.code, 422);
    assert.equal(
      s.message,
      'LimitRange "cpu-min-max-demo-lr" is invalid: [' +
        `spec.limits[0].defaultRequest[cpu]: Invalid value: ${quantity(1, 0, '1', 'DecimalSI')}: default request value 1 is greater than default limit value 500m, ` +
        // defaulting set the memory request to the default, 2Gi
        `spec.limits[0].defaultRequest[memory]: Invalid value: ${quantity(2147483648, 0, '2Gi', 'BinarySI')}: default request value 2Gi is greater than max value 1Gi, ` +
        `spec.limits[0].default[memory]: Invalid value: ${quantity(1073741824, 0, '1Gi', 'BinarySI')}: default value 2Gi is greater than max value 1Gi]`,
    );
  });

  test('limit-memory-ratio-pod.yaml is stored; a ratio below 1 or above max/min is refused', () => {
    const { api } = newApi();
    assert.ok(api.create(example('admin/resource/limit-memory-ratio-pod.yaml')).metadata.uid);
    const below = example('admin/resource/limit-memory-ratio-pod.yaml');
    below.metadata.name = 'below';
    below.spec.limits[0].maxLimitRequestRatio = { memory: '500m' };
    const s = statusOf(() => api.create(below));
    assert.equal(s.code, 422);
    assert.equal(
      s.message,
      `LimitRange "below" is invalid: spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: ${quantity(500, -3, '500m', 'DecimalSI')}: ratio 500m is less than 1`,
    );
    const above = example('admin/resource/limit-memory-ratio-pod.yaml');
    above.metadata.name = 'above';
    above.spec.limits[0].min = { memory: '512Mi' };
    above.spec.limits[0].max = { memory: '1Gi' };
    above.spec.limits[0].maxLimitRequestRatio = { memory: '3' };
    const s2 = statusOf(() => api.create(above));
    assert.equal(s2.code, 422);
    assert.equal(
      s2.message,
      `LimitRange "above" is invalid: spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: ${quantity(3, 0, '3', 'DecimalSI')}: ratio 3 is greater than max/min = 2.000000`,
    );
    // the ratio equal to max/min is allowed
    above.spec.limits[0].maxLimitRequestRatio = { memory: '2' };
    assert.ok(api.create(above).metadata.uid);
  });

  test('an extended resource may not default its request below its limit (no overcommit)', () => {
    const { api } = newApi();
    const lr = example('admin/resource/cpu-constraints.yaml');
    lr.spec.limits[0] = {
      type: 'Container',
      default: { 'example.com/gpu': '2' },
      defaultRequest: { 'example.com/gpu': '1' },
    };
    const s = statusOf(() => api.create(lr));
    assert.equal(s.code, 422);
    assert.equal(
      s.message,
      `LimitRange "cpu-min-max-demo-lr" is invalid: spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: ${quantity(1, 0, '1', 'DecimalSI')}: default value 2 must equal to defaultRequest value 1 in example.com/gpu`,
    );
    // cpu may be overcommitted
    lr.spec.limits[0] = { type: 'Container', default: { cpu: '2' }, defaultRequest: { cpu: '1' } };
    assert.ok(api.create(lr).metadata.uid);
  });
});
