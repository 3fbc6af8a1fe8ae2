import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mistypedPolicyReason } from '../../../sandbox/apiserver/mistypedPolicy';
import { deployment } from '../fixtures';

describe('mistypedPolicyReason: the one check for a policy or binding of the wrong JSON type', () => {
  const binding = (policyName: unknown) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'b' },
    spec: { policyName, validationActions: ['Deny'] },
  });

  test('an admissionregistration.k8s.io object of the wrong type, in Go’s decoding words', () => {
    assert.equal(mistypedPolicyReason('admissionregistration.k8s.io', binding('p')), undefined);
    assert.equal(
      mistypedPolicyReason('admissionregistration.k8s.io', binding(7)),
      'json: cannot unmarshal number into Go struct field ValidatingAdmissionPolicyBindingSpec.spec.policyName of type string',
    );
  });

  test('nothing for another group (the HTTP edge checks those), nor without a string apiVersion and kind', () => {
    const d = deployment('web');
    const mistyped = { ...d, spec: { ...(d.spec as object), replicas: '3' } };
    assert.equal(mistypedPolicyReason('apps', mistyped), undefined);
    assert.equal(mistypedPolicyReason(undefined, binding(7)), undefined);
    assert.equal(mistypedPolicyReason('admissionregistration.k8s.io', { ...binding(7), kind: 7 }), undefined);
  });
});
