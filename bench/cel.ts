/**
 * bench/cel: compiling a CRD's x-kubernetes-validations, validating 1,000 custom resources against them, and the
 * cost of ValidatingAdmissionPolicy admission on API creates (none vs. 5 policies with Deny bindings). Prints
 * figures; never fails on them.
 */
import { performance } from 'node:perf_hooks';
import type { CelSchema } from '../sandbox/cel/index';
import { compileValidationRules, validateWithRules } from '../sandbox/cel/index';
import { ApiServer } from '../sandbox/apiserver/apiServer';
import { VirtualClock } from '../sandbox/clock/virtualClock';
import type { KubeObject } from '../sandbox/api/types';
import { fmt, machine } from './stats';

const SCHEMA: CelSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
        { rule: "self.endpoints.all(e, e.port > 0 && e.path.startsWith('/'))" },
        { rule: 'self.endpoints.map(e, e.name).size() == self.endpoints.size()' },
      ],
      properties: {
        replicas: { type: 'integer' },
        maxReplicas: {
          type: 'integer',
          'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'may not shrink' }],
        },
        endpoints: {
          type: 'array',
          maxItems: 50,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: {
              name: {
                type: 'string',
                maxLength: 63,
                'x-kubernetes-validations': [{ rule: "self.matches('^[a-z][a-z0-9-]*$')" }],
              },
              port: { type: 'integer' },
              path: { type: 'string', maxLength: 256 },
              interval: {
                type: 'string',
                maxLength: 16,
                'x-kubernetes-validations': [{ rule: 'isQuantity(self) || self.endsWith("s")' }],
              },
            },
          },
        },
      },
    },
  },
};

function resource(i: number): Record<string, unknown> {
  return {
    apiVersion: 'monitoring.example.com/v1',
    kind: 'Probe',
    metadata: { name: `p-${i}` },
    spec: {
      replicas: i % 4,
      maxReplicas: 3,
      endpoints: Array.from({ length: 5 }, (_, j) => ({
        name: `ep-${j}`,
        port: 8080 + j,
        path: '/metrics',
        interval: '30s',
      })),
    },
  };
}

function deployment(i: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `d-${i}`, namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] } },
    },
  };
}

function creates(policies: number, n: number): number {
  const api = new ApiServer({ clock: new VirtualClock(0) });
  for (let p = 0; p < policies; p++) {
    api.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: `p${p}` },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
          ],
        },
        validations: [
          { expression: 'object.spec.replicas <= 10' },
          { expression: "object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest'))" },
        ],
      },
    });
    api.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: `b${p}` },
      spec: { policyName: `p${p}`, validationActions: ['Deny'] },
    });
  }
  const objs = Array.from({ length: n }, (_, i) => deployment(i));
  const t0 = performance.now();
  for (const o of objs) api.create(o);
  return n / ((performance.now() - t0) / 1000);
}

console.log(`bench/cel on ${machine()}`);
let t0 = performance.now();
const compiled = compileValidationRules(SCHEMA);
console.log(`compile 6 rules of one CRD schema: ${fmt(performance.now() - t0)} ms (errors: ${compiled.errors.length})`);
t0 = performance.now();
for (let i = 0; i < 20; i++) compileValidationRules(SCHEMA);
console.log(`compile again (warm): ${fmt((performance.now() - t0) / 20)} ms`);
const objs = Array.from({ length: 1000 }, (_, i) => resource(i));
t0 = performance.now();
for (const o of objs) validateWithRules(compiled.rules, o);
console.log(`validate 1,000 custom resources, first run (JIT warming): ${fmt(performance.now() - t0)} ms`);
t0 = performance.now();
let failures = 0;
for (const o of objs) failures += validateWithRules(compiled.rules, o).length;
const ms = performance.now() - t0;
console.log(
  `validate 1,000 custom resources again (5 endpoints each, 16 rule runs): ${fmt(ms)} ms, ${failures} errors`,
);
t0 = performance.now();
for (const o of objs) validateWithRules(compiled.rules, o, o);
console.log(`the same as unchanged updates (ratcheting, transition rule): ${fmt(performance.now() - t0)} ms`);
console.log(`API creates/s without policies: ${fmt(creates(0, 2000), 0)}`);
console.log(`API creates/s with 5 policies (2 validations each, Deny): ${fmt(creates(5, 2000), 0)}`);
