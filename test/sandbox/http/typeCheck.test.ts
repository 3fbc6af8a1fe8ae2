import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { goTypeName, locatedTypeMismatch, typeMismatch } from '../../../sandbox/schema/typeCheck';
import { configMap, deployment, pod, serve } from './helpers';
import type { Served } from './helpers';

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const PODS = '/api/v1/namespaces/default/pods';
const CMS = '/api/v1/namespaces/default/configmaps';

/** A pod whose single container carries `container` on top of a name and an image. */
function podWith(
  name: string,
  container: Record<string, unknown>,
  spec: Record<string, unknown> = {},
): Record<string, unknown> {
  return pod(name, {}, { containers: [{ name: 'app', image: 'nginx:1.27', ...container }], ...spec });
}

/** A Deployment whose second container's second env var has a number for its value. */
function deploymentWithNumberEnv(): Record<string, unknown> {
  const d = deployment('d');
  const containers = [
    { name: 'a', image: 'x' },
    {
      name: 'b',
      image: 'y',
      env: [
        { name: 'N', value: 'ok' },
        { name: 'M', value: 5 },
      ],
    },
  ];
  const template = { ...d.spec?.template, spec: { ...d.spec?.template.spec, containers } };
  return { ...d, spec: { ...d.spec, template } };
}

describe('typeMismatch: JSON types against the schema, in Go decoding words', () => {
  it('names the innermost struct, the dotted json path and the Go type', () => {
    const d = deployment('d');
    assert.equal(
      typeMismatch({ ...d, spec: { ...d.spec, replicas: '3' } }, 'apps/v1', 'Deployment'),
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });

  it('paths through lists drop the indices', () => {
    assert.equal(
      typeMismatch(deploymentWithNumberEnv(), 'apps/v1', 'Deployment'),
      'json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string',
    );
  });

  it('reports the first mismatch in document order', () => {
    const p = podWith('p', { stdin: 'yes', ports: [{ containerPort: 'eighty' }] });
    assert.equal(
      typeMismatch(p, 'v1', 'Pod'),
      'json: cannot unmarshal string into Go struct field Container.spec.containers.stdin of type bool',
    );
  });

  it('names a named string type as Go does (v1.PullPolicy, []v1.IPFamily), not string', () => {
    assert.equal(
      typeMismatch(podWith('p', { imagePullPolicy: 5 }), 'v1', 'Pod'),
      'json: cannot unmarshal number into Go struct field Container.spec.containers.imagePullPolicy of type v1.PullPolicy',
    );
    assert.equal(
      typeMismatch(podWith('p', { ports: [{ containerPort: 80, protocol: true }] }), 'v1', 'Pod'),
      'json: cannot unmarshal bool into Go struct field ContainerPort.spec.containers.ports.protocol of type v1.Protocol',
    );
    const service = (spec: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec,
    });
    assert.equal(
      typeMismatch(service({ ipFamilies: 'IPv4' }), 'v1', 'Service'),
      'json: cannot unmarshal string into Go struct field ServiceSpec.spec.ipFamilies of type []v1.IPFamily',
    );
    assert.equal(
      typeMismatch(service({ ipFamilies: [4] }), 'v1', 'Service'),
      'json: cannot unmarshal number into Go struct field ServiceSpec.spec.ipFamilies of type v1.IPFamily',
    );
    // The same json name in a struct without a named type stays `string`.
    assert.equal(
      typeMismatch(service({ externalName: 1 }), 'v1', 'Service'),
      'json: cannot unmarshal number into Go struct field ServiceSpec.spec.externalName of type string',
    );
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'b' },
      spec: { policyName: 'p', validationActions: 'Deny' },
    };
    assert.equal(
      typeMismatch(binding, 'admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding'),
      'json: cannot unmarshal string into Go struct field ValidatingAdmissionPolicyBindingSpec.spec.validationActions of type []v1.ValidationAction',
    );
  });

  it('prints list, map, struct, float and int64 types as Go does', () => {
    assert.equal(
      typeMismatch(pod('p', {}, { containers: { name: 'app' } }), 'v1', 'Pod'),
      'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
    );
    assert.equal(
      typeMismatch({ ...configMap('c'), data: { a: 1 } }, 'v1', 'ConfigMap'),
      'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    );
    assert.equal(
      typeMismatch({ ...configMap('c'), data: ['a'] }, 'v1', 'ConfigMap'),
      'json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string',
    );
    assert.equal(
      typeMismatch({ ...pod('p'), metadata: 'p' }, 'v1', 'Pod'),
      'json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta',
    );
    assert.equal(
      typeMismatch(pod('p', {}, { terminationGracePeriodSeconds: '30' }), 'v1', 'Pod'),
      'json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    );
    assert.equal(
      typeMismatch(pod('p', {}, { securityContext: { supplementalGroups: [1, '2'] } }), 'v1', 'Pod'),
      'json: cannot unmarshal string into Go struct field PodSecurityContext.spec.securityContext.supplementalGroups of type int64',
    );
    assert.equal(goTypeName({ kind: 'number' }), 'float64');
  });

  it('refuses fractions and out-of-range numbers for integers, with the number in the message', () => {
    const d = deployment('d', 2.5);
    assert.equal(
      typeMismatch(d, 'apps/v1', 'Deployment'),
      'json: cannot unmarshal number 2.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    assert.equal(
      typeMismatch(deployment('d', 2 ** 31), 'apps/v1', 'Deployment'),
      `json: cannot unmarshal number ${2 ** 31} into Go struct field DeploymentSpec.spec.replicas of type int32`,
    );
    assert.equal(typeMismatch(deployment('d', 2 ** 31 - 1), 'apps/v1', 'Deployment'), undefined);
  });

  it('accepts null anywhere, numbers or strings for Quantity and IntOrString, and unknown fields', () => {
    const p = podWith('p', {
      resources: { limits: { cpu: 1, memory: '64Mi' }, requests: { cpu: 0.5 } },
      readinessProbe: { httpGet: { port: 8080, path: '/' } },
      livenessProbe: { httpGet: { port: 'http', path: null } },
      args: [null, 'x'],
      imagee: 5,
    });
    assert.equal(typeMismatch(p, 'v1', 'Pod'), undefined);
    assert.equal(typeMismatch({ anything: 1 }, 'example.com/v1', 'Widget'), undefined);
  });

  it('stops at a failing custom decoder (IntOrString, Quantity, Time), even after a plain mismatch', () => {
    assert.equal(
      typeMismatch(podWith('p', { readinessProbe: { httpGet: { port: true } } }), 'v1', 'Pod'),
      'json: cannot unmarshal bool into Go value of type int32',
    );
    assert.equal(
      typeMismatch(podWith('p', { stdin: 'yes', readinessProbe: { httpGet: { port: 1.5 } } }), 'v1', 'Pod'),
      'json: cannot unmarshal number 1.5 into Go value of type int32',
    );
    assert.match(
      String(typeMismatch(podWith('p', { resources: { limits: { cpu: true } } }), 'v1', 'Pod')),
      /^quantities must match the regular expression /,
    );
    assert.equal(
      typeMismatch({ ...pod('p'), metadata: { name: 'p', creationTimestamp: 5 } }, 'v1', 'Pod'),
      'json: cannot unmarshal number into Go value of type string',
    );
  });

  it('locates the mismatch with indices and map keys (for file:line), where Go’s message has none', () => {
    assert.deepEqual(locatedTypeMismatch(deploymentWithNumberEnv(), 'apps/v1', 'Deployment'), {
      reason:
        'json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string',
      field: 'spec.template.spec.containers[1].env[1].value',
    });
    // The first plain mismatch keeps its place even though the walk goes on past it.
    assert.equal(
      locatedTypeMismatch(podWith('p', { stdin: 'yes', ports: [{ containerPort: 'eighty' }] }), 'v1', 'Pod')?.field,
      'spec.containers[0].stdin',
    );
    // A map value: the key in brackets, as field.Path prints it.
    assert.deepEqual(
      locatedTypeMismatch(
        { ...pod('p'), metadata: { name: 'p', labels: { 'app.kubernetes.io/name': 3 } } },
        'v1',
        'Pod',
      ),
      {
        reason: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
        field: 'metadata.labels[app.kubernetes.io/name]',
      },
    );
    // A failing custom decoder is located where it failed, not at an earlier plain mismatch.
    assert.equal(
      locatedTypeMismatch(podWith('p', { stdin: 'yes', readinessProbe: { httpGet: { port: 1.5 } } }), 'v1', 'Pod')
        ?.field,
      'spec.containers[0].readinessProbe.httpGet.port',
    );
    assert.equal(locatedTypeMismatch(pod('p'), 'v1', 'Pod'), undefined);
  });
});

describe('HTTP API: bodies with wrongly typed fields', () => {
  let s: Served;
  before(async () => {
    s = await serve();
  });
  after(() => s.close());

  it('refuses replicas "3" with 400 in upstream words and stores nothing', async () => {
    const d = deployment('typed');
    const body = { ...d, spec: { ...d.spec, replicas: '3' } };
    const before = s.cluster.api.resourceVersion;
    const r = await s.request('POST', DEPLOYS, { body });
    assert.equal(r.status, 400);
    assert.equal(r.json.reason, 'BadRequest');
    assert.equal(
      r.json.message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    assert.equal(s.cluster.api.tryGet('deployments', 'default', 'typed'), undefined);
    assert.equal(s.cluster.api.resourceVersion, before);
  });

  it('refuses a bool in a string field of a nested list, on create and on update', async () => {
    const bad = podWith('hdr', {
      livenessProbe: { httpGet: { port: 80, httpHeaders: [{ name: 'X-On', value: true }] } },
    });
    const expected =
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field HTTPHeader.spec.containers.livenessProbe.httpGet.httpHeaders.value of type string';
    const created = await s.request('POST', PODS, { body: bad });
    assert.equal(created.status, 400);
    assert.equal(created.json.message, expected);
    assert.equal(s.cluster.api.tryGet('pods', 'default', 'hdr'), undefined);

    const ok = await s.request('POST', CMS, { body: configMap('cm-typed') });
    assert.equal(ok.status, 201);
    const stored = s.cluster.api.get('configmaps', 'default', 'cm-typed');
    const update = await s.request('PUT', `${CMS}/cm-typed`, {
      body: { ...structuredClone(stored), data: { a: false } },
    });
    assert.equal(update.status, 400);
    assert.equal(
      update.json.message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string',
    );
    assert.deepEqual(s.cluster.api.get('configmaps', 'default', 'cm-typed').data, { a: '1' });
  });

  it('refuses an object where a list goes', async () => {
    const r = await s.request('POST', PODS, {
      body: pod('obj-list', {}, { containers: { name: 'app', image: 'nginx' } }),
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.json.message,
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
    );
  });

  it('accepts numbers for Quantity and IntOrString, and YAML bodies typed right', async () => {
    const r = await s.request('POST', PODS, {
      body: podWith('numbers', {
        resources: { limits: { cpu: 1, memory: 67108864 } },
        readinessProbe: { tcpSocket: { port: 8080 } },
      }),
    });
    assert.equal(r.status, 201, r.text);
    assert.ok(s.cluster.api.tryGet('pods', 'default', 'numbers'));
    const yaml = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: yaml-quoted\nspec:\n  replicas: "2"\n';
    const quoted = await s.request('POST', DEPLOYS, { body: yaml, contentType: 'application/yaml' });
    assert.equal(quoted.status, 400);
    assert.match(
      String(quoted.json.message),
      /json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32$/,
    );
  });
});
