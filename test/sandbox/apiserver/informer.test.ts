import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Informer } from '../../../sandbox/client/informer';
import { ObjectCache, objectKey } from '../../../sandbox/client/cache';
import type { KubeObject } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { SeededRandom } from '../../../sandbox/clock/random';
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

  test('an index name already taken is refused (client-go: indexer conflict), the index kept as it was', () => {
    const cache = new ObjectCache();
    cache.addIndex('label', byLabel);
    cache.set(obj('x', { app: 'a' }, '1'));
    assert.throws(
      () => cache.addIndex('label', (o) => [o.metadata.name!]),
      /^Error: indexer conflict: map\[label:\{\}\]$/,
    );
    cache.set(obj('x', { app: 'a' }, '2'));
    assert.deepEqual(names(cache.byIndex('label', 'app=a')), ['x@2']);
    assert.deepEqual(names(cache.byIndex('label', 'x')), []);
  });

  test('objects of the same name in other namespaces, and cluster-scoped ones, are kept apart by key', () => {
    const cache = new ObjectCache();
    const node = (name: string, rv: string) =>
      ({ apiVersion: 'v1', kind: 'Node', metadata: { name, resourceVersion: rv } }) as KubeObject;
    const inNs = (namespace: string, name: string, rv: string) =>
      ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, resourceVersion: rv } }) as KubeObject;
    assert.equal(cache.set(node('x', '1')), undefined);
    assert.equal(cache.set(inNs('a', 'x', '2')), undefined);
    assert.equal(cache.set(inNs('b', 'x', '3')), undefined);
    assert.equal(cache.set(node('x', '4'))?.metadata.resourceVersion, '1', 'an update returns the object replaced');
    assert.equal(cache.set(inNs('', 'x', '5'))?.metadata.resourceVersion, '4', "namespace '' is cluster-scoped");
    assert.deepEqual(cache.keys(), ['x', 'a/x', 'b/x']);
    assert.equal(cache.delete('a/x')?.metadata.resourceVersion, '2');
    assert.equal(cache.get('b/x')?.metadata.resourceVersion, '3');
    assert.equal(cache.set(inNs('a', 'x', '6')), undefined, 'stored again after its removal: an add');
    assert.equal(cache.delete('x')?.metadata.resourceVersion, '5');
    assert.equal(cache.set(node('x', '7')), undefined);
    assert.deepEqual(
      cache.list().map((o) => o.metadata.resourceVersion),
      ['3', '6', '7'],
    );
  });

  test('a value listed twice is held once, and emptied once when the object leaves it', () => {
    const cache = new ObjectCache();
    cache.addIndex('twice', (o) => [o.metadata.labels!.app, o.metadata.labels!.app]);
    cache.set(obj('x', { app: 'a' }, '1'));
    cache.set(obj('y', { app: 'a' }, '2'));
    cache.set(obj('x', { app: 'a' }, '3'));
    assert.deepEqual(names(cache.byIndex('twice', 'a')), ['y@2', 'x@3']);
    cache.set(obj('x', { app: 'b' }, '4'));
    cache.delete('ns/y');
    assert.deepEqual(names(cache.byIndex('twice', 'a')), []);
    assert.equal(cache.indexStamp('twice', 'a'), 0);
    cache.set(obj('y', { app: 'a' }, '5'));
    assert.deepEqual(names(cache.byIndex('twice', 'a')), ['y@5']);
    assert.deepEqual(names(cache.byIndex('twice', 'b')), ['x@4']);
  });
});

/**
 * The cache against a plain model of its contract: an object's index values' entries in the order they were placed
 * (an update moves the object last under each of its values, as removing and adding it would), `list()` in
 * first-stored order, stamps that change whenever a value's objects change and are 0 while nothing is under it.
 */
describe('ObjectCache against a model (random operations)', () => {
  type Model = {
    items: Map<string, KubeObject>;
    indexes: Map<string, { fn: (o: KubeObject) => readonly string[]; values: Map<string, Map<string, KubeObject>> }>;
  };
  const place = (values: Map<string, Map<string, KubeObject>>, v: string, key: string, o: KubeObject) => {
    let objs = values.get(v);
    if (!objs) values.set(v, (objs = new Map()));
    objs.delete(key);
    objs.set(key, o);
  };
  const unplace = (values: Map<string, Map<string, KubeObject>>, v: string, key: string) => {
    values.get(v)?.delete(key);
    if (values.get(v)?.size === 0) values.delete(v);
  };
  const modelSet = (m: Model, o: KubeObject) => {
    const key = objectKey(o);
    const old = m.items.get(key);
    m.items.set(key, o);
    for (const { fn, values } of m.indexes.values()) {
      if (old) for (const v of fn(old)) unplace(values, v, key);
      for (const v of fn(o)) place(values, v, key, o);
    }
  };
  const modelDelete = (m: Model, key: string) => {
    const old = m.items.get(key);
    if (!old) return;
    for (const { fn, values } of m.indexes.values()) for (const v of fn(old)) unplace(values, v, key);
    m.items.delete(key);
  };

  const LABELS = ['a', 'b', 'c'];
  const fns: Record<string, (o: KubeObject) => readonly string[]> = {
    label: (o) => Object.entries(o.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`),
    first: (o) => [o.metadata.labels?.app ?? 'none'],
    // A value returned twice, and objects under no value.
    twice: (o) => (o.metadata.labels?.tier ? [o.metadata.labels.tier, o.metadata.labels.tier] : []),
  };

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    test(`seed ${seed}: byIndex order, list order, stamps and get agree with the model`, () => {
      const r = new SeededRandom(`cache-model/${seed}`);
      const cache = new ObjectCache();
      const model: Model = { items: new Map(), indexes: new Map() };
      const pending = Object.keys(fns);
      const addIndex = () => {
        const name = pending.shift()!;
        cache.addIndex(name, fns[name]);
        const values = new Map<string, Map<string, KubeObject>>();
        for (const [key, o] of model.items) for (const v of fns[name](o)) place(values, v, key, o);
        model.indexes.set(name, { fn: fns[name], values });
      };
      if (seed % 2 === 0) addIndex();
      let rv = 0;
      const probes = () => {
        const out: [string, string][] = [];
        for (const name of model.indexes.keys())
          for (const v of [...LABELS.map((l) => `app=${l}`), ...LABELS.map((l) => `tier=${l}`), ...LABELS, 'none'])
            out.push([name, v]);
        return out;
      };
      for (let step = 0; step < 600; step++) {
        const before = new Map(probes().map(([n, v]) => [`${n} ${v}`, cache.indexStamp(n, v)]));
        const contents = (n: string, v: string) =>
          [...(model.indexes.get(n)!.values.get(v)?.values() ?? [])].map((o) => o.metadata.resourceVersion).join();
        const was = new Map(probes().map(([n, v]) => [`${n} ${v}`, contents(n, v)]));
        const op = r.int(20);
        const name = `o${r.int(12)}`;
        if (op === 0 && pending.length > 0) addIndex();
        else if (op < 4) {
          modelDelete(model, `ns/${name}`);
          cache.delete(`ns/${name}`);
        } else {
          const labels: Record<string, string> = {};
          if (r.int(3) > 0) labels.app = LABELS[r.int(3)];
          if (r.int(2) > 0) labels.tier = LABELS[r.int(3)];
          const o = {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name, namespace: 'ns', resourceVersion: String(++rv), labels },
          } as KubeObject;
          modelSet(model, o);
          cache.set(o);
        }
        for (const [n, v] of probes()) {
          const stamp = cache.indexStamp(n, v);
          const now = contents(n, v);
          assert.equal(stamp === 0, now === '', `seed ${seed} step ${step}: stamp of ${n} ${v} is 0 iff empty`);
          if (before.has(`${n} ${v}`) && now !== was.get(`${n} ${v}`))
            assert.notEqual(stamp, before.get(`${n} ${v}`), `seed ${seed} step ${step}: ${n} ${v} changed`);
          // Read only some buckets at some steps, so that several writes fall between two reads.
          if (r.int(4) === 0)
            assert.deepEqual(
              cache.byIndex(n, v).map((o) => o.metadata.resourceVersion),
              now === '' ? [] : now.split(','),
              `seed ${seed} step ${step}: byIndex(${n}, ${v})`,
            );
        }
        assert.deepEqual(
          cache.list().map((o) => o.metadata.resourceVersion),
          [...model.items.values()].map((o) => o.metadata.resourceVersion),
        );
        assert.equal(cache.get(`ns/${name}`), model.items.get(`ns/${name}`));
      }
      assert.ok(model.indexes.size > 0);
    });
  }
});

describe('ObjectCache.getByName and keyOf', () => {
  // `getByName(ns, name)` answers what `get` of the joined key answered; `keyOf(obj)` is `objectKey(obj)`'s text (the
  // cache's own string for it while an object of that name is cached: not observable from here, only its text is).
  const names = ['a', 'b', 'a/b', ''];
  const namespaces = ['', 'ns', 'other', 'ns/x'];
  for (const seed of [1, 2, 3, 4]) {
    test(`seed ${seed}: agree with get(objectKey) and objectKey through stores and removals`, () => {
      const r = new SeededRandom(`cache-byname/${seed}`);
      const cache = new ObjectCache();
      let rv = 0;
      const make = (namespace: string, name: string): KubeObject =>
        ({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: namespace
            ? { name, namespace, resourceVersion: String(++rv) }
            : { name, resourceVersion: String(++rv) },
        }) as KubeObject;
      for (let step = 0; step < 400; step++) {
        const namespace = namespaces[r.int(namespaces.length)];
        const name = names[r.int(names.length)];
        const o = make(namespace, name);
        if (r.int(3) === 0) cache.delete(objectKey(o));
        else cache.set(o);
        for (const ns of namespaces)
          for (const n of names) {
            const probe = make(ns, n);
            const key = objectKey(probe);
            assert.equal(cache.getByName(ns, n), cache.get(key), `step ${step}: getByName(${ns}, ${n})`);
            const got = cache.keyOf(probe);
            assert.equal(got, key, `step ${step}: keyOf ${key}`);
          }
      }
    });
  }

  test('an object whose namespace is an empty string is keyed as a cluster-scoped one', () => {
    const cache = new ObjectCache();
    const o = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', namespace: '' } } as KubeObject;
    cache.set(o);
    assert.equal(cache.getByName('', 'n1'), o);
    assert.equal(cache.keyOf(o), 'n1');
    assert.equal(cache.getByName('n1', ''), undefined);
  });
});
