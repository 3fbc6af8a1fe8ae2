/**
 * Alpha and beta APIs a Kubernetes release knows but does not serve by default (kube-apiserver
 * `DefaultAPIResourceConfigSource`: `betaAPIGroupVersionsDisabledByDefault`, `alphaAPIGroupVersionsDisabledByDefault`).
 * The documentation's image-matches-namespace-environment.policy.yaml (test/fixtures/docs/nbadmin2, see SOURCE.md)
 * names admissionregistration.k8s.io/v1beta1: a 1.32 cluster answers `no matches for kind "ValidatingAdmissionPolicy"
 * in version "admissionregistration.k8s.io/v1beta1"`, which `validate` used to pass without a word.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateManifestText } from '../../server/src/services/validateDocument';
import { kubernetesVersion, setKubernetesVersion } from '../../server/src/schema/schema';

const DIR = join(__dirname, '..', 'fixtures', 'docs', 'nbadmin2');

function diagnostics(text: string): string[] {
  return validateManifestText(text).map(
    (d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.code} ${d.message}`,
  );
}

describe('APIs off by default', () => {
  test('the v1beta1 ValidatingAdmissionPolicy example is an error naming the served version', () => {
    const text = readFileSync(join(DIR, 'access/image-matches-namespace-environment.policy.yaml'), 'utf8');
    assert.deepEqual(diagnostics(text), [
      '0:12 1 unknown-kind admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is off by default in ' +
        'Kubernetes 1.32: a cluster answers `no matches for kind "ValidatingAdmissionPolicy" in version ' +
        '"admissionregistration.k8s.io/v1beta1"` unless kube-apiserver runs with ' +
        '--runtime-config=admissionregistration.k8s.io/v1beta1=true; use admissionregistration.k8s.io/v1',
    ]);
    // the same policy as v1 is valid
    assert.deepEqual(
      diagnostics(text.replace('admissionregistration.k8s.io/v1beta1', 'admissionregistration.k8s.io/v1')),
      [],
    );
  });

  test('a beta without a GA version says no replacement', () => {
    const text = [
      'apiVersion: networking.k8s.io/v1beta1',
      'kind: ServiceCIDR',
      'metadata: {name: extra}',
      'spec: {cidrs: [10.96.0.0/16]}',
    ].join('\n');
    assert.deepEqual(diagnostics(text), [
      '0:12 1 unknown-kind networking.k8s.io/v1beta1 ServiceCIDR is off by default in Kubernetes 1.32: a cluster ' +
        'answers `no matches for kind "ServiceCIDR" in version "networking.k8s.io/v1beta1"` unless kube-apiserver ' +
        'runs with --runtime-config=networking.k8s.io/v1beta1=true',
    ]);
  });

  test('1.31 still served flowcontrol v1beta3 by default (legacyBetaEnabledByDefaultResources)', () => {
    const release = kubernetesVersion();
    try {
      setKubernetesVersion('1.31');
      const text = [
        'apiVersion: flowcontrol.apiserver.k8s.io/v1beta3',
        'kind: PriorityLevelConfiguration',
        'metadata: {name: x}',
        'spec: {type: Limited, limited: {nominalConcurrencyShares: 5, limitResponse: {type: Reject}}}',
      ].join('\n');
      assert.deepEqual(diagnostics(text), []);
    } finally {
      setKubernetesVersion(release);
    }
  });
});
