import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AGGREGATE_INTERVAL_MS,
  COMBINED_PREFIX,
  EventRecorder,
  LruCache,
  MAX_LRU_ENTRIES,
  SPAM_BURST,
} from '../../../sandbox/client/eventRecorder';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { newApi, pod } from '../fixtures';

describe('EventRecorder', () => {
  test('records an Event with the involved object, and counts repeats', () => {
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    rec.record(p, 'Normal', 'Pulled', 'Container image "nginx:1.27" already present on machine');
    clock.advance(10_000);
    rec.record(p, 'Normal', 'Pulled', 'Container image "nginx:1.27" already present on machine');
    rec.record(p, 'Warning', 'BackOff', 'Back-off restarting failed container app in pod web-1_default(x)');
    const events = api.list('events', { namespace: 'default' }).items;
    assert.equal(events.length, 2);
    const pulled = events.find((e) => e.reason === 'Pulled')!;
    const { metadata, ...rest } = pulled;
    assert.match(metadata.name!, /^web-1\.[0-9a-f]+$/);
    assert.deepEqual(rest, {
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'web-1',
        namespace: 'default',
        uid: p.metadata.uid,
        resourceVersion: p.metadata.resourceVersion,
      },
      reason: 'Pulled',
      message: 'Container image "nginx:1.27" already present on machine',
      type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:10Z',
      eventTime: null,
      count: 2,
    });
    const byField = api.list('events', { fieldSelector: 'involvedObject.name=web-1,reason=BackOff' }).items;
    assert.equal(byField.length, 1);
    assert.equal(byField[0].type, 'Warning');
  });

  test('every Event body carries the recorder’s one frozen source; the stored Events have it as written', () => {
    const { api } = newApi();
    const p = api.create(pod('web-1'));
    const sources: unknown[] = [];
    const create = api.create.bind(api);
    api.create = ((obj, options) => {
      if (obj.kind === 'Event') sources.push((obj as { source?: unknown }).source);
      return create(obj, options);
    }) as typeof api.create;
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    rec.record(p, 'Normal', 'Pulling', 'Pulling image "nginx:1.27"');
    rec.record(p, 'Normal', 'Pulled', 'Successfully pulled image "nginx:1.27"');
    assert.equal(sources.length, 2);
    assert.equal(sources[0], sources[1]);
    assert.ok(Object.isFrozen(sources[0]));
    for (const e of api.list('events', { namespace: 'default' }).items)
      assert.deepEqual(e.source, { component: 'kubelet', host: 'node-1' });
    const controller = new EventRecorder(api, { component: 'replicaset-controller' });
    controller.record(p, 'Normal', 'SuccessfulCreate', 'Created pod: web-1');
    assert.deepEqual(sources[2], { component: 'replicaset-controller' });
  });

  test('events for cluster-scoped objects go to the default namespace; failures never throw', () => {
    const { api } = newApi();
    const ns = api.get('namespaces', undefined, 'kube-public');
    const rec = new EventRecorder(api, { component: 'namespace-controller' });
    const ev = rec.record(ns, 'Normal', 'Checked', 'ok');
    assert.equal(ev?.metadata.namespace, 'default');
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } });
    api.delete('namespaces', undefined, 'gone');
    const p = { ...pod('x'), metadata: { name: 'x', namespace: 'gone', uid: 'u' } };
    assert.equal(rec.record(p, 'Normal', 'X', 'y'), undefined);
  });
});

describe('Event expiry (kube-apiserver --event-ttl 1h)', () => {
  test('an Event is deleted an hour after its last write; each write renews the hour', () => {
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    const ev = rec.record(p, 'Normal', 'Pulled', 'pulled')!;
    const seen: string[] = [];
    api.watch('events', { resourceVersion: api.resourceVersion }, (e) => seen.push(`${e.type} ${e.object.count}`));
    clock.advance(30 * 60_000);
    rec.record(p, 'Normal', 'Pulled', 'pulled'); // count 2, a new hour from here
    clock.advance(30 * 60_000 + 1_000);
    assert.equal(api.tryGet('events', 'default', ev.metadata.name!)?.count, 2, 'renewed at 30m: still there at 1h');
    clock.advance(30 * 60_000);
    assert.equal(api.tryGet('events', 'default', ev.metadata.name!), undefined, 'gone an hour after its last write');
    assert.deepEqual(seen, ['MODIFIED 2', 'DELETED 2']);
  });

  test('Events of a restored store expire an hour after the last time they name', () => {
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    const old = rec.record(p, 'Normal', 'Old', 'at 0s')!;
    clock.advance(50 * 60_000);
    const recent = rec.record(p, 'Normal', 'Recent', 'at 50m')!;
    // Restored 20 minutes later (a saved snapshot keeps no leases): the first Event is past its hour.
    const later = new VirtualClock(clock.now() + 20 * 60_000);
    const restored = new ApiServer({ clock: later, random: 2 }, api.objectStore);
    later.advance(0);
    assert.equal(restored.tryGet('events', 'default', old.metadata.name!), undefined, 'past its hour: expired at once');
    assert.ok(restored.tryGet('events', 'default', recent.metadata.name!));
    later.advance(41 * 60_000); // 50m + 1h
    assert.equal(restored.tryGet('events', 'default', recent.metadata.name!), undefined);
  });
});

describe('the event correlator (client-go events_cache.go)', () => {
  test('the same Event again after it expired is written again under its name, its count going on', () => {
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    const first = rec.record(p, 'Warning', 'BackOff', 'back-off')!;
    clock.advance(2 * 60 * 60_000);
    assert.equal(api.tryGet('events', 'default', first.metadata.name!), undefined);
    const again = rec.record(p, 'Warning', 'BackOff', 'back-off')!;
    assert.equal(again.metadata.name, first.metadata.name);
    assert.equal(again.count, 2);
    assert.equal(again.firstTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(again.lastTimestamp, '2026-01-01T02:00:00Z');
  });

  test('10 distinct messages with one reason within 10 minutes: combined into one Event whose count grows', () => {
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    for (let i = 1; i <= 9; i++) {
      rec.record(p, 'Warning', 'Failed', `attempt ${i}`);
      clock.advance(1_000);
    }
    const combined = rec.record(p, 'Warning', 'Failed', 'attempt 10')!;
    assert.equal(combined.message, `${COMBINED_PREFIX}attempt 10`);
    assert.equal(combined.count, 1);
    clock.advance(1_000);
    const next = rec.record(p, 'Warning', 'Failed', 'attempt 11')!;
    assert.equal(next.metadata.name, combined.metadata.name);
    assert.equal(next.count, 2);
    assert.equal(next.message, `${COMBINED_PREFIX}attempt 11`);
    const events = api.list('events', { namespace: 'default' }).items;
    assert.equal(events.length, 10, 'nine single Events and one combined');
    // Another reason is its own series.
    assert.equal(rec.record(p, 'Warning', 'Other', 'x')!.message, 'x');
    // Ten quiet minutes later the series starts over.
    clock.advance(AGGREGATE_INTERVAL_MS + 1_000);
    assert.equal(rec.record(p, 'Warning', 'Failed', 'attempt 12')!.message, 'attempt 12');
  });

  test('one message repeated counts as one distinct message: the tenth distinct one is still the one combined', () => {
    // The aggregator keeps a lone message as itself and makes its set at the second distinct one (issue 16).
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    for (let i = 1; i <= 5; i++) {
      assert.equal(rec.record(p, 'Warning', 'Failed', 'attempt 1')!.count, i);
      clock.advance(1_000);
    }
    for (let i = 2; i <= 9; i++) {
      const e = rec.record(p, 'Warning', 'Failed', `attempt ${i}`)!;
      assert.equal(e.message, `attempt ${i}`);
      clock.advance(1_000);
    }
    assert.equal(rec.record(p, 'Warning', 'Failed', 'attempt 9')!.count, 2, 'a message seen again is not a new one');
    assert.equal(rec.record(p, 'Warning', 'Failed', 'attempt 10')!.message, `${COMBINED_PREFIX}attempt 10`);
  });

  test('spam filter: 25 Events about one object in a burst, then one per 5 minutes', () => {
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const q = api.create(pod('web-2'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    const written = (n: number, obj = p) =>
      Array.from({ length: n }, (_, i) => rec.record(obj, 'Normal', `R${i}`, 'm')).filter((e) => e).length;
    assert.equal(written(SPAM_BURST + 5), SPAM_BURST);
    assert.equal(written(1, q), 1, 'another object has its own bucket');
    assert.equal(rec.record(p, 'Warning', 'W', 'm')?.type, 'Warning', 'another type has its own bucket');
    clock.advance(299_000);
    assert.equal(written(1), 0);
    clock.advance(1_000);
    assert.equal(written(2), 1, 'one token refilled after 5 minutes');
  });

  test('the caches keep the 4,096 most recently used keys', () => {
    const cache = new LruCache<number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    assert.equal(cache.get('a'), 1); // a is now the most recent
    cache.set('d', 4);
    assert.equal(cache.get('b'), undefined, 'the least recently used goes');
    assert.deepEqual([cache.get('a'), cache.get('c'), cache.get('d')], [1, 3, 4]);
    assert.equal(cache.size, 3);
    assert.equal(MAX_LRU_ENTRIES, 4096);
  });

  test('the caches forget keys in least recently used order, whatever the uses (against a model)', () => {
    // The model: a Map whose insertion order is the recency order, each key used re-inserted.
    const op = fc.oneof(
      fc.record({ get: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ set: fc.integer({ min: 0, max: 9 }), value: fc.integer() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(op, { maxLength: 80 }), (capacity, ops) => {
        const cache = new LruCache<number>(capacity);
        const model = new Map<string, number>();
        for (const o of ops) {
          if ('get' in o) {
            const key = `k${o.get}`;
            const want = model.get(key);
            if (want !== undefined) {
              model.delete(key);
              model.set(key, want);
            }
            assert.equal(cache.get(key), want);
          } else {
            const key = `k${o.set}`;
            model.delete(key);
            model.set(key, o.value);
            if (model.size > capacity) model.delete(model.keys().next().value!);
            cache.set(key, o.value);
          }
          assert.equal(cache.size, model.size);
        }
        // What is left, and its order: reading each key, least recent first, finds the model's values.
        for (const [key, value] of [...model]) assert.equal(cache.get(key), value);
        for (let i = 0; i < 10; i++) if (!model.has(`k${i}`)) assert.equal(cache.get(`k${i}`), undefined);
      }),
      { numRuns: 500 },
    );
  });
});
