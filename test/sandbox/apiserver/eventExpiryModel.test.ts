// Event leases as parallel arrays (issue 16) against a model of the queue of lease objects they replaced: the same
// random writes, deletes and pauses must remove the same Events at the same times.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EventExpiry } from '../../../sandbox/apiserver/eventExpiry';
import { ObjectStore } from '../../../sandbox/store/objectStore';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';

const KINDS = ['/Event', 'events.k8s.io/Event'];
const NAMESPACES = ['default', 'kube-system'];
const TTL = 60_000;

type Op = { write: number; kind: number; ago: number } | { remove: number; kind: number } | { pause: number };

/** Replays `ops` on an EventExpiry and on the model, comparing the stored Events and the pending leases each step. */
function replay(ops: Op[]): void {
  const clock = new VirtualClock();
  const store = new ObjectStore();
  const expiry = new EventExpiry(clock, store, TTL);
  // The model: one lease object per write, in write order; at each deadline the Event goes if unchanged since.
  const queue: { at: number; kindKey: string; namespace: string; name: string; resourceVersion: string }[] = [];
  const model = new Map<string, string>();
  const id = (kindKey: string, namespace: string, name: string): string => `${kindKey} ${namespace}/${name}`;
  for (const o of ops) {
    if ('write' in o) {
      const kindKey = KINDS[o.kind];
      const namespace = NAMESPACES[o.write % 2];
      const name = `e${o.write}`;
      const stored = store.put(kindKey, { apiVersion: 'v1', kind: 'Event', metadata: { name, namespace } });
      const rv = stored.metadata.resourceVersion!;
      model.set(id(kindKey, namespace, name), rv);
      queue.push({
        at: Math.max(clock.now() - o.ago + TTL, clock.now()),
        kindKey,
        namespace,
        name,
        resourceVersion: rv,
      });
      expiry.written(kindKey, stored, clock.now() - o.ago);
    } else if ('remove' in o) {
      const kindKey = KINDS[o.kind];
      const namespace = NAMESPACES[o.remove % 2];
      const name = `e${o.remove}`;
      store.remove(kindKey, namespace, name);
      model.delete(id(kindKey, namespace, name));
    } else {
      clock.advance(o.pause);
      while (queue.length > 0 && queue[0].at <= clock.now()) {
        const lease = queue.shift()!;
        const key = id(lease.kindKey, lease.namespace, lease.name);
        if (model.get(key) === lease.resourceVersion) model.delete(key);
      }
    }
    const actual = new Map<string, string>();
    for (const kindKey of KINDS)
      for (const e of store.list(kindKey))
        actual.set(id(kindKey, e.metadata.namespace!, e.metadata.name!), e.metadata.resourceVersion!);
    assert.deepEqual(actual, model);
    assert.equal(expiry.pending, queue.length);
  }
}

describe('Event leases in parallel arrays (issue 16)', () => {
  test('expire what a queue of lease objects expires, whatever the writes, deletes and pauses', () => {
    const op = fc.oneof(
      fc.record({
        write: fc.integer({ min: 0, max: 7 }),
        kind: fc.integer({ min: 0, max: 1 }),
        // A write dated in the past, as a restored store's leases are (from the Event's last timestamp).
        ago: fc.oneof(
          { weight: 4, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 90_000 }) },
        ),
      }),
      fc.record({ remove: fc.integer({ min: 0, max: 7 }), kind: fc.integer({ min: 0, max: 1 }) }),
      fc.record({ pause: fc.constantFrom(0, 1, 1_000, 20_000, TTL - 1, TTL, TTL + 1, 3 * TTL) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400, size: 'max' }), (ops) => {
        replay(ops);
      }),
      { numRuns: 300 },
    );
  });

  test('the same past a thousand leases expired (the arrays are cut from the front)', () => {
    const ops: Op[] = [];
    for (let i = 0; i < 3_000; i++) {
      ops.push({ write: i % 8, kind: (i >> 3) % 2, ago: i % 7 === 0 ? 30_000 : 0 });
      ops.push({ pause: i % 5 === 0 ? 1_000 : 1 });
      if (i % 400 === 399) ops.push({ pause: TTL });
    }
    replay(ops);
  });
});
