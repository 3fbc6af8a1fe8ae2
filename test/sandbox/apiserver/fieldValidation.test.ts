import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../sandbox/api/errors';
import type { KubeObject } from '../../../sandbox/api/types';
import { deployment, newApi, pod, statusOf } from '../fixtures';

/** A Pod whose only container has `poarts` (a typo of `ports`) and a top-level `bogus` in its spec. */
function typoPod(name: string): KubeObject {
  const p = pod(name);
  (p.spec as { containers: Record<string, unknown>[] }).containers[0].poarts = [{ containerPort: 80 }];
  return p;
}

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('field validation in the API server', () => {
  test('Strict: create fails with 400 in kubectl 1.32 words and names the field; nothing is stored', () => {
    const { api } = newApi();
    const rv = api.resourceVersion;
    const e = thrown(() => api.create(typoPod('typo'), { fieldValidation: 'Strict' }));
    assert.equal(e.status.code, 400);
    assert.equal(e.status.reason, 'BadRequest');
    assert.equal(
      e.message,
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].poarts"',
    );
    assert.deepEqual(e.fields, ['spec.containers[0].poarts']);
    assert.equal(api.tryGet('pods', 'default', 'typo'), undefined);
    assert.equal(api.resourceVersion, rv);
  });

  test('Strict on update and on the status subresource', () => {
    const { api } = newApi();
    const live = api.create(deployment('web'));
    const next = structuredClone(live) as KubeObject & { spec: Record<string, unknown> };
    next.spec.replicass = 2;
    assert.equal(
      statusOf(() => api.update(next, { fieldValidation: 'Strict' })).message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"',
    );
    const status = { ...structuredClone(live), status: { replicas: 1, readyReplica: 1 } } as KubeObject;
    assert.equal(
      statusOf(() => api.updateStatus(status, { fieldValidation: 'Strict' })).message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "status.readyReplica"',
    );
    assert.equal(api.get('deployments', 'default', 'web'), live);
  });

  test('Warn (no option given, as kube-apiserver defaults): stored without the field, one warning each', () => {
    const { api } = newApi();
    const warnings: string[] = [];
    const p = typoPod('warned');
    (p.metadata as Record<string, unknown>).owner = 'me';
    const created = api.create(p, { warn: (w) => warnings.push(w) });
    assert.deepEqual(warnings, ['unknown field "metadata.owner"', 'unknown field "spec.containers[0].poarts"']);
    assert.equal(JSON.stringify(created).includes('poarts'), false);
    assert.equal(JSON.stringify(created).includes('owner'), false);
    assert.equal(JSON.stringify(api.create(typoPod('quiet'))).includes('poarts'), false);
  });

  test('Ignore: stored without the field and without warnings', () => {
    const { api } = newApi();
    const warnings: string[] = [];
    const created = api.create(typoPod('ignored'), { fieldValidation: 'Ignore', warn: (w) => warnings.push(w) });
    assert.deepEqual(warnings, []);
    assert.equal(JSON.stringify(created).includes('poarts'), false);
  });

  test('a type error wins over strictness, as in Go decoding', () => {
    const { api } = newApi();
    const p = typoPod('typed');
    (p.metadata as Record<string, unknown>).name = 7;
    assert.match(statusOf(() => api.create(p, { fieldValidation: 'Strict' })).message, /cannot unmarshal number/);
  });

  test('a field of the wrong type in any kind: 400 in Go decoding’s words under field validation, before strictness', () => {
    const { api } = newApi();
    const rv = api.resourceVersion;
    const d = deployment('typed');
    (d.spec as Record<string, unknown>).replicas = '3';
    const e = thrown(() => api.create(d, { fieldValidation: 'Strict' }));
    assert.equal(e.status.code, 400);
    assert.equal(
      e.message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    assert.deepEqual(e.fields, ['spec.replicas'], 'where it is, for file:line (never on the wire)');
    assert.equal(e.status.details, undefined, 'no causes: upstream’s decoding error carries none');
    // An unknown field beside it: the type error is what decoding reports.
    const p = typoPod('typed');
    (p.spec as { containers: Record<string, unknown>[] }).containers[0].ports = [{ containerPort: '80' }];
    const pe = thrown(() => api.create(p, { fieldValidation: 'Ignore' }));
    assert.equal(
      pe.message,
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    );
    assert.deepEqual(pe.fields, ['spec.containers[0].ports[0].containerPort']);
    assert.equal(api.resourceVersion, rv, 'nothing stored');
    // A component's own write (no field validation) is left to the validation rules: 422, as before.
    assert.equal(statusOf(() => api.create(d)).code, 422);
  });

  test('merge patches: Strict is 422 on the patch; Warn and Ignore prune; the patch input is not changed', () => {
    const { api } = newApi();
    const live = api.create(deployment('web'));
    const patch = { spec: { paused: true, bogus: 1 } };
    const e = thrown(() => api.patch('deployments', 'default', 'web', 'merge', patch, { fieldValidation: 'Strict' }));
    assert.equal(e.status.code, 422);
    assert.match(
      e.message,
      /^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: unknown field "spec.bogus"$/,
    );
    assert.deepEqual(e.fields, ['spec.bogus']);
    assert.equal(api.get('deployments', 'default', 'web'), live);
    const warnings: string[] = [];
    const patched = api.patch('deployments', 'default', 'web', 'merge', patch, { warn: (w) => warnings.push(w) });
    assert.deepEqual(warnings, ['unknown field "spec.bogus"']);
    assert.equal((patched.spec as { paused?: boolean }).paused, true);
    assert.equal((patched.spec as { bogus?: number }).bogus, undefined);
    assert.deepEqual(patch, { spec: { paused: true, bogus: 1 } });
  });

  test('nulls become what Go decoding makes of them: absent fields, zero map values and list items', () => {
    const { api } = newApi();
    const p = pod('nulls', { labels: { app: 'web' } }) as KubeObject & { spec: Record<string, unknown> };
    (p.metadata.labels as Record<string, unknown>).tier = null;
    p.spec.nodeSelector = { disk: null };
    p.spec.containers = [
      {
        name: 'app',
        image: 'nginx',
        livenessProbe: null,
        args: ['a', null],
        resources: { limits: { cpu: null } },
      },
    ];
    const created = api.create(p);
    assert.deepEqual(created.metadata.labels, { app: 'web', tier: '' });
    assert.deepEqual((created.spec as { nodeSelector: unknown }).nodeSelector, { disk: '' });
    const c = (created.spec as { containers: Record<string, unknown>[] }).containers[0];
    assert.equal('livenessProbe' in c, false);
    assert.deepEqual(c.args, ['a', '']);
    assert.deepEqual((c.resources as { limits: unknown }).limits, { cpu: '0' });
  });

  test('a hole in a list (its only null) is decoded too: the null pass is skipped only for bodies without one', () => {
    const { api } = newApi();
    const p = pod('holes') as KubeObject & { spec: { containers: Record<string, unknown>[] } };
    const args: unknown[] = ['a'];
    args[2] = 'c';
    p.spec.containers = [{ name: 'app', image: 'nginx', args }];
    const created = api.create(p);
    assert.deepEqual((created.spec as { containers: Record<string, unknown>[] }).containers[0].args, ['a', '', 'c']);
    const plain = api.create(pod('plain'));
    assert.deepEqual((plain.spec as { containers: Record<string, unknown>[] }).containers[0].name, 'app');
  });

  test('free-form JSON keeps its nulls', () => {
    const { api } = newApi();
    const revision = api.create({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r', namespace: 'default' },
      revision: 1,
      data: { spec: { replicas: null } },
    } as KubeObject);
    assert.deepEqual(revision.data, { spec: { replicas: null } });
  });
  test('nulls only in some members: each member holding one is decoded, the others are left as sent', () => {
    const { api } = newApi();
    const p = pod('some-nulls') as KubeObject & { spec: Record<string, unknown> };
    p.spec.nodeSelector = { disk: null };
    (p.metadata as Record<string, unknown>).labels = { app: 'web' };
    const created = api.create(p);
    assert.deepEqual((created.spec as { nodeSelector: unknown }).nodeSelector, { disk: '' });
    assert.deepEqual(created.metadata.labels, { app: 'web' });
    // A status write whose nulls are in status only; its stored spec is spread in as a client sends it back.
    const status = {
      ...created,
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null }] },
      metadata: { ...created.metadata, labels: { ...created.metadata.labels, tier: null } },
    } as unknown as KubeObject;
    const written = api.updateStatus(status);
    assert.deepEqual((written.status as { conditions: unknown[] }).conditions, [
      { type: 'PodScheduled', status: 'True', lastProbeTime: null },
    ]);
    assert.equal(written.spec, created.spec);
  });

  test('a status write checks the whole body but keeps only status: unknown fields of spec warned, limits counted', () => {
    const { api } = newApi();
    const live = api.create(deployment('web'));
    const warnings: string[] = [];
    const body = {
      ...live,
      spec: { ...(live.spec as object), replicass: 2 },
      status: { replicas: 1 },
    } as KubeObject;
    const written = api.updateStatus(body, { warn: (w) => warnings.push(w) });
    assert.deepEqual(warnings, ['unknown field "spec.replicass"']);
    assert.deepEqual(written.spec, live.spec);
    assert.deepEqual(written.status, { replicas: 1 });
    assert.equal(
      statusOf(() => api.updateStatus(body, { fieldValidation: 'Strict' })).message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"',
    );
    // The size and depth limits count the members a status write does not keep, frozen (stored) ones included.
    const current = api.get('deployments', 'default', 'web');
    const big = { ...current, spec: { ...(current.spec as object), paused: 'x'.repeat(1_600_000) } } as KubeObject;
    assert.equal(statusOf(() => api.updateStatus(big)).code, 413);
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 120; i++) deep = deep.a = {};
    const nested = { ...current, spec: Object.freeze({ ...(current.spec as object), template: top }) } as KubeObject;
    const e = statusOf(() => api.updateStatus(nested));
    assert.equal(e.code, 400);
    assert.match(e.message, /maximum depth of 100/);
    const again = api.updateStatus({ ...current, status: { replicas: 2 } } as KubeObject);
    assert.deepEqual(again.status, { replicas: 2 });
    assert.equal(api.get('deployments', 'default', 'web').spec, live.spec);
  });
});
