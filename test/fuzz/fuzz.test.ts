/**
 * The fuzz targets (test/fuzz/targets.ts) on a small number of inputs each, and the regression tests of what the
 * recorded fuzz runs found (`npm run fuzz` runs 100,000 inputs per target).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../sandbox/api/errors';
import type { KubeObject } from '../../sandbox/api/types';
import { ApiServer } from '../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../sandbox/clock/virtualClock';
import { applyManifest } from '../../sandbox/operations/apply/apply';
import { FuzzFinding, fuzzTargets, mutate } from './targets';

describe('fuzz targets (a small run)', () => {
  for (const t of fuzzTargets()) {
    test(t.name, () => {
      const outcome = t.check(t.name === 'validate' ? 40 : 150, 42);
      assert.equal(outcome.failure, undefined, JSON.stringify(outcome.failure));
      assert.ok(outcome.numRuns > 0);
    });
  }

  test('a property that breaks is reported with its input', () => {
    // The harness itself: mutations really change the seed, and a finding is an error of its own class.
    const seed = { a: { b: [1, 2] } };
    assert.notDeepEqual(mutate(seed, [{ at: 0, op: 'delete', key: 'a', value: null }]), seed);
    assert.deepEqual(seed, { a: { b: [1, 2] } }, 'mutate changed its seed');
    assert.ok(new FuzzFinding('x') instanceof Error);
  });
});

describe('fuzz findings', () => {
  const server = () => new ApiServer({ clock: new VirtualClock(), random: 1 });

  test('apply of a manifest without a metadata object is refused as the API server refuses it (was a TypeError)', () => {
    for (const [manifest, code, message] of [
      [{ apiVersion: 'v1', kind: 'ConfigMap' }, 422, 'metadata.name: Required value: name or generateName is required'],
      [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: null }, 422, 'metadata.name: Required value'],
      [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: 'x' }, 400, 'cannot unmarshal string into Go struct field'],
    ] as const) {
      const api = server();
      const before = api.resourceVersion;
      assert.throws(
        () => applyManifest(api, manifest as unknown as KubeObject),
        (e: unknown) => e instanceof ApiError && e.status.code === code && e.message.includes(message),
      );
      assert.equal(api.resourceVersion, before, 'a refused apply changed the store');
    }
  });
});
