import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkFolder, expected } from './helpers';
import { analyzeFile } from '../../../server/src/services/workspace/analyzeFile';
import { checkAgainstPolicies, workspacePolicySource } from '../../../sandbox/admission/policy/index';
import { resourceFor } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';
import type { Diagnostic } from 'vscode-languageserver-types';

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

  test('a policy of the wrong shape judges nothing, as the API server refuses to store it', () => {
    const mistyped = minReplicasPolicy.replace('resources:   ["deployments"]', 'resources: deployments');
    assert.notEqual(mistyped, minReplicasPolicy, 'the fixture names deployments in a list');
    // It threw `(rule.resources ?? []).some is not a function` here, and `validate` with it; its own document's
    // wrong-type finding (single-document validation) is what reports it.
    assert.deepEqual(
      checkFolder({ 'policy.yaml': mistyped, 'binding.yaml': binding('Deny'), 'web.yaml': deployment(1) }),
      {},
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

describe('validating-admission-policy: only the policies that could match each resource are tried (cost only)', () => {
  // The rule hands the plugin, per resource, the policies whose resource rules could match it (sorted by name once);
  // the verdicts must be the plugin's over every policy of the folder: same findings, same order, same first denial.
  const OPERATIONS = [['CREATE'], ['UPDATE'], ['*'], ['CREATE', 'UPDATE'], 'CREATE'];
  const GROUPS = [[''], ['apps'], ['*'], ['batch', 'apps'], [], 'apps'];
  const RESOURCES = [['pods'], ['deployments'], ['*'], ['deployments/status'], ['*/*'], ['pods/*'], ['jobs']];
  const ruleArb = fc.record(
    {
      operations: fc.constantFrom(...OPERATIONS),
      apiGroups: fc.constantFrom(...GROUPS),
      apiVersions: fc.constantFrom(['v1'], ['*'], ['v2']),
      resources: fc.constantFrom(...RESOURCES),
      scope: fc.constantFrom('*', 'Namespaced', 'Cluster'),
    },
    { requiredKeys: ['apiGroups'] },
  );
  const policyArb = fc.record({
    name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'B', 'a-1'),
    rules: fc.oneof(fc.array(ruleArb, { maxLength: 3 }), fc.constant(undefined)),
    // undefined: no binding names the policy.
    action: fc.constantFrom('Deny', 'Warn', 'Warn, Deny', 'Audit', undefined),
    selector: fc.constantFrom(
      'namespaceSelector: {}',
      'objectSelector: {matchLabels: {app: web}}',
      'matchPolicy: Exact',
    ),
    validation: fc.constantFrom(
      'expression: "false"',
      'expression: "object.metadata.name == \'web\'"',
      'expression: 1',
    ),
  });
  const OBJECTS = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pod, labels: {app: web}}
spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
---
apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec: {template: {spec: {restartPolicy: Never, containers: [{name: j, image: busybox}]}}}
`;

  test('the verdicts of the plugin over every policy, on generated policies and bindings', () => {
    fc.assert(
      fc.property(fc.uniqueArray(policyArb, { selector: (p) => p.name, maxLength: 6 }), (policies) => {
        const docs = policies.map((p, i) => {
          const rules = p.rules === undefined ? '' : `    resourceRules: ${JSON.stringify(p.rules)}\n`;
          return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: ${p.name}}
spec:
  matchConstraints:
${rules}    ${p.selector}
  validations:
  - ${p.validation}
    message: policy ${i} says no
${
  p.action === undefined
    ? ''
    : `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: bind-${p.name}}
spec:
  policyName: ${p.name}
  validationActions: [${p.action}]
`
}`;
        });
        const policyText = docs.join('---\n');
        // A policy the plugin cannot handle throws out of it (a number for an expression): the same either way.
        let found: ReturnType<typeof checkFolder>;
        try {
          found = checkFolder({ 'policies.yaml': policyText, 'objects.yaml': OBJECTS });
        } catch (e) {
          found = { threw: [{ message: String(e) } as Diagnostic] };
        }
        // The oracle: the plugin over the whole folder, each object in the namespace it lands in.
        const all = [...analyzeFile(policyText).objects, ...analyzeFile(OBJECTS).objects].map((f) => {
          const namespaced = resourceFor(f.object.apiVersion, f.object.kind)?.namespaced ?? true;
          const namespace = namespaced ? (f.object.metadata.namespace ?? 'default') : undefined;
          return { facts: f, obj: { ...f.object, metadata: { ...f.object.metadata, namespace } } as KubeObject };
        });
        const source = workspacePolicySource(all.map((o) => o.obj));
        const want: Record<string, string[]> = {};
        for (const [i, o] of all.entries()) {
          let verdict: ReturnType<typeof checkAgainstPolicies>;
          try {
            verdict = checkAgainstPolicies(source, o.obj);
          } catch (e) {
            assert.deepEqual(found, { threw: [{ message: String(e) }] });
            return;
          }
          const file = i < all.length - 5 ? 'policies.yaml' : 'objects.yaml';
          const messages = [
            ...(verdict.denied ? [`error ${verdict.denied}`] : []),
            ...verdict.warnings.map((w) => `warning ${w}`),
          ];
          if (messages.length > 0)
            (want[file] ??= []).push(...messages.map((m) => `${o.facts.nameRange.start.line} ${m}`));
        }
        const got: Record<string, string[]> = {};
        for (const [file, ds] of Object.entries(found)) {
          const mine = ds.filter((d) => d.code === 'validating-admission-policy');
          if (mine.length > 0)
            got[file] = mine.map((d) => `${d.range.start.line} ${d.severity === 1 ? 'error' : 'warning'} ${d.message}`);
        }
        assert.deepEqual(got, want);
      }),
      { numRuns: 60, seed: 16 },
    );
  });
});
