import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { configMap, deployment, eventLog, newApi, pod, statusOf } from '../fixtures';

const withoutFinalizers = (obj: KubeObject): KubeObject => {
  const copy = cloneJson(obj);
  copy.metadata.finalizers = [];
  return copy;
};

describe('delete', () => {
  test('an object without finalizers goes at once: DELETED with the deletion resourceVersion', () => {
    const { api } = newApi();
    api.create(configMap('c'));
    const log = eventLog();
    api.watch('configmaps', { resourceVersion: api.resourceVersion }, log.handler);
    const last = api.delete('configmaps', 'default', 'c');
    assert.equal(last.metadata.resourceVersion, api.resourceVersion);
    assert.deepEqual(log.lines(), [`DELETED c ${api.resourceVersion}`]);
    assert.equal(statusOf(() => api.get('configmaps', 'default', 'c')).code, 404);
    assert.equal(statusOf(() => api.delete('configmaps', 'default', 'c')).message, 'configmaps "c" not found');
  });

  test('Foreground and Orphan add their finalizers and set deletionTimestamp (MODIFIED)', () => {
    const { api, clock } = newApi();
    api.create(deployment('a'));
    api.create(deployment('b'));
    clock.advance(5000);
    const a = api.delete('deployments', 'default', 'a', { propagationPolicy: 'Foreground' });
    const b = api.delete('deployments', 'default', 'b', { propagationPolicy: 'Orphan' });
    assert.deepEqual(a.metadata.finalizers, ['foregroundDeletion']);
    assert.deepEqual(b.metadata.finalizers, ['orphan']);
    assert.equal(a.metadata.deletionTimestamp, '2026-01-01T00:00:05Z');
    assert.equal(a.metadata.deletionGracePeriodSeconds, 0);
    assert.equal(a.metadata.generation, 2);
    const gone = api.update(withoutFinalizers(a));
    assert.equal(gone.metadata.name, 'a');
    assert.equal(api.tryGet('deployments', 'default', 'a'), undefined);
  });

  test('Jobs are orphaned by default, as upstream', () => {
    const { api } = newApi();
    api.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'default' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    assert.deepEqual(api.delete('jobs', 'default', 'j').metadata.finalizers, ['orphan']);
  });

  test('a scheduled pod terminates gracefully; an unscheduled one goes at once', () => {
    const { api } = newApi();
    api.create(pod('pending'));
    api.create({ ...pod('running', { nodeName: 'node-1' }) });
    api.delete('pods', 'default', 'pending');
    assert.equal(api.tryGet('pods', 'default', 'pending'), undefined);
    const t = api.delete('pods', 'default', 'running');
    assert.equal(t.metadata.deletionGracePeriodSeconds, 30);
    assert.equal(t.metadata.deletionTimestamp, '2026-01-01T00:00:30Z');
    const again = api.delete('pods', 'default', 'running');
    assert.equal(again, t, 'a second delete without a shorter grace period changes nothing');
    const shorter = api.delete('pods', 'default', 'running', { gracePeriodSeconds: 10 });
    assert.equal(shorter.metadata.deletionGracePeriodSeconds, 10);
    api.delete('pods', 'default', 'running', { gracePeriodSeconds: 0 });
    assert.equal(api.tryGet('pods', 'default', 'running'), undefined);
  });

  test('the request grace period overrides terminationGracePeriodSeconds', () => {
    const { api } = newApi();
    api.create(pod('p', { nodeName: 'n' }));
    assert.equal(api.delete('pods', 'default', 'p', { gracePeriodSeconds: 5 }).metadata.deletionGracePeriodSeconds, 5);
  });

  test('removing the last finalizer completes the deletion', () => {
    const { api } = newApi();
    api.create({ ...configMap('c'), metadata: { name: 'c', namespace: 'default', finalizers: ['example.com/hold'] } });
    const t = api.delete('configmaps', 'default', 'c');
    assert.ok(t.metadata.deletionTimestamp);
    assert.ok(api.tryGet('configmaps', 'default', 'c'));
    api.update(withoutFinalizers(t));
    assert.equal(api.tryGet('configmaps', 'default', 'c'), undefined);
  });

  test('preconditions on uid and resourceVersion', () => {
    const { api } = newApi();
    const c = api.create(configMap('c'));
    const s = statusOf(() => api.delete('configmaps', 'default', 'c', { preconditions: { uid: 'nope' } }));
    assert.equal(s.code, 409);
    assert.equal(
      s.message,
      `Operation cannot be fulfilled on configmaps "c": Precondition failed: UID in precondition: nope, UID in object meta: ${c.metadata.uid}`,
    );
    api.delete('configmaps', 'default', 'c', {
      preconditions: { uid: c.metadata.uid, resourceVersion: c.metadata.resourceVersion },
    });
  });

  test('dryRun deletes nothing', () => {
    const { api } = newApi();
    api.create(configMap('c'));
    const rv = api.resourceVersion;
    api.delete('configmaps', 'default', 'c', { dryRun: true });
    assert.equal(api.resourceVersion, rv);
    assert.ok(api.tryGet('configmaps', 'default', 'c'));
  });

  test('namespaces: Terminating until finalized; the system ones cannot be deleted', () => {
    const { api } = newApi();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    const t = api.delete('namespaces', undefined, 'team');
    assert.deepEqual(t.status, { phase: 'Terminating' });
    assert.deepEqual(t.spec, { finalizers: ['kubernetes'] });
    assert.ok(t.metadata.deletionTimestamp);
    api.finalizeNamespace('team', []);
    assert.equal(api.tryGet('namespaces', undefined, 'team'), undefined);
    const s = statusOf(() => api.delete('namespaces', undefined, 'default'));
    assert.equal(s.code, 403);
    assert.equal(s.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
  });
});
