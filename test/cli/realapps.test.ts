/**
 * Well-known installs applied whole, as their users apply them (test/fixtures/docs/realapps, see its SOURCE.md),
 * against what a Kubernetes 1.32 cluster does with them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { KubeObject } from '../../sandbox/api/types';
import { lines, validate } from '../sandbox/admission/helpers';
import { newApi } from '../sandbox/fixtures';
import { cliFixture, runCli } from './cliFixture';

const yamlOf = (o: KubeObject): string => `${JSON.stringify(o, null, 2)}\n`;

const ROOT = join(__dirname, '..', '..');
const DOCS = 'test/fixtures/docs/realapps';
const METRICS_BASE = `${DOCS}/kubernetes-sigs/metrics-server/manifests/base`;

const cli = (...argv: string[]) => runCli(ROOT, ...argv);

const apiService = (spec: Record<string, unknown>, name = 'v1beta1.metrics.k8s.io'): KubeObject =>
  ({
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name },
    spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, ...spec },
  }) as KubeObject;

describe('metrics-server: an APIService is validated as kube-aggregator does (ValidateAPIService)', () => {
  test('manifests/base/apiservice.yaml applied without kustomize lacks spec.service.namespace: refused', async () => {
    const v = await cli('validate', `${METRICS_BASE}/apiservice.yaml`);
    assert.equal(v.code, 1);
    assert.match(v.stdout, /apiservice\.yaml:7:3 error api-service spec\.service\.namespace: Required value/);
    const s = await cli('simulate', `${METRICS_BASE}/apiservice.yaml`);
    assert.equal(s.code, 1);
    assert.match(
      s.stderr + s.stdout,
      /APIService\.apiregistration\.k8s\.io "v1beta1\.metrics\.k8s\.io" is invalid: spec\.service\.namespace: Required value/,
    );
  });

  test('the released form (the Service named with its namespace) is accepted', () => {
    assert.deepEqual(
      lines(validate(apiService({ service: { name: 'metrics-server', namespace: 'kube-system' } }))),
      [],
    );
  });

  test('name, priorities, a local APIService with insecureSkipTLSVerify, and the Service port', () => {
    assert.deepEqual(lines(validate(apiService({ groupPriorityMinimum: 0, versionPriority: 1001 }, 'metrics'))), [
      'api-service | metadata.name: Invalid value: "metrics": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"',
      'api-service | spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'api-service | spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    ]);
    assert.deepEqual(lines(validate(apiService({ insecureSkipTLSVerify: true }))), [
      'api-service | spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
    ]);
    assert.deepEqual(lines(validate(apiService({ service: { name: 'm', namespace: 'kube-system', port: 70000 } }))), [
      'api-service | spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    ]);
    assert.deepEqual(lines(validate(apiService({ group: '', version: 'v2' }, 'v2.'))), [
      'api-service | spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
    ]);
  });
});

const INGRESS_NGINX = `${DOCS}/kubernetes/ingress-nginx/deploy/static/provider/cloud/deploy.yaml`;

const ingress = (name: string): KubeObject =>
  ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: 'default' },
    spec: {
      ingressClassName: 'nginx',
      rules: [
        {
          host: 'demo.localdev.me',
          http: {
            paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'demo', port: { number: 80 } } } }],
          },
        },
      ],
    },
  }) as KubeObject;

const webhookConfig = (failurePolicy: string, service: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'guard' },
    webhooks: [
      {
        name: 'validate.guard.example.com',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy,
        clientConfig: { service: { namespace: 'default', path: '/check', ...service } },
        rules: [
          { apiGroups: ['networking.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['ingresses'] },
        ],
      },
    ],
  }) as KubeObject;

function tryCreate(api: ReturnType<typeof newApi>['api'], obj: KubeObject): { out: string; warnings: string[] } {
  const warnings: string[] = [];
  try {
    api.create(obj, { warn: (t) => warnings.push(t) });
    return { out: 'created', warnings };
  } catch (e) {
    return { out: (e as Error).message, warnings };
  }
}

describe('ingress-nginx: admission webhooks with no ready backend fail as their failurePolicy says', () => {
  test('an Ingress applied while the controller is not Ready is refused by validate.nginx.ingress.kubernetes.io', async () => {
    const fixture = await cliFixture('kube-reconcile-realapps-', { 'ingress.yaml': yamlOf(ingress('demo')) });
    try {
      const r = await cli('simulate', INGRESS_NGINX, '--at', `30s:apply=${join(fixture.dir, 'ingress.yaml')}`);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr + r.stdout,
        /ingress\.yaml:1: Internal error occurred: failed calling webhook "validate\.nginx\.ingress\.kubernetes\.io": failed to call webhook: Post "https:\/\/ingress-nginx-controller-admission\.ingress-nginx\.svc:443\/networking\/v1\/ingresses\?timeout=10s": dial tcp 10\.\d+\.\d+\.\d+:443: connect: connection refused\n/,
      );
      // The configuration itself and the IngressClass are exempt or unmatched: the install applied whole.
      assert.match(
        r.stdout,
        /validatingwebhookconfiguration\.admissionregistration\.k8s\.io\/ingress-nginx-admission created\n/,
      );
    } finally {
      await fixture.dispose();
    }
  });

  test('no Service; Ignore admits; a ready endpoint means a server would answer: admitted with a warning', () => {
    const { api } = newApi();
    api.create(webhookConfig('Fail', { name: 'guard' }));
    assert.deepEqual(tryCreate(api, ingress('a')), {
      out: 'Internal error occurred: failed calling webhook "validate.guard.example.com": failed to call webhook: Post "https://guard.default.svc:443/check?timeout=10s": service "guard" not found',
      warnings: [],
    });
    api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'guard', namespace: 'default' },
      spec: { ports: [{ port: 8443 }], selector: { app: 'guard' } },
    } as KubeObject);
    assert.match(tryCreate(api, ingress('b')).out, /: no service port 443 found for service "guard"$/);

    const { api: ignoring } = newApi();
    ignoring.create(webhookConfig('Ignore', { name: 'guard' }));
    assert.deepEqual(tryCreate(ignoring, ingress('c')), { out: 'created', warnings: [] });

    const { api: served } = newApi();
    served.create(webhookConfig('Fail', { name: 'guard', port: 8443 }));
    served.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'guard', namespace: 'default' },
      spec: { ports: [{ port: 8443 }], selector: { app: 'guard' } },
    } as KubeObject);
    served.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'guard', namespace: 'default' },
      subsets: [{ addresses: [{ ip: '10.244.1.5' }], ports: [{ port: 8443 }] }],
    } as KubeObject);
    assert.deepEqual(tryCreate(served, ingress('d')), {
      out: 'created',
      warnings: [
        'admission webhook "validate.guard.example.com" (validating) was not called: the sandbox does not run webhook servers; the request is admitted as if it allowed it',
      ],
    });
  });
});

describe('kubectl maps each kind before sending it: an unknown kind is refused in its words', () => {
  test('manifests/base/ given to -f: kustomization.yaml is not a served kind; the rest applies', async () => {
    const r = await cli('simulate', METRICS_BASE);
    assert.equal(r.code, 1);
    assert.ok(
      r.stderr.includes(
        `${METRICS_BASE}/kustomization.yaml:1: resource mapping not found for name: "" namespace: "" from "${METRICS_BASE}/kustomization.yaml": no matches for kind "Kustomization" in version "kustomize.config.k8s.io/v1beta1"\nensure CRDs are installed first\n`,
      ),
      r.stderr,
    );
    assert.match(r.stdout, /^deployment\.apps\/metrics-server created\n/);
    assert.match(r.stdout, /\nservice\/metrics-server created\n/);
  });
});
