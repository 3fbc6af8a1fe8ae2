import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Informer } from '../../../sandbox/client/informer';
import { ObjectCache, objectKey } from '../../../sandbox/client/cache';
import type { KubeObject } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { configMap, newApi, pod } from '../fixtures';

function recorder() {
  const calls: string[] = [];
  return {
    calls,
    handlers: {
      onAdd: (o: KubeObject) => calls.push(`add ${objectKey(o)}`),
      onUpdate: (_old: KubeObject, o: KubeObject) => calls.push(`update ${objectKey(o)}`),
      onDelete: (o: KubeObject) => calls.push(`delete ${objectKey(o)}`),
    },
  };
}

describe('Informer', () => {
  test('lists into the cache, then follows the watch', () => {
    const { api } = newApi();
    api.create(configMap('a'));
    const inf = new Informer(api, 'configmaps');
    const rec = recorder();
    inf.addHandlers(rec.handlers);
    inf.start();
    assert.equal(inf.hasSynced, true);
    const b = api.create(configMap('b'));
    api.update({ ...cloneJson(b), data: { k: 'v' } });
    api.delete('configmaps', 'default', 'a');
    assert.deepEqual(rec.calls, ['add default/a', 'add default/b', 'update default/b', 'delete default/a']);
    assert.deepEqual(
      inf.cache.list().map((o) => o.metadata.name),
      ['b'],
    );
    assert.equal(
      inf.cache.get('default/b')?.data && (inf.cache.get('default/b')!.data as Record<string, string>).k,
      'v',
    );
    assert.equal(inf.lastSyncResourceVersion, api.resourceVersion);
  });

  test('handlers added after sync get the cached objects first', () => {
    const { api } = newApi();
    api.create(configMap('a'));
    const inf = new Informer(api, 'configmaps');
    inf.start();
    const rec = recorder();
    inf.addHandlers(rec.handlers);
    assert.deepEqual(rec.calls, ['add default/a']);
  });

  test('indexes stay current as objects move', () => {
    const { api } = newApi();
    const inf = new Informer(api, 'pods');
    inf.cache.addIndex('node', (p) => [(p.spec as { nodeName?: string }).nodeName ?? '']);
    inf.start();
    api.create(pod('a', { nodeName: 'n1' }));
    api.create(pod('b', { nodeName: 'n1' }));
    api.create(pod('c'));
    assert.deepEqual(
      inf.cache
        .byIndex('node', 'n1')
        .map((p) => p.metadata.name)
        .sort(),
      ['a', 'b'],
    );
    assert.deepEqual(
      inf.cache.byIndex('node', '').map((p) => p.metadata.name),
      ['c'],
    );
    api.delete('pods', 'default', 'a', { gracePeriodSeconds: 0 });
    assert.deepEqual(
      inf.cache.byIndex('node', 'n1').map((p) => p.metadata.name),
      ['b'],
    );
  });

  test('after a 410 the informer re-lists and reports what it missed', () => {
    const { api } = newApi();
    api.create(configMap('a'));
    api.create(configMap('b'));
    const inf = new Informer(api, 'configmaps');
    const rec = recorder();
    inf.addHandlers(rec.handlers);
    inf.start();
    inf.stop();
    api.delete('configmaps', 'default', 'a');
    api.create(configMap('c'));
    api.update({ ...cloneJson(api.get('configmaps', 'default', 'b')), data: { z: '1' } });
    api.compact();
    rec.calls.length = 0;
    inf.start();
    assert.deepEqual(rec.calls.sort(), ['add default/c', 'delete default/a', 'update default/b']);
    api.create(configMap('d'));
    assert.deepEqual(rec.calls.at(-1), 'add default/d');
  });
});

describe('ObjectCache.indexStamp', () => {
  const cm = (name: string, owner: string, rv: string): KubeObject =>
    ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'ns', resourceVersion: rv, labels: { owner } },
    }) as KubeObject;

  test('changes when an object under the value is stored, replaced or removed, never elsewhere, and never repeats', () => {
    const cache = new ObjectCache();
    cache.addIndex('owner', (o) => [o.metadata.labels!.owner]);
    assert.equal(cache.indexStamp('owner', 'a'), 0);
    cache.set(cm('x', 'a', '1'));
    const s1 = cache.indexStamp('owner', 'a');
    assert.notEqual(s1, 0);
    cache.set(cm('y', 'b', '2'));
    assert.equal(cache.indexStamp('owner', 'a'), s1, 'a change under another value');
    cache.set(cm('x', 'a', '3'));
    const s2 = cache.indexStamp('owner', 'a');
    assert.notEqual(s2, s1, 'replaced');
    cache.set(cm('x', 'b', '4'));
    assert.equal(cache.indexStamp('owner', 'a'), 0, 'moved away: nothing under a');
    cache.set(cm('x', 'a', '5'));
    const s3 = cache.indexStamp('owner', 'a');
    assert.ok(s3 !== s1 && s3 !== s2 && s3 !== 0, 'a value emptied and filled again gets a new stamp');
    cache.set(cm('z', 'a', '6'));
    const s4 = cache.indexStamp('owner', 'a');
    cache.delete('ns/z');
    assert.ok(cache.indexStamp('owner', 'a') !== s4 && cache.indexStamp('owner', 'a') !== s3, 'removed');
    assert.throws(() => cache.indexStamp('nope', 'a'), /no index named nope/);
  });
});

describe('ObjectCache indexes across updates', () => {
  const obj = (name: string, labels: Record<string, string>, rv: string): KubeObject =>
    ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'ns', resourceVersion: rv, labels },
    }) as KubeObject;
  const names = (objs: KubeObject[]) => objs.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
  const byLabel = (o: KubeObject) => Object.entries(o.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`);

  test('an update under unchanged values holds the new object, moved last as a remove and add would', () => {
    const cache = new ObjectCache();
    cache.addIndex('label', byLabel);
    cache.set(obj('x', { app: 'a' }, '1'));
    cache.set(obj('y', { app: 'a' }, '2'));
    cache.set(obj('x', { app: 'a' }, '3'));
    assert.deepEqual(names(cache.byIndex('label', 'app=a')), ['y@2', 'x@3']);
    assert.deepEqual(names(cache.list()), ['x@3', 'y@2'], 'list order is first-stored order');
  });

  test('values that change are left and joined; the old object’s values are the ones it was indexed under', () => {
    const cache = new ObjectCache();
    let calls = 0;
    cache.addIndex('label', (o) => (calls++, byLabel(o)));
    cache.set(obj('x', { app: 'a', tier: 'web' }, '1'));
    cache.set(obj('x', { app: 'a', tier: 'db' }, '2'));
    assert.equal(calls, 2, 'the index function runs once per stored object, not again for the one replaced');
    assert.deepEqual(names(cache.byIndex('label', 'tier=web')), []);
    assert.deepEqual(names(cache.byIndex('label', 'tier=db')), ['x@2']);
    assert.deepEqual(names(cache.byIndex('label', 'app=a')), ['x@2']);
    cache.set(obj('x', {}, '3'));
    assert.deepEqual(names(cache.byIndex('label', 'app=a')), []);
    assert.equal(cache.indexStamp('label', 'app=a'), 0);
    cache.delete('ns/x');
    assert.equal(cache.size, 0);
  });

  test('an index added later covers the objects already stored and their later updates and removals', () => {
    const cache = new ObjectCache();
    cache.addIndex('label', byLabel);
    cache.set(obj('x', { app: 'a' }, '1'));
    cache.set(obj('y', { app: 'b' }, '2'));
    cache.addIndex('name', (o) => [o.metadata.name!]);
    cache.set(obj('x', { app: 'b' }, '3'));
    assert.deepEqual(names(cache.byIndex('name', 'x')), ['x@3']);
    assert.deepEqual(names(cache.byIndex('label', 'app=b')), ['y@2', 'x@3']);
    cache.delete('ns/y');
    assert.deepEqual(names(cache.byIndex('name', 'y')), []);
    assert.deepEqual(names(cache.byIndex('label', 'app=b')), ['x@3']);
  });
});
