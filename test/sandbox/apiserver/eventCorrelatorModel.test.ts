// The event correlator keyed by interned ids (issue 16) against the one keyed by joined strings it replaced: the same
// random sequences of records, on two API servers of one seed, must write the same Events and answer the same.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AGGREGATE_INTERVAL_MS,
  AGGREGATE_MAX_EVENTS,
  COMBINED_PREFIX,
  EventRecorder,
  SPAM_BURST,
  SPAM_QPS,
} from '../../../sandbox/client/eventRecorder';
import type { EventType } from '../../../sandbox/client/eventRecorder';
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../../sandbox/api/types';
import { formatTimestamp } from '../../../sandbox/clock/clock';
import { isApiError } from '../../../sandbox/api/errors';
import { newApi } from '../fixtures';

/** The model: the correlator as it was, each cache a `Map` of joined string keys in recency order. */
class StringKeyedRecorder {
  private readonly observed = new Map<string, { name: string; namespace: string; count: number; first: string }>();
  private readonly aggregates = new Map<string, { messages: Set<string>; lastSeen: number }>();
  private readonly spam = new Map<string, { tokens: number; at: number }>();
  private sequence = 0;

  constructor(
    private readonly api: ApiServer,
    private readonly capacity: number,
  ) {}

  private get<V>(cache: Map<string, V>, key: string): V | undefined {
    const value = cache.get(key);
    if (value !== undefined) {
      cache.delete(key);
      cache.set(key, value);
    }
    return value;
  }

  private set<V>(cache: Map<string, V>, key: string, value: V): void {
    cache.delete(key);
    cache.set(key, value);
    if (cache.size > this.capacity) cache.delete(cache.keys().next().value!);
  }

  record(involved: KubeObject, type: EventType, reason: string, text: string): KubeObject | undefined {
    const meta = involved.metadata;
    const namespace = meta.namespace || 'default';
    const now = this.api.clock.now();
    const object = [involved.kind, meta.namespace ?? '', meta.name ?? '', meta.uid ?? '', involved.apiVersion].join(
      '\0',
    );
    const spamKey = `${object}\0${type}`;
    let bucket = this.get(this.spam, spamKey);
    if (bucket === undefined) this.set(this.spam, spamKey, (bucket = { tokens: SPAM_BURST, at: now }));
    bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + ((now - bucket.at) / 1000) * SPAM_QPS);
    bucket.at = now;
    if (bucket.tokens < 1) return undefined;
    bucket.tokens -= 1;
    const aggregateKey = `${spamKey}\0${reason}`;
    let record = this.get(this.aggregates, aggregateKey);
    if (!record || now - record.lastSeen > AGGREGATE_INTERVAL_MS)
      this.set(this.aggregates, aggregateKey, (record = { messages: new Set(), lastSeen: now }));
    record.lastSeen = now;
    record.messages.add(text);
    const combined = record.messages.size >= AGGREGATE_MAX_EVENTS;
    if (combined) record.messages.delete(record.messages.values().next().value!);
    const key = combined ? aggregateKey : `${aggregateKey}\0${text}`;
    const written = combined ? `${COMBINED_PREFIX}${text}` : text;
    const body = (name: string, first: string, last: string, count: number): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: meta.name,
        namespace: meta.namespace,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
      },
      reason,
      message: written,
      type,
      source: { component: 'kubelet', host: 'node-1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
      firstTimestamp: first,
      lastTimestamp: last,
      eventTime: null,
      count,
    });
    try {
      const previous = this.get(this.observed, key);
      if (previous) {
        const existing = this.api.tryGet('events', previous.namespace, previous.name);
        const count = previous.count + 1;
        const last = formatTimestamp(now);
        const out = existing
          ? this.api.update({ ...existing, count, lastTimestamp: last, message: written })
          : this.api.create(body(previous.name, previous.first, last, count));
        previous.count = count;
        return out;
      }
      const first = formatTimestamp(now);
      for (let attempt = 0; ; attempt++) {
        const nanos = BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
        try {
          const created = this.api.create(body(`${meta.name ?? 'unknown'}.${nanos.toString(16)}`, first, first, 1));
          this.set(this.observed, key, { name: created.metadata.name!, namespace, count: 1, first });
          return created;
        } catch (e) {
          if (!isApiError(e, 409) || attempt >= 8) throw e;
        }
      }
    } catch (e) {
      if (isApiError(e)) return undefined;
      throw e;
    }
  }
}

function involved(kind: string, apiVersion: string, name: string, uid: string, namespace?: string): KubeObject {
  return { apiVersion, kind, metadata: { name, uid, ...(namespace === undefined ? {} : { namespace }) } };
}

// Objects whose identities differ in one part each (uid, kind, apiVersion, namespace, name), one in a namespace that
// does not exist (its Events are refused: nothing is observed), one cluster-scoped.
const OBJECTS = [
  involved('Pod', 'v1', 'web', 'u1', 'default'),
  involved('Pod', 'v1', 'web', 'u2', 'default'),
  involved('ReplicaSet', 'apps/v1', 'web', 'u1', 'default'),
  involved('ReplicaSet', 'apps/v1beta2', 'web', 'u1', 'default'),
  involved('Pod', 'v1', 'db', 'u3', 'default'),
  involved('Pod', 'v1', 'web', 'u1', 'missing'),
  involved('Node', 'v1', 'node-1', 'u4'),
];
// Pauses between records, from none to past the Events' hour: the spam filter's refill (one token per 5 minutes), the
// aggregation interval (10 minutes) and the expiry (1 hour) are each crossed in some runs.
const STEPS_MS = [0, 1, 1_000, 30_000, 150_000, 300_000, AGGREGATE_INTERVAL_MS, AGGREGATE_INTERVAL_MS + 1, 61 * 60_000];

describe('the event correlator keyed by interned ids (issue 16)', () => {
  test('writes the Events the string-keyed correlator writes, whatever the records and cache sizes', () => {
    // Each run draws how varied its records are (objects, reasons, messages, pauses), so that some hammer one subject
    // (bursts spent, ten messages combined, the observation counted) and others spread over many keys (evictions).
    const run = fc.record({
      capacity: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 7, max: 60 })),
      objects: fc.integer({ min: 1, max: OBJECTS.length }),
      reasons: fc.integer({ min: 1, max: 3 }),
      messages: fc.integer({ min: 1, max: 14 }),
      steps: fc.integer({ min: 1, max: STEPS_MS.length }),
      warnings: fc.boolean(),
      ops: fc.array(fc.array(fc.nat(), { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 300, size: 'max' }),
    });
    fc.assert(
      fc.property(run, ({ capacity, objects, reasons, messages, steps, warnings, ops }) => {
        const a = newApi(7);
        const b = newApi(7);
        const recorder = new EventRecorder(a.api, { component: 'kubelet', host: 'node-1' }, capacity);
        const model = new StringKeyedRecorder(b.api, capacity);
        for (const [object, type, reason, message, step] of ops) {
          const args = [
            OBJECTS[object % objects],
            warnings && type % 4 === 0 ? 'Warning' : 'Normal',
            `Reason${reason % reasons}`,
            `message ${message % messages}`,
          ] as const;
          assert.deepEqual(recorder.record(...args), model.record(...args));
          const sizes = recorder.correlatorSizes();
          // Each key holds its ids once; nothing interned outlives its last key; slots are the records'.
          assert.equal(sizes.subjectHolds, sizes.spam + sizes.aggregates + sizes.observed);
          assert.equal(sizes.reasonHolds, sizes.aggregates + sizes.observed);
          assert.ok(sizes.messageHolds <= sizes.observed);
          assert.ok(sizes.subjects <= sizes.subjectHolds && sizes.reasons <= sizes.reasonHolds);
          assert.ok(sizes.messages <= sizes.messageHolds);
          assert.equal(sizes.aggregateSlots, sizes.aggregates);
          // Short pauses mostly: a step index drawn twice, the smaller kept.
          const pause = STEPS_MS[Math.min(step % steps, (step >> 4) % steps)];
          a.clock.advance(pause);
          b.clock.advance(pause);
        }
        assert.deepEqual(a.api.list('events').items, b.api.list('events').items);
      }),
      { numRuns: 200 },
    );
  });

  test('at upstream’s 4,096 keys a cache, the keys stay exact numbers', () => {
    const { api } = newApi();
    const recorder = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    const pod = involved('Pod', 'v1', 'web', 'u1', 'default');
    assert.equal(recorder.record(pod, 'Normal', 'Pulled', 'pulled')?.count, 1);
    assert.equal(recorder.record(pod, 'Normal', 'Pulled', 'pulled')?.count, 2);
    assert.throws(
      () => new EventRecorder(api, { component: 'kubelet' }, 2 ** 20),
      /caches of 1048576 keys are beyond exact numeric keys/,
    );
  });
});
