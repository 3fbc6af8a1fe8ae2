import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFolder, expected } from './helpers';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'public', 'kubernetes-website-vap');
const minReplicasPolicy = readFileSync(join(FIXTURES, 'vap-min-replicas.yaml'), 'utf8');

const binding = (action: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: min-replicas
spec:
  policyName: enforce-multiple-replicas-deployments
  validationActions: [${action}]
`;

const deployment = (replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
`;

const MESSAGE =
  "ValidatingAdmissionPolicy 'enforce-multiple-replicas-deployments' with binding 'min-replicas' denied request: failed expression: object.spec.replicas >= 2";

describe('validating-admission-policy', () => {
  test('a Deny binding in the workspace: an error on the manifest it would refuse, at its name', () => {
    assert.deepEqual(
      checkFolder({ 'policy.yaml': minReplicasPolicy, 'binding.yaml': binding('Deny'), 'web.yaml': deployment(1) }),
      {
        'web.yaml': [
          expected(3, 8, 11, 'validating-admission-policy', `deployments.apps "web" is forbidden: ${MESSAGE}`, 'error'),
        ],
      },
    );
  });

  test('a Warn binding: a warning in the API server words', () => {
    assert.deepEqual(
      checkFolder({ 'policy.yaml': minReplicasPolicy, 'binding.yaml': binding('Warn'), 'web.yaml': deployment(1) }),
      {
        'web.yaml': [
          expected(
            3,
            8,
            11,
            'validating-admission-policy',
            "Validation failed for ValidatingAdmissionPolicy 'enforce-multiple-replicas-deployments' with binding 'min-replicas': failed expression: object.spec.replicas >= 2",
          ),
        ],
      },
    );
  });

  test('nothing without a binding, for an object the policy admits, or for an Audit-only binding', () => {
    assert.deepEqual(checkFolder({ 'policy.yaml': minReplicasPolicy, 'web.yaml': deployment(1) }), {});
    assert.deepEqual(
      checkFolder({ 'policy.yaml': minReplicasPolicy, 'binding.yaml': binding('Deny'), 'web.yaml': deployment(3) }),
      {},
    );
    assert.deepEqual(
      checkFolder({ 'policy.yaml': minReplicasPolicy, 'binding.yaml': binding('Audit'), 'web.yaml': deployment(1) }),
      {},
    );
  });

  test('a Deployment without replicas is judged as the API server defaults it (1 replica)', () => {
    const withoutReplicas = deployment(1).replace('  replicas: 1\n', '');
    const found = checkFolder({ 'p.yaml': minReplicasPolicy, 'b.yaml': binding('Deny'), 'web.yaml': withoutReplicas });
    assert.equal(found['web.yaml']?.[0]?.message, `deployments.apps "web" is forbidden: ${MESSAGE}`);
  });
});
