import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { configMap, deployment, eventLog, newApi, pod, statusOf } from '../fixtures';

const edit = <T extends KubeObject>(obj: T, fn: (copy: T) => void): T => {
  const copy = cloneJson(obj);
  fn(copy);
  return copy;
};

describe('update', () => {
  test('a stale resourceVersion is 409 Conflict with the upstream message', () => {
    const { api } = newApi();
    const v1 = api.create(deployment('web'));
    api.update(edit(v1, (d) => ((d.spec as { replicas: number }).replicas = 4)));
    const s = statusOf(() => api.update(edit(v1, (d) => ((d.spec as { replicas: number }).replicas = 5))));
    assert.deepEqual(s, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
      code: 409,
    });
  });

  test('an empty resourceVersion is an unconditional update', () => {
    const { api } = newApi();
    api.create(configMap('c', { a: '1' }));
    const out = api.update({ ...configMap('c', { a: '2' }) });
    assert.deepEqual(out.data, { a: '2' });
  });

  test('a no-op update makes no new resourceVersion and no event', () => {
    const { api } = newApi();
    const created = api.create(configMap('c', { a: '1' }));
    const log = eventLog();
    api.watch('configmaps', { resourceVersion: api.resourceVersion }, log.handler);
    const rv = api.resourceVersion;
    const same = api.update(cloneJson(created));
    assert.equal(same, created);
    assert.equal(api.resourceVersion, rv);
    assert.deepEqual(log.lines(), []);
  });

  test('generation follows spec changes only (and Deployment annotations)', () => {
    const { api } = newApi();
    let d = api.create(deployment('web'));
    d = api.update(edit(d, (x) => (x.metadata.labels = { team: 'a' })));
    assert.equal(d.metadata.generation, 1);
    d = api.update(edit(d, (x) => ((x.spec as { replicas: number }).replicas = 5)));
    assert.equal(d.metadata.generation, 2);
    d = api.update(edit(d, (x) => (x.metadata.annotations = { note: 'hi' })));
    assert.equal(d.metadata.generation, 3);
  });

  test('server-owned metadata cannot be changed by a client', () => {
    const { api } = newApi();
    const c = api.create(configMap('c'));
    const out = api.update(
      edit(c, (x) => {
        x.metadata.creationTimestamp = '2000-01-01T00:00:00Z';
        x.metadata.generation = 99;
        x.data = { changed: 'yes' };
      }),
    );
    assert.equal(out.metadata.creationTimestamp, c.metadata.creationTimestamp);
    assert.equal(out.metadata.generation, undefined);
    assert.equal(out.metadata.uid, c.metadata.uid);
  });

  test('the main resource cannot change status; /status cannot change anything else', () => {
    const { api } = newApi();
    const d = api.create(deployment('web'));
    const a = api.update(
      edit(d, (x) => {
        x.status = { replicas: 9 };
        (x.spec as { replicas: number }).replicas = 2;
      }),
    );
    assert.deepEqual(a.status, {});
    assert.equal((a.spec as { replicas: number }).replicas, 2);
    const b = api.updateStatus(
      edit(a, (x) => {
        x.status = { replicas: 2, observedGeneration: 2 };
        (x.spec as { replicas: number }).replicas = 7;
        x.metadata.labels = { sneaky: 'yes' };
      }),
    );
    assert.deepEqual(b.status, { replicas: 2, observedGeneration: 2 });
    assert.equal((b.spec as { replicas: number }).replicas, 2);
    assert.equal(b.metadata.labels, undefined);
    assert.equal(b.metadata.generation, a.metadata.generation);
    assert.equal(statusOf(() => api.updateStatus(configMap('x'))).code, 404);
  });

  test('update of a missing object is 404; rules that depend on the old object run (immutable selector)', () => {
    const { api } = newApi();
    assert.equal(statusOf(() => api.update(configMap('ghost'))).message, 'configmaps "ghost" not found');
    const d = api.create(deployment('web'));
    const s = statusOf(() =>
      api.update(
        edit(d, (x) => {
          const spec = x.spec as {
            selector: { matchLabels: Record<string, string> };
            template: { metadata: { labels: Record<string, string> } };
          };
          spec.selector.matchLabels = { app: 'other' };
          spec.template.metadata.labels = { app: 'other' };
        }),
      ),
    );
    assert.equal(s.code, 422);
    assert.match(s.message, /spec\.selector: Invalid value: .*field is immutable/);
  });

  test('JSON merge patch and JSON patch apply to the latest object', () => {
    const { api } = newApi();
    api.create(deployment('web'));
    const a = api.patch('deployments', 'default', 'web', 'merge', {
      spec: { replicas: 1 },
      metadata: { labels: { tier: 'front' } },
    });
    assert.equal((a.spec as { replicas: number }).replicas, 1);
    assert.deepEqual(a.metadata.labels, { tier: 'front' });
    const b = api.patch('deployments', 'default', 'web', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 6 },
      { op: 'remove', path: '/metadata/labels/tier' },
    ]);
    assert.equal((b.spec as { replicas: number }).replicas, 6);
    assert.deepEqual(b.metadata.labels, {});
    const stale = statusOf(() =>
      api.patch('deployments', 'default', 'web', 'merge', {
        metadata: { resourceVersion: a.metadata.resourceVersion },
        spec: { replicas: 2 },
      }),
    );
    assert.equal(stale.code, 409);
    const st = api.patch(
      'deployments',
      'default',
      'web',
      'merge',
      { status: { replicas: 6 } },
      { subresource: 'status' },
    );
    assert.deepEqual(st.status, { replicas: 6 });
    assert.equal(statusOf(() => api.patch('deployments', 'default', 'nope', 'merge', {})).code, 404);
  });

  test('adding a finalizer to an object being deleted is forbidden', () => {
    const { api } = newApi();
    api.create({ ...configMap('c'), metadata: { name: 'c', namespace: 'default', finalizers: ['example.com/keep'] } });
    const deleting = api.delete('configmaps', 'default', 'c');
    const s = statusOf(() => api.update(edit(deleting, (x) => x.metadata.finalizers!.push('example.com/more'))));
    assert.equal(s.code, 422);
    assert.equal(
      s.message,
      'ConfigMap "c" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}',
    );
  });

  test('updating a pod spec field is validated against the old object too', () => {
    const { api } = newApi();
    const p = api.create(pod('p'));
    const out = api.update(edit(p, (x) => (x.metadata.labels = { a: 'b' })));
    assert.deepEqual(out.metadata.labels, { a: 'b' });
  });
});

describe('status writes of apps/v1 kinds', () => {
  test('keep annotation changes but not labels or spec, without bumping generation', () => {
    const { api } = newApi();
    const d = api.create(deployment('web'));
    const out = api.updateStatus(
      edit(d, (x) => {
        x.metadata.annotations = { 'deployment.kubernetes.io/revision': '1' };
        x.metadata.labels = { no: 'pe' };
        x.status = { observedGeneration: 1 };
      }),
    );
    assert.deepEqual(out.metadata.annotations, { 'deployment.kubernetes.io/revision': '1' });
    assert.equal(out.metadata.labels, undefined);
    assert.equal(out.metadata.generation, 1);
  });
});
