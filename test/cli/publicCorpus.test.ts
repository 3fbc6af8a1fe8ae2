/**
 * `validate` over a corpus of real public manifests (test/fixtures/public:
 * kubernetes/website examples, GoogleCloudPlatform/microservices-demo,
 * kubernetes/examples; sources and licenses in each SOURCE.md). Exit 1 must
 * mean "a Kubernetes 1.32 API server would refuse something": every error is
 * listed below with why the server refuses it; everything else is at most a
 * warning.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { main } from '../../cli/main';
import type { Problem } from '../../cli/problems';

const ROOT = join(__dirname, '..', '..');
const CORPUS = 'test/fixtures/public';

async function validate(...paths: string[]): Promise<{ code: number; problems: Problem[] }> {
  let stdout = '';
  const code = await main(['validate', '--format', 'json', ...paths], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: () => undefined },
    cwd: ROOT,
  });
  const problems = (JSON.parse(stdout) as Problem[]).map((p) => ({ ...p, file: p.file.slice(CORPUS.length + 1) }));
  return { code, problems };
}

/** The documents a real 1.32 API server refuses: where, and words the message must say. */
const REFUSED: { at: string; says: string }[] = [
  {
    // The version of this page kept here still used batch/v1beta1, which 1.25 stopped serving: `no matches for kind
    // "CronJob" in version "batch/v1beta1"`.
    at: 'kubernetes-website/application/job/cronjob.yaml:1 removed-api-version',
    says: 'batch/v1beta1 CronJob was removed in Kubernetes 1.25',
  },
  {
    // `gRPC:` (a capital R, a typo later fixed in the docs) is not a field of Probe, so without it (fieldValidation
    // Ignore or Warn drops it) the probe has no handler: 422…
    at: 'kubernetes-website/pods/probe/grpc-liveness.yaml:12 container-probes',
    says: 'spec.containers[0].livenessProbe: Required value: must specify a handler type',
  },
  {
    // …and kubectl's strict field validation refuses it first: `strict decoding error: unknown field
    // "spec.containers[0].livenessProbe.gRPC"`.
    at: 'kubernetes-website/pods/probe/grpc-liveness.yaml:13 unknown-field',
    says: 'Unknown field "gRPC" in Probe',
  },
  {
    // The docs' image-matches example names v1beta1, which a 1.32 server has but does not serve unless
    // --runtime-config enables it (betaAPIGroupVersionsDisabledByDefault): `no matches for kind
    // "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"`.
    at: 'kubernetes-website-vap/image-matches-namespace-environment.policy.yaml:5 unknown-kind',
    says: 'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is off by default in Kubernetes 1.32',
  },
  {
    // The docs' matchConditions example still names v1alpha1, which a 1.32 server does not serve (`no matches for kind
    // "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1alpha1"`); as v1 it would be refused too,
    // since `startWith` does not compile.
    at: 'kubernetes-website-vap/validating-admission-policy-match-conditions.yaml:1 removed-api-version',
    says: 'admissionregistration.k8s.io/v1alpha1 ValidatingAdmissionPolicy was removed',
  },
];

describe('validate over real public manifests', () => {
  test('errors only where a 1.32 API server refuses the document', async () => {
    const { code, problems } = await validate(CORPUS);
    const errors = problems.filter((p) => p.severity === 'error');
    assert.deepEqual(
      errors.map((p) => `${p.file}:${p.line} ${p.code}`),
      REFUSED.map((r) => r.at),
    );
    errors.forEach((p, i) => assert.ok(p.message.includes(REFUSED[i].says), p.message));
    assert.equal(code, 1);
  });

  test('without the refused documents, validate exits 0', async () => {
    const refused = new Set(REFUSED.map((r) => r.at.split(':')[0]));
    const rest = readdirSync(join(ROOT, CORPUS), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.yaml') && !refused.has(f.split(sep).join('/')))
      .map((f) => join(CORPUS, f));
    assert.ok(rest.length > 40);
    const { code, problems } = await validate(...rest);
    assert.deepEqual(
      problems.filter((p) => p.severity === 'error'),
      [],
    );
    assert.equal(code, 0);
  });

  test('alternatives kept side by side are warnings, and only within one directory', async () => {
    const { problems } = await validate(CORPUS);
    const duplicates = problems.filter((p) => p.code === 'duplicate-object').map((p) => `${p.file}:${p.line}`);
    assert.deepEqual(duplicates, [
      // One commit of kubernetes/examples keeps the frontend both alone and in the all-in-one file.
      'kubernetes-examples/guestbook/all-in-one/frontend.yaml:4',
      'kubernetes-examples/guestbook/all-in-one/frontend.yaml:21',
      'kubernetes-examples/guestbook/all-in-one/guestbook-all-in-one.yaml:101',
      'kubernetes-examples/guestbook/all-in-one/guestbook-all-in-one.yaml:118',
      // The tutorial's three steps of one Deployment.
      'kubernetes-website/application/deployment-scale.yaml:4',
      'kubernetes-website/application/deployment-update.yaml:6',
      'kubernetes-website/application/deployment.yaml:4',
      // Two pages of the docs name their example policy alike.
      'kubernetes-website-vap/validating-admission-policy-audit-annotation.yaml:6',
      'kubernetes-website-vap/validating-admission-policy-match-conditions.yaml:4',
    ]);
    assert.ok(problems.filter((p) => p.code === 'duplicate-object').every((p) => p.severity === 'warning'));
  });

  test('StatefulSet volumes named like their volumeClaimTemplates are not missing claims', async () => {
    const { problems } = await validate(CORPUS);
    const claims = problems.filter(
      (p) => p.code === 'missing-reference' && p.message.includes('PersistentVolumeClaim'),
    );
    assert.deepEqual(claims, []);
  });
});
