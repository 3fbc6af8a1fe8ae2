/**
 * ValidatingAdmissionPolicy end to end through the API server: the documentation's policies with a binding deny,
 * warn and audit real writes, with upstream's status, code and words.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from '../../../../sandbox/api/errors';
import type { KubeObject } from '../../../../sandbox/api/types';
import { deployment, newApi } from '../../fixtures';
import { binding, websitePolicy } from './websiteFixtures';

function rejection(fn: () => unknown): { code: number; reason: string; message: string; causes: unknown } {
  try {
    fn();
  } catch (e) {
    if (isApiError(e))
      return { code: e.code, reason: e.reason, message: e.status.message, causes: e.status.details?.causes };
    throw e;
  }
  assert.fail('expected the write to be refused');
}

describe('ValidatingAdmissionPolicy in the API server', () => {
  test('a Deny binding refuses a Deployment with fewer than two replicas, with upstream 422 and message', () => {
    const { api } = newApi();
    api.create(websitePolicy('vap-min-replicas.yaml'));
    api.create(binding('min-replicas', 'enforce-multiple-replicas-deployments'));
    const r = rejection(() => api.create(deployment('web', 1)));
    const message =
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'enforce-multiple-replicas-deployments' with binding 'min-replicas' denied request: failed expression: object.spec.replicas >= 2";
    assert.deepEqual(r, {
      code: 422,
      reason: 'Invalid',
      message,
      causes: [{ message: message.slice('deployments.apps "web" is forbidden: '.length) }],
    });
    assert.equal(api.tryGet('deployments', 'default', 'web'), undefined);
    assert.equal(api.create(deployment('web', 2)).metadata.name, 'web');
    const scaledDown = { ...api.get('deployments', 'default', 'web'), spec: deployment('web', 1).spec };
    assert.equal(rejection(() => api.update(scaledDown as KubeObject)).code, 422);
  });

  test('a policy or binding with a field of the wrong type is refused as upstream decoding refuses it, and stores nothing', () => {
    const { api } = newApi();
    const policy = websitePolicy('vap-min-replicas.yaml');
    const rules = (policy.spec as { matchConstraints: { resourceRules: Record<string, unknown>[] } }).matchConstraints
      .resourceRules;
    rules[0] = { ...rules[0], resources: 'deployments' };
    const r = rejection(() => api.create(policy));
    assert.equal(r.code, 400);
    assert.equal(
      r.message,
      'ValidatingAdmissionPolicy in version "v1" cannot be handled as a ValidatingAdmissionPolicy: json: cannot unmarshal string into Go struct field NamedRuleWithOperations.spec.matchConstraints.resourceRules.resources of type []string',
    );
    assert.equal(api.tryGet('validatingadmissionpolicies', '', 'enforce-multiple-replicas-deployments'), undefined);
    const mistypedBinding = binding('min-replicas', 'enforce-multiple-replicas-deployments');
    (mistypedBinding.spec as Record<string, unknown>).validationActions = 'Deny';
    assert.equal(rejection(() => api.create(mistypedBinding)).code, 400);
    // Writes after them are admitted as before (a stored policy of the wrong shape would break every later one).
    assert.equal(api.create(deployment('web', 1)).metadata.name, 'web');
  });

  test('reason Forbidden answers 403; messageExpression gives the message', () => {
    const { api } = newApi();
    const policy = websitePolicy('vap-min-replicas.yaml');
    const spec = policy.spec as { validations: Record<string, unknown>[] };
    spec.validations[0] = {
      expression: 'object.spec.replicas >= 2',
      messageExpression: "'replicas ' + string(object.spec.replicas) + ' is below 2'",
      reason: 'Forbidden',
    };
    api.create(policy);
    api.create(binding('b', 'enforce-multiple-replicas-deployments'));
    const r = rejection(() => api.create(deployment('web', 1)));
    assert.equal(r.code, 403);
    assert.equal(r.reason, 'Forbidden');
    assert.match(r.message, /denied request: replicas 1 is below 2$/);
  });

  test('a Warn binding admits the write and returns the warning; Audit records the failure', () => {
    const { api } = newApi();
    api.create(websitePolicy('validating-admission-policy-audit-annotation.yaml'));
    api.create(binding('warn-and-audit', 'demo-policy.example.com', { validationActions: ['Warn', 'Audit'] }));
    const warnings: string[] = [];
    api.create(deployment('web', 3), { warn: (w) => warnings.push(w) });
    assert.deepEqual(warnings, [
      "Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'warn-and-audit': Deployment spec.replicas set to 3",
    ]);
    const record = api.policyAudit.records.at(-1)!;
    assert.equal(record.annotations['demo-policy.example.com/high-replica-count'], 'Deployment spec.replicas set to 3');
    assert.deepEqual(JSON.parse(record.annotations['validation.policy.admission.k8s.io/validation_failure']), [
      {
        message: 'Deployment spec.replicas set to 3',
        policy: 'demo-policy.example.com',
        binding: 'warn-and-audit',
        expressionIndex: 0,
        validationActions: ['Warn', 'Audit'],
      },
    ]);
  });

  test('variables and namespaceObject: images must match the namespace environment', () => {
    const { api } = newApi();
    api.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'staging', labels: { environment: 'staging' } },
    });
    api.create(websitePolicy('image-matches-namespace-environment.policy.yaml'));
    api.create(binding('env', 'image-matches-namespace-environment.policy.example.com'));
    const withImage = (name: string, image: string, labels: Record<string, string> = { app: name }): KubeObject => {
      const d = deployment(name, 1, labels);
      d.metadata.namespace = 'staging';
      d.metadata.labels = labels; // the policy reads object.metadata.labels: without any, it fails (no such key)
      (d.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image = image;
      return d;
    };
    assert.match(
      rejection(() => api.create(withImage('a', 'prod.example.com/app'))).message,
      /denied request: only staging images are allowed in namespace staging$/,
    );
    assert.ok(api.create(withImage('b', 'staging.example.com/app')));
    assert.ok(api.create(withImage('c', 'nginx')));
    assert.ok(api.create(withImage('d', 'prod.example.com/app', { app: 'd', exempt: 'true' })));
  });

  test('the documentation policy calling startWith is refused when it is created, as kube-apiserver refuses it', () => {
    const { api } = newApi();
    const r = rejection(() => api.create(websitePolicy('validating-admission-policy-match-conditions.yaml')));
    assert.equal(r.code, 422);
    assert.match(
      r.message,
      /spec\.validations\[0\]\.expression: Invalid value: "object\.metadata\.name\.startWith\('demo'\)": compilation failed: ERROR: <input>:1:/,
    );
  });

  test('matchConditions skip what they exclude (the documentation policy, with startsWith)', () => {
    const { api } = newApi();
    const policy = websitePolicy('validating-admission-policy-match-conditions.yaml');
    (policy.spec as { validations: { expression: string }[] }).validations[0].expression =
      "object.metadata.name.startsWith('demo')";
    api.create(policy);
    api.create(binding('names', 'demo-policy.example.com'));
    assert.match(rejection(() => api.create(deployment('web'))).message, /failed expression: object\.metadata\.name/);
    assert.ok(api.create(deployment('demo-web')));
    // leases are excluded by the first matchCondition, RBAC by the third
    assert.ok(
      api.create({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'x', namespace: 'default' },
      }),
    );
    assert.ok(
      api.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'y' },
        rules: [],
      }),
    );
  });

  test('paramKind + paramRef: the limit comes from a ConfigMap; a missing param denies with parameterNotFoundAction Deny', () => {
    const { api } = newApi();
    api.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'max-replicas' },
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] },
          ],
        },
        validations: [
          {
            expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
            messageExpression: "'object.spec.replicas must be no greater than ' + params.data.maxReplicas",
          },
        ],
      },
    });
    api.create(
      binding('max-replicas', 'max-replicas', {
        paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' },
      }),
    );
    assert.match(
      rejection(() => api.create(deployment('web', 3))).message,
      /denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/,
    );
    api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'limits', namespace: 'default' },
      data: { maxReplicas: '2' },
    });
    assert.match(
      rejection(() => api.create(deployment('web', 3))).message,
      /denied request: object\.spec\.replicas must be no greater than 2$/,
    );
    assert.ok(api.create(deployment('web', 2)));
  });

  test('an expression error follows failurePolicy: Fail denies, Ignore admits', () => {
    for (const failurePolicy of ['Fail', 'Ignore']) {
      const { api } = newApi();
      api.create({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'p' },
        spec: {
          failurePolicy,
          matchConstraints: {
            resourceRules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
            ],
          },
          validations: [{ expression: "object.data.missing == 'x'" }],
        },
      });
      api.create(binding('b', 'p'));
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: {} };
      if (failurePolicy === 'Fail')
        assert.match(
          rejection(() => api.create(cm)).message,
          /denied request: expression 'object\.data\.missing == 'x'' resulted in error: no such key: missing$/,
        );
      else assert.ok(api.create(cm));
    }
  });

  test('bindings are validated: Deny with Warn, no actions, paramRef without name or selector', () => {
    const { api } = newApi();
    const r = rejection(() =>
      api.create(
        binding('b', 'p', { validationActions: ['Deny', 'Warn'], paramRef: { parameterNotFoundAction: 'Allow' } }),
      ),
    );
    assert.equal(r.code, 422);
    assert.match(r.message, /spec\.paramRef: Required value: one of name or selector must be specified/);
    assert.match(
      r.message,
      /spec\.validationActions: Invalid value: \[\]admissionregistration\.ValidationAction\{"Deny", "Warn"\}: must not contain both Deny and Warn/,
    );
    assert.match(
      rejection(() => api.create(binding('b', 'p', { validationActions: [] }))).message,
      /spec\.validationActions: Required value: at least one validation action is required/,
    );
  });

  test('objectSelector and namespaceSelector narrow what a binding applies to', () => {
    const { api } = newApi();
    api.create(websitePolicy('vap-min-replicas.yaml'));
    api.create(
      binding('only-critical', 'enforce-multiple-replicas-deployments', {
        matchResources: { objectSelector: { matchLabels: { tier: 'critical' } } },
      }),
    );
    assert.ok(api.create(deployment('web', 1)));
    const critical = deployment('db', 1);
    critical.metadata.labels = { tier: 'critical' };
    assert.equal(rejection(() => api.create(critical)).code, 422);
  });
});
