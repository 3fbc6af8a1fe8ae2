import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyManifest, LAST_APPLIED } from '../../../sandbox/operations/apply/apply';
import { canonicalJson, threeWayMergePatch } from '../../../sandbox/operations/apply/threeWayMerge';
import { cloneJson } from '../../../sandbox/util/json';
import { configMap, deployment, newApi, statusOf } from '../fixtures';

describe('threeWayMergePatch', () => {
  test('deletes what the manifest dropped, sets what it changed, keeps what others added', () => {
    const last = { metadata: { labels: { a: '1', gone: 'x' } }, spec: { replicas: 3, paused: false } };
    const desired = { metadata: { labels: { a: '2' } }, spec: { replicas: 3 } };
    const live = {
      metadata: { labels: { a: '1', gone: 'x', added: 'by-someone' } },
      spec: { replicas: 5, paused: false, progressDeadlineSeconds: 600 },
    };
    assert.deepEqual(threeWayMergePatch(last, desired, live), {
      metadata: { labels: { gone: null, a: '2' } },
      spec: { paused: null, replicas: 3 },
    });
  });

  test('nothing to do gives {}', () => {
    const m = { spec: { a: [1, 2] } };
    assert.deepEqual(threeWayMergePatch(m, m, { spec: { a: [1, 2], defaulted: true } }), {});
  });

  test('canonical JSON sorts keys at every level', () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }),
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });
});

describe('applyManifest', () => {
  test('created, unchanged, configured — like kubectl apply', () => {
    const { api } = newApi();
    const first = applyManifest(api, deployment('web', 3));
    assert.equal(first.message, 'deployment.apps/web created');
    assert.equal(first.object.metadata.annotations?.[LAST_APPLIED], `${canonicalJson(deployment('web', 3))}\n`);
    assert.equal(applyManifest(api, deployment('web', 3)).message, 'deployment.apps/web unchanged');
    const changed = applyManifest(api, deployment('web', 5));
    assert.equal(changed.message, 'deployment.apps/web configured');
    assert.equal((changed.object.spec as { replicas: number }).replicas, 5);
    assert.equal(changed.object.metadata.generation, 2);
  });

  test('a field someone else changed is put back only when the manifest sets it', () => {
    const { api } = newApi();
    applyManifest(api, configMap('c', { a: '1' }));
    const live = cloneJson(api.get('configmaps', 'default', 'c'));
    live.data = { a: 'hand-edited', extra: 'kept' };
    live.metadata.labels = { owner: 'ops' };
    api.update(live);
    const out = applyManifest(api, configMap('c', { a: '1' }));
    assert.equal(out.action, 'configured');
    assert.deepEqual(out.object.data, { a: '1', extra: 'kept' });
    assert.deepEqual(out.object.metadata.labels, { owner: 'ops' });
  });

  test('fields removed from the manifest are removed from the object', () => {
    const { api } = newApi();
    applyManifest(api, configMap('c', { a: '1', b: '2' }));
    const out = applyManifest(api, configMap('c', { a: '1' }));
    assert.deepEqual(out.object.data, { a: '1' });
  });

  test('a rejected manifest throws the API error and changes nothing', () => {
    const { api } = newApi();
    applyManifest(api, deployment('web', 3));
    const rv = api.resourceVersion;
    const bad = deployment('web', 3);
    (bad.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels = {
      app: 'other',
    };
    assert.equal(statusOf(() => applyManifest(api, bad)).code, 422);
    assert.equal(api.resourceVersion, rv);
  });
});
