import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../sandbox/api/types';
import { LAST_APPLIED, applyManifest } from '../../../../sandbox/operations/apply/apply';
import { eventLog, newApi, statusOf } from '../../fixtures';

type Spec = {
  replicas?: number;
  paused?: boolean;
  template: { spec: { containers: { name: string; image: string }[] } };
};
const spec = (o: KubeObject) => o.spec as Spec;
const containers = (o: KubeObject) => spec(o).template.spec.containers.map((c) => `${c.name}=${c.image}`);

/** A Deployment manifest as a user applies it (no status, no server fields). */
function web(replicas = 2, image = 'nginx:1.27', extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
      ...extra,
    },
  };
}

/** Only what a second tool applies: a sidecar container. */
function sidecar(image = 'envoy:1'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { template: { spec: { containers: [{ name: 'sidecar', image }] } } },
  };
}

describe('server-side apply', () => {
  test('creates the object when absent, owned by the applier (managedFields as upstream writes them)', () => {
    const { api, clock } = newApi();
    clock.advance(90_000);
    const { object, created } = api.apply('deployments', 'default', 'web', web(), { fieldManager: 'kubectl' });
    assert.equal(created, true);
    assert.equal(api.get('deployments', 'default', 'web').metadata.uid, object.metadata.uid);
    assert.equal(spec(object).replicas, 2);
    assert.deepEqual(object.metadata.managedFields, [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: '2026-01-01T00:01:30Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
            },
          },
        },
      },
    ]);
  });

  test('re-applying without a field removes it; applying the same again changes nothing', () => {
    const { api, clock } = newApi();
    api.apply('deployments', 'default', 'web', web(2, 'nginx:1.27', { paused: true }), { fieldManager: 'kubectl' });
    const second = api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'kubectl' }).object;
    assert.equal(spec(second).paused, undefined);
    assert.equal(second.metadata.generation, 2);

    const log = eventLog();
    api.watch('deployments', { resourceVersion: api.resourceVersion }, log.handler);
    clock.advance(60_000);
    const third = api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'kubectl' });
    assert.equal(third.created, false);
    assert.equal(third.object.metadata.resourceVersion, second.metadata.resourceVersion);
    assert.deepEqual(log.lines(), []);
  });

  test('changing a field another applier set is a 409 with upstream’s message and one cause per field; nothing is written', () => {
    const { api } = newApi();
    api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'alice' });
    const rv = api.resourceVersion;
    const one = statusOf(() => api.apply('deployments', 'default', 'web', web(3), { fieldManager: 'bob' }));
    assert.deepEqual(one, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' }],
      },
      code: 409,
    });
    const two = statusOf(() =>
      api.apply('deployments', 'default', 'web', web(3, 'nginx:1.28'), { fieldManager: 'bob' }),
    );
    assert.equal(
      two.message,
      'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.replicas\n- .spec.template.spec.containers[name="web"].image',
    );
    assert.deepEqual(
      two.details?.causes?.map((c) => c.field),
      ['.spec.replicas', '.spec.template.spec.containers[name="web"].image'],
    );
    assert.equal(api.resourceVersion, rv);
    // The same values are no conflict: both managers own them.
    const shared = api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'bob' }).object;
    assert.deepEqual(
      shared.metadata.managedFields?.map((e) => (e as { manager: string }).manager),
      ['alice', 'bob'],
    );
  });

  test('force takes ownership of the conflicting fields', () => {
    const { api } = newApi();
    api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'alice' });
    const out = api.apply(
      'deployments',
      'default',
      'web',
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 5 } },
      { fieldManager: 'bob', force: true },
    ).object;
    assert.equal(spec(out).replicas, 5);
    const byManager = Object.fromEntries(
      out.metadata.managedFields!.map((e) => [
        (e as { manager: string }).manager,
        (e as { fieldsV1: { 'f:spec': Record<string, unknown> } }).fieldsV1,
      ]),
    );
    assert.deepEqual(byManager.bob, { 'f:spec': { 'f:replicas': {} } });
    assert.equal('f:replicas' in byManager.alice['f:spec'], false);
    assert.equal('f:selector' in byManager.alice['f:spec'], true);
    // alice re-applying her old value now conflicts with bob.
    assert.equal(
      statusOf(() => api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'alice' })).message,
      'Apply failed with 1 conflict: conflict with "bob": .spec.replicas',
    );
  });

  test('a client-side manager (Update) conflicts on .spec.replicas, named with its apiVersion', () => {
    const { api } = newApi();
    api.create(web(2), { fieldManager: 'kubectl-client-side-apply' });
    const s = statusOf(() => api.apply('deployments', 'default', 'web', web(3), { fieldManager: 'kubectl' }));
    assert.equal(s.code, 409);
    assert.equal(
      s.message,
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    assert.deepEqual(s.details?.causes, [
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.replicas',
      },
    ]);
    const forced = api.apply('deployments', 'default', 'web', web(3), { fieldManager: 'kubectl', force: true }).object;
    assert.equal(spec(forced).replicas, 3);
  });

  test('kubectl takes over what its client-side apply recorded, but not what others changed since', () => {
    const { api } = newApi();
    applyManifest(api, web(2, 'nginx:1.27'));
    // From the last-applied annotation: replicas 2 still holds, so kubectl may change it.
    const upgraded = api.apply('deployments', 'default', 'web', web(4), { fieldManager: 'kubectl' }).object;
    assert.equal(spec(upgraded).replicas, 4);
    const annotation = upgraded.metadata.annotations?.[LAST_APPLIED];
    assert.equal(JSON.parse(annotation!).spec.replicas, 4);
    assert.ok(!annotation!.includes(' '), 'compact JSON, as upstream writes it');

    api.patch(
      'deployments',
      'default',
      'web',
      'merge',
      { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.29' }] } } } },
      { fieldManager: 'kubectl-edit' },
    );
    const s = statusOf(() =>
      api.apply('deployments', 'default', 'web', web(4, 'nginx:1.30'), { fieldManager: 'kubectl' }),
    );
    assert.equal(
      s.message,
      'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.template.spec.containers[name="web"].image',
    );
  });

  test('after kubectl’s client-side → server-side migration, re-applying keeps maps whose entries are still applied', () => {
    const { api } = newApi();
    const created = api.create(web(2), { fieldManager: 'kubectl-client-side-apply' });
    // kubectl rewrites the client-side entry as its own Apply entry (a JSON patch of managedFields), then applies
    // again.
    const migrated = created.metadata.managedFields!.map((e) => ({
      ...(e as object),
      manager: 'kubectl',
      operation: 'Apply',
    }));
    api.patch(
      'deployments',
      'default',
      'web',
      'json',
      [{ op: 'replace', path: '/metadata/managedFields', value: migrated }],
      { fieldManager: 'kubectl' },
    );
    const out = api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'kubectl' }).object;
    assert.deepEqual((out.spec as { template: { metadata: unknown } }).template.metadata, { labels: { app: 'web' } });
    assert.deepEqual(out.metadata.labels, { app: 'web' });
    // What only the old entry held (defaults) went, and came back as defaults.
    assert.equal((out.spec as { progressDeadlineSeconds: number }).progressDeadlineSeconds, 600);
  });

  test('an object nobody tracked belongs to "before-first-apply" at the first apply', () => {
    const { api } = newApi();
    api.create(web(2));
    const s = statusOf(() => api.apply('deployments', 'default', 'web', web(3), { fieldManager: 'helm' }));
    assert.equal(
      s.message,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    );
    const ok = api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'helm' }).object;
    assert.deepEqual(
      ok.metadata.managedFields?.map(
        (e) => `${(e as { manager: string }).manager}/${(e as { operation: string }).operation}`,
      ),
      ['helm/Apply', 'before-first-apply/Update'],
    );
  });

  test('containers merge by name: another manager’s container stays, and goes when that manager stops applying it', () => {
    const { api } = newApi();
    api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'app-team' });
    const both = api.apply('deployments', 'default', 'web', sidecar(), { fieldManager: 'mesh' }).object;
    assert.deepEqual(containers(both), ['web=nginx:1.27', 'sidecar=envoy:1']);

    const again = api.apply('deployments', 'default', 'web', web(2, 'nginx:1.28'), { fieldManager: 'app-team' }).object;
    assert.deepEqual(containers(again), ['web=nginx:1.28', 'sidecar=envoy:1']);
    const team = again.metadata.managedFields!.find((e) => (e as { manager: string }).manager === 'app-team') as {
      fieldsV1: unknown;
    };
    assert.ok(!JSON.stringify(team.fieldsV1).includes('sidecar'));

    const withoutSidecar = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { mesh: 'on' } },
    };
    const after = api.apply('deployments', 'default', 'web', withoutSidecar, { fieldManager: 'mesh' }).object;
    assert.deepEqual(containers(after), ['web=nginx:1.28']);
    assert.deepEqual(after.metadata.labels, { app: 'web', mesh: 'on' });
  });

  test('a field the applier stops applying stays when an updater owns it too', () => {
    const { api } = newApi();
    api.apply('deployments', 'default', 'web', web(2, 'nginx:1.27', { paused: true }), { fieldManager: 'kubectl' });
    api.patch(
      'deployments',
      'default',
      'web',
      'merge',
      { spec: { paused: false } },
      { fieldManager: 'kubectl-rollout' },
    );
    const out = api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'kubectl' }).object;
    assert.equal(spec(out).paused, false);
  });

  test('dry run computes the result and changes nothing', () => {
    const { api } = newApi();
    const rv = api.resourceVersion;
    const created = api.apply('deployments', 'default', 'web', web(), { fieldManager: 'kubectl', dryRun: true });
    assert.equal(created.created, true);
    assert.equal(created.object.metadata.managedFields?.length, 1);
    assert.equal(api.tryGet('deployments', 'default', 'web'), undefined);
    assert.equal(api.resourceVersion, rv);

    const stored = api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'kubectl' }).object;
    const dry = api.apply('deployments', 'default', 'web', web(7), { fieldManager: 'kubectl', dryRun: true }).object;
    assert.equal(spec(dry).replicas, 7);
    assert.equal(api.get('deployments', 'default', 'web'), stored);
  });

  test('through patch(): the "apply" patch type, with the same results', () => {
    const { api } = newApi();
    const out = api.patch(
      'configmaps',
      'default',
      'settings',
      'apply',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } },
      { fieldManager: 'kubectl' },
    );
    assert.deepEqual(out.data, { a: '1' });
    assert.equal(out.metadata.namespace, 'default');
    assert.deepEqual((out.metadata.managedFields![0] as { fieldsV1: unknown }).fieldsV1, { 'f:data': { 'f:a': {} } });
  });

  test('on /status: owns only status, recorded with subresource "status"', () => {
    const { api } = newApi();
    api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'kubectl' });
    const config = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 9 },
      status: { observedGeneration: 1, replicas: 2 },
    };
    const out = api.apply('deployments', 'default', 'web', config, {
      fieldManager: 'my-controller',
      subresource: 'status',
    }).object;
    assert.equal(spec(out).replicas, 2);
    assert.deepEqual(out.status, { observedGeneration: 1, replicas: 2 });
    const entry = out.metadata.managedFields!.find((e) => (e as { manager: string }).manager === 'my-controller');
    assert.deepEqual(entry, {
      manager: 'my-controller',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } },
      subresource: 'status',
    });
    assert.equal(
      statusOf(() =>
        api.apply(
          'deployments',
          'default',
          'nope',
          { ...config, metadata: { name: 'nope' } },
          { fieldManager: 'x', subresource: 'status' },
        ),
      ).code,
      404,
    );
  });

  test('status in an apply to the main resource is ignored, not owned', () => {
    const { api } = newApi();
    const out = api.apply(
      'deployments',
      'default',
      'web',
      { ...web(), status: { replicas: 5 } },
      { fieldManager: 'kubectl' },
    ).object;
    assert.deepEqual(out.status, {});
    assert.ok(!JSON.stringify(out.metadata.managedFields).includes('f:status'));
  });

  test('rejections worded as upstream: no manager, wrong kind, managedFields, name, unknown fields', () => {
    const { api } = newApi();
    const noManager = statusOf(() => api.apply('deployments', 'default', 'web', web()));
    assert.equal(noManager.code, 422);
    assert.equal(
      noManager.message,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );

    const wrongKind = statusOf(() =>
      api.apply('deployments', 'default', 'web', { ...web(), kind: 'ReplicaSet' }, { fieldManager: 'k' }),
    );
    assert.deepEqual([wrongKind.code, wrongKind.message], [400, 'invalid object type: apps/v1, Kind=ReplicaSet']);
    const core = statusOf(() =>
      api.apply(
        'configmaps',
        'default',
        'c',
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'c' } },
        { fieldManager: 'k' },
      ),
    );
    assert.equal(core.message, 'invalid object type: /v1, Kind=Secret');

    const withFields = { ...web(), metadata: { name: 'web', managedFields: [] } };
    assert.equal(
      statusOf(() => api.apply('deployments', 'default', 'web', withFields, { fieldManager: 'k' })).message,
      'metadata.managedFields must be nil',
    );

    const name = statusOf(() => api.apply('deployments', 'default', 'other', web(), { fieldManager: 'k' }));
    assert.deepEqual(
      [name.code, name.message],
      [400, 'the name of the object (web) does not match the name on the URL (other)'],
    );

    const unknown = statusOf(() =>
      api.apply('deployments', 'default', 'web', web(2, 'x', { replicass: 3 }), { fieldManager: 'k' }),
    );
    assert.deepEqual([unknown.code, unknown.reason], [500, '']);
    assert.equal(
      unknown.message,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replicass: field not declared in schema',
    );

    const noKey = { ...web(), spec: { template: { spec: { containers: [{ image: 'x' }] } } } };
    assert.match(
      statusOf(() => api.apply('deployments', 'default', 'web', noKey, { fieldManager: 'k' })).message,
      /\.spec\.template\.spec\.containers: element 0: associative list with keys has an element that omits key field "name"/,
    );
    assert.equal(api.tryGet('deployments', 'default', 'web'), undefined);
  });

  test('Service ports merge by port and protocol (TCP when omitted); cluster-scoped kinds apply without a namespace', () => {
    const { api } = newApi();
    const svc = (ports: object[]) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { selector: { app: 'web' }, ports },
    });
    const first = api.apply(
      'services',
      'default',
      's',
      svc([
        { name: 'http', port: 80, targetPort: 8080 },
        { name: 'https', port: 443 },
      ]),
      { fieldManager: 'kubectl' },
    ).object;
    const fields = JSON.stringify((first.metadata.managedFields![0] as { fieldsV1: unknown }).fieldsV1);
    assert.ok(fields.includes('"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}"'), fields);
    assert.ok(fields.includes('"f:selector":{}'), 'Service selectors are atomic maps');
    const second = api.apply('services', 'default', 's', svc([{ name: 'http', port: 80, targetPort: 9090 }]), {
      fieldManager: 'kubectl',
    }).object;
    assert.deepEqual((second.spec as { ports: unknown[] }).ports, [
      { name: 'http', port: 80, targetPort: 9090, protocol: 'TCP' },
    ]);
    assert.equal((second.spec as { clusterIP: string }).clusterIP, (first.spec as { clusterIP: string }).clusterIP);

    const ns = api.apply(
      'namespaces',
      undefined,
      'team',
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: { tier: 'dev' } } },
      { fieldManager: 'kubectl' },
    );
    assert.equal(ns.created, true);
    assert.deepEqual(ns.object.metadata.labels, { tier: 'dev', 'kubernetes.io/metadata.name': 'team' });
    assert.deepEqual((ns.object.metadata.managedFields![0] as { fieldsV1: unknown }).fieldsV1, {
      'f:metadata': { 'f:labels': { 'f:tier': {} } },
    });
  });

  test('the merged object still goes through admission: an invalid result is 422 and nothing is stored', () => {
    const { api } = newApi();
    api.apply('deployments', 'default', 'web', web(2), { fieldManager: 'kubectl' });
    const rv = api.resourceVersion;
    const s = statusOf(() => api.apply('deployments', 'default', 'web', web(-1), { fieldManager: 'kubectl' }));
    assert.equal(s.code, 422);
    assert.equal(api.resourceVersion, rv);
  });
});
