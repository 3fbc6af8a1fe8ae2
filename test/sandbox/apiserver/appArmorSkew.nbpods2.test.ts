/**
 * The docs' AppArmor example as it was written before 1.30 (kubernetes/website
 * content/en/examples/pods/security/hello-apparmor.yaml, CC BY 4.0, copy in test/fixtures/docs/nbpods2): its profile is
 * the deprecated annotation `container.apparmor.security.beta.kubernetes.io/hello`. A 1.32 API server copies it into
 * the container's `securityContext.appArmorProfile` and warns (upstream pkg/registry/core/pod/strategy.go
 * applyAppArmorVersionSkew, from PrepareForCreate).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../../sandbox/api/types';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';

const FILE = join(__dirname, '../../fixtures/docs/nbpods2/content/en/examples/pods/security/hello-apparmor.yaml');

const WARNING =
  'metadata.annotations[container.apparmor.security.beta.kubernetes.io/hello]: deprecated since v1.30; use the ' +
  '"appArmorProfile" field instead';

function hello(annotation?: string, podProfile?: unknown): KubeObject {
  const pod = manifestObjects(readFileSync(FILE, 'utf8')).manifests[0].object;
  const meta = { ...pod.metadata, namespace: 'default' };
  if (annotation !== undefined)
    meta.annotations = { 'container.apparmor.security.beta.kubernetes.io/hello': annotation };
  const spec = { ...(pod.spec as Record<string, unknown>) };
  if (podProfile !== undefined) spec.securityContext = { appArmorProfile: podProfile };
  return { ...pod, metadata: meta, spec };
}

function create(pod: KubeObject): { profile: unknown; warnings: string[] } {
  const api = new ApiServer({ clock: new VirtualClock(0), kubernetesVersion: '1.32' });
  const warnings: string[] = [];
  const created = api.create(pod, { warn: (w) => warnings.push(w) });
  const c = (created.spec as { containers: { securityContext?: { appArmorProfile?: unknown } }[] }).containers[0];
  return { profile: c.securityContext?.appArmorProfile, warnings };
}

describe('the deprecated AppArmor annotation on a new pod', () => {
  test('the docs pod: the annotation becomes the container field, with the deprecation warning', () => {
    assert.deepEqual(create(hello()), {
      profile: { type: 'Localhost', localhostProfile: 'k8s-apparmor-example-deny-write' },
      warnings: [WARNING],
    });
  });

  test('runtime/default and unconfined are read as their profile types', () => {
    assert.deepEqual(create(hello('runtime/default')).profile, { type: 'RuntimeDefault' });
    assert.deepEqual(create(hello('unconfined')).profile, { type: 'Unconfined' });
  });

  test('the same profile at pod level: nothing copied, no warning', () => {
    assert.deepEqual(create(hello('runtime/default', { type: 'RuntimeDefault' })), {
      profile: undefined,
      warnings: [],
    });
  });
});
