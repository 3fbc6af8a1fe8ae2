import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue, KubeObject } from '../../../../sandbox/api/types';
import { cloneJson } from '../../../../sandbox/util/json';
import { configMap, deployment, eventLog, newApi, pod, statusOf } from '../../fixtures';

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}
const entries = (o: KubeObject) => (o.metadata.managedFields ?? []) as unknown as Entry[];
const entry = (o: KubeObject, manager: string) => entries(o).find((e) => e.manager === manager);
const edit = <T extends KubeObject>(obj: T, fn: (copy: T) => void): T => {
  const copy = cloneJson(obj);
  fn(copy);
  return copy;
};

describe('managedFields on writes with a fieldManager (operation Update)', () => {
  test('a create owns what it set, defaults included, with the clock’s time and the apiVersion; server fields never', () => {
    const { api, clock } = newApi();
    clock.advance(5_000);
    const out = api.create(deployment('web', 2), { fieldManager: 'kubectl-create' });
    const e = entry(out, 'kubectl-create')!;
    assert.deepEqual(
      [e.operation, e.apiVersion, e.time, e.fieldsType, e.subresource],
      ['Update', 'apps/v1', '2026-01-01T00:00:05Z', 'FieldsV1', undefined],
    );
    const spec = e.fieldsV1['f:spec'] as Record<string, Record<string, unknown>>;
    assert.equal('.' in spec, false, 'spec exists in the empty object: not owned as a whole');
    assert.deepEqual(spec['f:strategy'], {
      'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
      'f:type': {},
    });
    assert.deepEqual(spec['f:selector'], {});
    const podSpec = (spec['f:template'] as Record<string, Record<string, Record<string, unknown>>>)['f:spec'];
    assert.deepEqual(Object.keys(podSpec['f:containers']), ['k:{"name":"app"}']);
    assert.ok('f:terminationMessagePath' in (podSpec['f:containers']['k:{"name":"app"}'] as object));
    assert.equal(e.fieldsV1['f:metadata'], undefined, 'name and namespace are never owned');
    assert.equal(JSON.stringify(e.fieldsV1).includes('f:status'), false);
  });

  test('an update moves the fields it changed to its manager; a removal leaves every manager', () => {
    const { api, clock } = newApi();
    const created = api.create(configMap('c', { a: '1', b: '2' }), { fieldManager: 'kubectl-create' });
    clock.advance(10_000);
    const out = api.update(
      edit(created, (c) => ((c.data as Record<string, string>) = { a: '9', c: '3' })),
      { fieldManager: 'kubectl-edit' },
    );
    assert.deepEqual(out.metadata.managedFields, [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': {} },
      },
      {
        manager: 'kubectl-edit',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T00:00:10Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {}, 'f:c': {} } },
      },
    ]);
  });

  test('patches of every type record their manager', () => {
    const { api } = newApi();
    api.create(configMap('c', { a: '1' }), { fieldManager: 'kubectl-create' });
    api.patch('configmaps', 'default', 'c', 'merge', { data: { m: '1' } }, { fieldManager: 'merger' });
    api.patch('configmaps', 'default', 'c', 'json', [{ op: 'add', path: '/data/j', value: '1' }], {
      fieldManager: 'jsonpatcher',
    });
    const out = api.get('configmaps', 'default', 'c');
    assert.deepEqual(entry(out, 'merger')?.fieldsV1, { 'f:data': { 'f:m': {} } });
    assert.deepEqual(entry(out, 'jsonpatcher')?.fieldsV1, { 'f:data': { 'f:j': {} } });
  });

  test('a /status write with a manager owns status fields, with subresource "status"; its spec changes are dropped', () => {
    const { api } = newApi();
    const created = api.create(deployment('web', 2), { fieldManager: 'kubectl-create' });
    const out = api.updateStatus(
      edit(created, (d) => {
        d.status = { replicas: 2, readyReplicas: 1 };
        (d.spec as { replicas: number }).replicas = 7;
      }),
      { fieldManager: 'my-controller' },
    );
    assert.equal((out.spec as { replicas: number }).replicas, 2);
    assert.deepEqual(entry(out, 'my-controller'), {
      manager: 'my-controller',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } },
      subresource: 'status',
    });
    const viaPatch = api.patch(
      'deployments',
      'default',
      'web',
      'merge',
      { status: { availableReplicas: 1 } },
      { fieldManager: 'other', subresource: 'status' },
    );
    assert.deepEqual(entry(viaPatch, 'other')?.subresource, 'status');
    assert.deepEqual(entry(viaPatch, 'other')?.fieldsV1, { 'f:status': { 'f:availableReplicas': {} } });
  });

  test('writes without a fieldManager (the sandbox’s own components) leave managedFields as they are', () => {
    const { api, clock } = newApi();
    const created = api.create(deployment('web', 2), { fieldManager: 'kubectl-create' });
    const before = created.metadata.managedFields;
    clock.advance(30_000);
    const updated = api.update(edit(created, (d) => ((d.spec as { replicas: number }).replicas = 3)));
    assert.equal(updated.metadata.managedFields, before);
    const status = api.updateStatus(edit(updated, (d) => (d.status = { replicas: 3 })));
    assert.equal(status.metadata.managedFields, before);
    // A body without managedFields keeps the live ones (clients that do not know them cannot drop them).
    const noFields = edit(status, (d) => {
      delete d.metadata.managedFields;
      (d.spec as { replicas: number }).replicas = 4;
    });
    assert.equal(api.update(noFields).metadata.managedFields, before);
  });

  test('an existing object without managedFields stays untracked by updates (upstream tracks from create or the first apply)', () => {
    const { api } = newApi();
    const created = api.create(configMap('c', { a: '1' }));
    const out = api.update(
      edit(created, (c) => ((c.data as Record<string, string>).a = '2')),
      { fieldManager: 'kubectl-edit' },
    );
    assert.equal(out.metadata.managedFields, undefined);
  });

  test('a no-op write with a manager makes no new resourceVersion even when time has passed', () => {
    const { api, clock } = newApi();
    const created = api.create(configMap('c', { a: '1' }), { fieldManager: 'kubectl-create' });
    const log = eventLog();
    api.watch('configmaps', { resourceVersion: api.resourceVersion }, log.handler);
    clock.advance(60_000);
    const same = api.update(cloneJson(created), { fieldManager: 'kubectl-edit' });
    assert.equal(same, created);
    assert.deepEqual(log.lines(), []);
  });

  test('more than ten updaters: the oldest merge into "ancient-changes"', () => {
    const { api, clock } = newApi();
    let cm = api.create(configMap('c', { k0: '0' }), { fieldManager: 'm00' });
    for (let i = 1; i <= 11; i++) {
      clock.advance(1_000);
      cm = api.patch(
        'configmaps',
        'default',
        'c',
        'merge',
        { data: { [`k${i}`]: String(i) } },
        { fieldManager: `m${String(i).padStart(2, '0')}` },
      );
    }
    const names = entries(cm).map((e) => e.manager);
    assert.equal(names.length, 10);
    assert.deepEqual(names.slice(0, 2), ['ancient-changes', 'm03']);
    assert.deepEqual(entries(cm)[0].fieldsV1, { 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } });
    assert.equal(entries(cm)[0].time, '2026-01-01T00:00:02Z');
  });
});

describe('managedFields set explicitly in a body', () => {
  const valid: JsonValue[] = [
    {
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'v1',
      time: '2025-12-31T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:a': {} } },
    },
  ];

  test('are taken as given (kubectl’s client-side to server-side upgrade replaces them with a JSON patch)', () => {
    const { api } = newApi();
    api.create(configMap('c', { a: '1' }), { fieldManager: 'kubectl-client-side-apply' });
    const out = api.patch(
      'configmaps',
      'default',
      'c',
      'json',
      [{ op: 'replace', path: '/metadata/managedFields', value: valid }],
      { fieldManager: 'kubectl' },
    );
    assert.deepEqual(out.metadata.managedFields, valid);
    // ... and the next apply by kubectl is a no-conflict re-apply.
    assert.deepEqual(
      api.apply(
        'configmaps',
        'default',
        'c',
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '2' } },
        { fieldManager: 'kubectl' },
      ).object.data,
      { a: '2' },
    );
  });

  test('[] clears them, with or without a manager', () => {
    const { api } = newApi();
    const created = api.create(configMap('c', { a: '1' }), { fieldManager: 'kubectl-create' });
    const cleared = api.update(edit(created, (c) => (c.metadata.managedFields = [])));
    assert.equal(cleared.metadata.managedFields, undefined);
    const again = api.create(configMap('d', { a: '1' }), { fieldManager: 'kubectl-create' });
    const viaPatch = api.patch(
      'configmaps',
      'default',
      'd',
      'merge',
      { metadata: { managedFields: [] } },
      { fieldManager: 'kubectl-patch' },
    );
    assert.ok(again.metadata.managedFields);
    assert.equal(viaPatch.metadata.managedFields, undefined);
  });

  test('entries upstream cannot decode are ignored (the live ones stay); a body of the wrong shape is 400', () => {
    const { api } = newApi();
    const created = api.create(configMap('c', { a: '1' }), { fieldManager: 'kubectl-create' });
    const bad = [{ manager: 'x', operation: 'Replace', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    const out = api.update(
      edit(created, (c) => ((c.metadata.managedFields = bad), ((c.data as Record<string, string>).a = '2'))),
    );
    assert.deepEqual(out.metadata.managedFields, created.metadata.managedFields);
    const wrongType = statusOf(() =>
      api.update(edit(created, (c) => (c.metadata.managedFields = 'x' as unknown as JsonValue[]))),
    );
    assert.deepEqual(
      [wrongType.code, wrongType.message],
      [
        400,
        'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.managedFields of type []v1.ManagedFieldsEntry',
      ],
    );
    const badTime = [
      { manager: 'x', operation: 'Update', apiVersion: 'v1', time: 'yesterday', fieldsType: 'FieldsV1' },
    ];
    assert.equal(statusOf(() => api.create(edit(pod('p'), (p) => (p.metadata.managedFields = badTime)))).code, 400);
  });
});
