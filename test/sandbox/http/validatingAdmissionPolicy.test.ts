/** ValidatingAdmissionPolicy over HTTP: a Warn failure comes back as a `Warning` header, a Deny as a Status. */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { deployment, serve } from './helpers';
import type { Served } from './helpers';

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const POLICIES = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const BINDINGS = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

function policy(name: string, min: number): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
        ],
      },
      validations: [{ expression: `object.spec.replicas >= ${min}`, message: `at least ${min} replicas` }],
    },
  };
}

function binding(name: string, policyName: string, action: string): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: [action] },
  };
}

describe('ValidatingAdmissionPolicy over HTTP', () => {
  let s: Served;
  before(async () => {
    s = await serve();
    for (const [path, body] of [
      [POLICIES, policy('two', 2)],
      [BINDINGS, binding('two-warn', 'two', 'Warn')],
      [POLICIES, policy('one', 1)],
      [BINDINGS, binding('one-deny', 'one', 'Deny')],
    ] as const)
      assert.equal((await s.request('POST', path, { body })).status, 201);
  });
  after(() => s.close());

  it('Warn: created, with the Warning header in upstream words', async () => {
    const r = await s.request('POST', DEPLOYS, { body: deployment('small', 1) });
    assert.equal(r.status, 201);
    assert.equal(
      r.headers.warning,
      `299 - "Validation failed for ValidatingAdmissionPolicy 'two' with binding 'two-warn': at least 2 replicas"`,
    );
  });

  it('Deny: 422 with the denial as the Status message', async () => {
    const r = await s.request('POST', DEPLOYS, { body: deployment('none', 0) });
    assert.equal(r.status, 422);
    const status = r.json as { reason: string; message: string };
    assert.equal(status.reason, 'Invalid');
    assert.equal(
      status.message,
      `deployments.apps "none" is forbidden: ValidatingAdmissionPolicy 'one' with binding 'one-deny' denied request: at least 1 replicas`,
    );
  });

  it('the policies are listed like any other resource', async () => {
    const r = await s.request('GET', POLICIES);
    assert.equal(r.status, 200);
    const names = (r.json as unknown as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
    assert.deepEqual(names, ['one', 'two']);
  });
});
