/**
 * Records `Event`s the way client-go's recorder does: one Event object per
 * (object, type, reason, message, source), whose `count` and `lastTimestamp`
 * grow when the same thing happens again, through client-go's correlator (spam
 * filter and aggregation of similar Events). Controllers and kubelets use this
 * to say what they did; `kubectl get events` and the views read them.
 */
import type { ApiServer } from '../apiserver/apiServer';
import { formatTimestamp } from '../clock/clock';
import { isApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import { deepFreeze } from '../util/json';
import { flatString } from '../util/flatString';

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  /** e.g. `deployment-controller`, `default-scheduler`, `kubelet`. */
  component: string;
  /** Node name for kubelets. */
  host?: string;
}

/** What the recorder remembers of an Event it wrote (upstream's `eventLog`). */
interface Observation {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
}

/** Distinct messages seen recently for one (object, type, reason, source) (upstream's `aggregateRecord`). */
interface AggregateRecord {
  /**
   * The one message seen while there is one (most records never see a second), then the set: a `Set` is ~200 bytes
   * even for one string, and the correlator keeps up to 4,096 records (issue 16).
   */
  messages: string | Set<string>;
  lastSeen: number;
}

/** A token bucket per (source, object, type): upstream's `spamRecord`, a passive token-bucket rate limiter. */
interface SpamRecord {
  tokens: number;
  at: number;
}

const MAX_MESSAGE = 1024;

// upstream: client-go/tools/record/events_cache.go: the correlator's defaults.
/** Entries each of the correlator's caches keeps (least recently used dropped first). */
export const MAX_LRU_ENTRIES = 4096;
/** Distinct messages for one (object, type, reason) within the interval before they are combined. */
export const AGGREGATE_MAX_EVENTS = 10;
export const AGGREGATE_INTERVAL_MS = 600_000;
/** Events a source may write about one object in a burst, then one per 5 minutes. */
export const SPAM_BURST = 25;
export const SPAM_QPS = 1 / 300;
/** upstream: events_cache.go: EventAggregatorByReasonMessageFunc. */
export const COMBINED_PREFIX = '(combined from similar events): ';

/** A `Map` that forgets its least recently used key beyond `capacity` (upstream uses groupcache's lru.Cache). */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity = MAX_LRU_ENTRIES) {}

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * Records Events through a correlator as client-go's does (upstream: client-go/tools/record/events_cache.go:
 * EventCorrelator.EventCorrelate):
 * - spam filter: per (source, object, type) a token bucket of 25, refilled one per 5 minutes; an Event beyond it
 *   is dropped;
 * - aggregation: once 10 distinct messages share (source, object, type, reason) within 10 minutes, further ones
 *   are written as one Event `(combined from similar events): <latest message>` whose `count` grows;
 * - observation: the same Event again (same message too) raises `count` and `lastTimestamp` of the one written;
 *   when that Event has expired meanwhile it is written again under its name, the count going on.
 */
export class EventRecorder {
  private readonly observed = new LruCache<Observation>();
  private readonly aggregates = new LruCache<AggregateRecord>();
  private readonly spam = new LruCache<SpamRecord>();
  private sequence = 0;
  /** The `source` of every Event this recorder writes: one frozen object, so the API server checks it once. */
  private readonly sourceField: EventSource;

  constructor(
    private readonly api: ApiServer,
    private readonly source: EventSource,
  ) {
    this.sourceField = deepFreeze(
      source.host ? { component: source.component, host: source.host } : { component: source.component },
    );
  }

  /** Records that `reason` happened to `involved`. Never throws: a lost event must not break a controller. */
  record(involved: KubeObject, type: EventType, reason: string, message: string): KubeObject | undefined {
    const meta = involved.metadata;
    const namespace = meta.namespace || 'default';
    // Flat: the store's Event, the aggregation and observation caches all keep this text (issue 16).
    const text = flatString(message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 3)}...` : message);
    const now = this.api.clock.now();
    // upstream: events_cache.go: getSpamKey, EventAggregatorByReasonFunc, getEventKey (the source is this recorder's).
    const object = [involved.kind, meta.namespace ?? '', meta.name ?? '', meta.uid ?? '', involved.apiVersion].join(
      '\u0000',
    );
    // The keys are joined (one flat string each), not templates: a cache keeps each key it stores, and a template's
    // tree of cons strings costs 32 bytes a part on top of the text (issue 16).
    if (!this.allow([object, type].join('\u0000'), now)) return undefined;
    const aggregateKey = [object, type, reason].join('\u0000');
    const combined = this.aggregate(aggregateKey, text, now);
    const key = combined ? aggregateKey : [aggregateKey, text].join('\u0000');
    const written = combined ? `${COMBINED_PREFIX}${text}` : text;
    try {
      const previous = this.observed.get(key);
      if (previous) {
        const existing = this.api.tryGet('events', previous.namespace, previous.name);
        const count = previous.count + 1;
        const last = formatTimestamp(now);
        if (existing) {
          const updated = this.api.update({ ...existing, count, lastTimestamp: last, message: written });
          // The entry is the cache's own (and `get` made it the most recent): counted in place.
          previous.count = count;
          return updated;
        }
        // Expired (or deleted) meanwhile: written again under the same name, its series going on (upstream:
        // recordEvent creates when the patch finds no Event).
        const again = this.api.create(
          this.body(involved, namespace, previous.name, type, reason, written, previous.firstTimestamp, last, count),
        );
        previous.count = count;
        return again;
      }
      const first = formatTimestamp(now);
      const created = this.createEvent(meta.name ?? 'unknown', now, (name) =>
        this.body(involved, namespace, name, type, reason, written, first, first, 1),
      );
      this.observed.set(key, { name: created.metadata.name!, namespace, count: 1, firstTimestamp: first });
      return created;
    } catch (e) {
      if (isApiError(e)) return undefined;
      throw e;
    }
  }

  /** The spam filter's token bucket (upstream: EventSourceObjectSpamFilter.Filter): false drops the Event. */
  private allow(key: string, now: number): boolean {
    // A record found is already the most recent (`get`) and is updated in place; a new one is added.
    let record = this.spam.get(key);
    if (record === undefined) this.spam.set(key, (record = { tokens: SPAM_BURST, at: now }));
    record.tokens = Math.min(SPAM_BURST, record.tokens + ((now - record.at) / 1000) * SPAM_QPS);
    record.at = now;
    const allowed = record.tokens >= 1;
    if (allowed) record.tokens -= 1;
    return allowed;
  }

  /**
   * True when this Event is to be combined with similar ones (upstream: EventAggregator.EventAggregate). The set of
   * messages never grows beyond the maximum: on reaching it, its oldest is forgotten (upstream forgets any one).
   */
  private aggregate(key: string, message: string, now: number): boolean {
    let record = this.aggregates.get(key);
    if (!record || now - record.lastSeen > AGGREGATE_INTERVAL_MS)
      this.aggregates.set(key, (record = { messages: message, lastSeen: now }));
    record.lastSeen = now;
    if (typeof record.messages === 'string') {
      if (record.messages === message) return false;
      record.messages = new Set([record.messages]);
    }
    const messages = record.messages;
    messages.add(message);
    if (messages.size < AGGREGATE_MAX_EVENTS) return false;
    messages.delete(messages.values().next().value!);
    return true;
  }

  private body(
    involved: KubeObject,
    namespace: string,
    name: string,
    type: EventType,
    reason: string,
    message: string,
    firstTimestamp: string,
    lastTimestamp: string,
    count: number,
  ): KubeObject {
    const meta = involved.metadata;
    return {
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
      message,
      type,
      source: this.sourceField,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
      firstTimestamp,
      lastTimestamp,
      eventTime: null,
      count,
    };
  }

  /**
   * Creates the Event under a fresh name; another recorder (its own sequence) may have taken the name in the same
   * instant for the same object, in which case the next name is tried.
   */
  private createEvent(objectName: string, now: number, body: (name: string) => KubeObject): KubeObject {
    for (let attempt = 0; ; attempt++) {
      try {
        return this.api.create(body(this.eventName(objectName, now)));
      } catch (e) {
        if (!isApiError(e, 409) || attempt >= 8) throw e;
      }
    }
  }

  /** `<object>.<hex nanoseconds>` as upstream; a sequence keeps names unique within one instant. */
  private eventName(objectName: string, now: number): string {
    const nanos = BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
    return `${objectName}.${nanos.toString(16)}`;
  }
}
