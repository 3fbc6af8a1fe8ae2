/**
 * The docs' in-place resize example (kubernetes/website content/en/examples/pods/resource/pod-resize.yaml, CC BY 4.0,
 * copy in test/fixtures/docs/nbpods2) on a release where InPlacePodVerticalScaling is alpha and off (1.27–1.32): the
 * API server accepts the pod without a word and stores it without the containers' `resizePolicy` (upstream
 * pkg/api/pod/util.go dropDisabledFields, unless the old pod already used it); from 1.33 (beta, on) it is kept. The
 * editor and `validate` flag the field as dropped.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../../sandbox/api/types';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { validateManifestText } from '../../../server/src/services/validateDocument';

const FILE = join(__dirname, '../../fixtures/docs/nbpods2/content/en/examples/pods/resource/pod-resize.yaml');

function created(kubernetesVersion: string): Record<string, unknown> {
  const api = new ApiServer({ clock: new VirtualClock(0), kubernetesVersion });
  api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'qos-example' } } as KubeObject);
  const pod = api.create(manifestObjects(readFileSync(FILE, 'utf8')).manifests[0].object);
  return (pod.spec as { containers: Record<string, unknown>[] }).containers[0];
}

describe('resizePolicy (InPlacePodVerticalScaling) on a release where the gate is off', () => {
  test('1.32 stores the pod without resizePolicy, its resources kept; 1.33 keeps it', () => {
    const c = created('1.32');
    assert.equal(c.resizePolicy, undefined);
    assert.deepEqual((c.resources as { limits: unknown }).limits, { cpu: '700m', memory: '200Mi' });
    assert.deepEqual(created('1.33').resizePolicy, [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ]);
  });

  test('validate flags the field as dropped', () => {
    const warnings = validateManifestText(readFileSync(FILE, 'utf8'))
      .filter((d) => d.code === 'dropped-field')
      .map((d) => `${d.range.start.line + 1} ${d.message}`);
    assert.deepEqual(warnings, [
      '13 "resizePolicy" is dropped by Kubernetes 1.32: feature gate InPlacePodVerticalScaling is off by default, so ' +
        "the API server stores the object without the container's resize policy",
    ]);
  });
});
