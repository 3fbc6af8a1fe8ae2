/**
 * LimitRange validation (upstream: pkg/apis/core/validation/validation.go ValidateLimitRange,
 * validateLimitRangeTypeName) with the documentation's examples (test/fixtures/docs/nbadmin, see SOURCE.md): the
 * "Limit Ranges" concept page's problematic-limit-range.yaml left out `type` (kubernetes/website#38705), which a
 * cluster refuses.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import { newApi, statusOf } from '../fixtures';

const DIR = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbadmin');

function limitRange(limits: unknown[]): KubeObject {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace: 'default' }, spec: { limits } };
}

describe('LimitRange validation', () => {
  test('problematic-limit-range.yaml (no `type`) is refused as upstream: the empty name is not a qualified name', () => {
    const { api } = newApi();
    const lr = parse(
      readFileSync(join(DIR, 'concepts/policy/limit-range/problematic-limit-range.yaml'), 'utf8'),
    ) as KubeObject;
    const s = statusOf(() => api.create({ ...lr, metadata: { ...lr.metadata, namespace: 'default' } }));
    assert.equal(s.code, 422);
    assert.equal(
      s.message,
      'LimitRange "cpu-resource-constraint" is invalid: [spec.limits[0].type: Invalid value: "": name part must be ' +
        'non-empty, spec.limits[0].type: Invalid value: "": name part must consist of alphanumeric characters, \'-\', ' +
        "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or " +
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]",
    );
    // with the type the page meant, it is stored
    const fixed: KubeObject = { ...lr, metadata: { ...lr.metadata, namespace: 'default' } };
    (fixed.spec as { limits: Record<string, unknown>[] }).limits[0].type = 'Container';
    assert.ok(api.create(fixed).metadata.uid);
  });

  test('an unknown type, a type twice, defaults on a Pod item and a storage item without bounds are refused', () => {
    const { api } = newApi();
    const s = statusOf(() =>
      api.create(
        limitRange([
          { type: 'Pod', max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '1' } },
          { type: 'Pod', max: { memory: '1Gi' } },
          { type: 'container', max: { cpu: '1' } },
          { type: 'PersistentVolumeClaim', max: { cpu: '1' } },
        ]),
      ),
    );
    assert.equal(s.code, 422);
    assert.equal(
      s.message,
      'LimitRange "lr" is invalid: [' +
        "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod', " +
        "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod', " +
        'spec.limits[1].type: Duplicate value: "Pod", ' +
        'spec.limits[2].type: Invalid value: "container": must be a standard limit type or fully qualified, ' +
        'spec.limits[3].limits: Required value: either minimum or maximum storage value is required, but neither was provided]',
    );
  });

  test('prefixed types and the standard ones are accepted', () => {
    const { api } = newApi();
    assert.ok(
      api.create(
        limitRange([
          { type: 'Container', default: { cpu: '500m' } },
          { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
          { type: 'example.com/Thing', max: { cpu: '1' } },
        ]),
      ).metadata.uid,
    );
  });
});
