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

/**
 * What the recorder remembers of an Event it wrote (upstream's `eventLog`). Its namespace is the involved object's,
 * part of the key: not kept.
 */
interface Observation {
  name: string;
  count: number;
  firstTimestamp: string;
}

const MAX_MESSAGE = 1024;
/** Room above the caches' keys for the ids pinned by records in progress (one per nested record). */
const SLACK = 64;

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

/**
 * A `Map` that forgets its least recently used key beyond `capacity` (upstream uses groupcache's lru.Cache, whose
 * `OnEvicted` is `evicted` here).
 */
export class LruCache<V, K extends string | number = string> {
  private readonly map = new Map<K, V>();
  constructor(
    private readonly capacity = MAX_LRU_ENTRIES,
    private readonly evicted?: (key: K, value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** Sets `key` as the most recent; true when it was not there (then the least recent beyond capacity goes). */
  set(key: K, value: V): boolean {
    const had = this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const [oldest, old] = this.map.entries().next().value!;
      this.map.delete(oldest);
      this.evicted?.(oldest, old);
    }
    return !had;
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * Strings given small ids (0, 1, …) while some cache key holds them, each id counting its holders and reused once none
 * does: a key of the correlator is then a number made of ids, and each string is kept once however many keys use it.
 */
class Interner {
  private readonly ids = new Map<string, number>();
  private readonly values: (string | undefined)[] = [];
  private readonly holders: number[] = [];
  private readonly free: number[] = [];
  /** Holds on all ids together (tests: each cache key holds its ids once). */
  holds = 0;

  idOf(value: string): number | undefined {
    return this.ids.get(value);
  }

  /** The id of `value`, held once more (interned when new). */
  hold(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.free.pop() ?? this.values.length;
      this.ids.set(value, id);
      this.values[id] = value;
      this.holders[id] = 0;
    }
    this.holders[id]++;
    this.holds++;
    return id;
  }

  /** Holds an id already interned once more. */
  holdId(id: number): void {
    this.holders[id]++;
    this.holds++;
  }

  release(id: number): void {
    this.holds--;
    if (--this.holders[id] > 0) return;
    this.ids.delete(this.values[id]!);
    this.values[id] = undefined;
    this.free.push(id);
  }

  /** Strings interned now (tests). */
  get size(): number {
    return this.ids.size;
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
 *
 * The three caches key by upstream's tuples (getSpamKey, EventAggregatorByReasonFunc, getEventKey; the source is this
 * recorder's), but as numbers (issue 16: the joined strings were 1.6 KiB a pod at the envelope's shape): the (object,
 * type) pair — kind, namespace, name, uid, apiVersion and type, joined once — is interned as a "subject" id, reasons
 * and messages as ids of their own, and a key is the ids combined in one number (below 2^53, so exact). Two keys are
 * equal exactly when their tuples are, so every cache decides what it decided keyed by strings. The spam filter's
 * buckets are columns indexed by subject (its key is the subject), the aggregation records columns indexed by a slot
 * reused after eviction; an observation stays an object (an API call sits between reading and counting it).
 */
export class EventRecorder {
  private readonly subjects = new Interner();
  private readonly reasons = new Interner();
  private readonly messages = new Interner();
  /**
   * Reason ids and message ids (+1, 0 being "combined") stay below these: a key is `(subject·R + reason)·M + message`.
   */
  private readonly reasonRadix: number;
  private readonly messageRadix: number;
  /** The spam filter: subject ids, least recently used first; each subject's bucket in the two columns. */
  private readonly spam: LruCache<number, number>;
  private readonly spamTokens: number[] = [];
  private readonly spamAt: number[] = [];
  /** The aggregator (upstream's `aggregateRecord`): (subject, reason) → a slot of the columns. */
  private readonly aggregates: LruCache<number, number>;
  /**
   * The one message seen while there is one (most records never see a second), then the set: a `Set` is ~200 bytes
   * even for one string (issue 16).
   */
  private readonly aggregateMessages: (string | Set<string> | undefined)[] = [];
  private readonly aggregateLastSeen: number[] = [];
  private readonly freeSlots: number[] = [];
  /** The observer (upstream's `eventLog`): (subject, reason, message or 0 when combined) → the Event written. */
  private readonly observed: LruCache<Observation, number>;
  private sequence = 0;
  /** The `source` of every Event this recorder writes: one frozen object, so the API server checks it once. */
  private readonly sourceField: EventSource;

  constructor(
    private readonly api: ApiServer,
    private readonly source: EventSource,
    /** Keys each cache keeps: upstream's 4,096 (smaller in tests, to see the caches forget). */
    capacity = MAX_LRU_ENTRIES,
  ) {
    this.sourceField = deepFreeze(
      source.host ? { component: source.component, host: source.host } : { component: source.component },
    );
    // An id stays below the most ids live at once: a reason's are held by two caches' keys (and the records in
    // progress), a message's by one cache's (+1, 0 being "combined"); subjects by three caches' keys.
    this.reasonRadix = 2 * capacity + SLACK;
    this.messageRadix = capacity + SLACK;
    if (!Number.isSafeInteger((3 * capacity + SLACK) * this.reasonRadix * this.messageRadix))
      throw new Error(`event correlator: caches of ${capacity} keys are beyond exact numeric keys`);
    this.spam = new LruCache<number, number>(capacity, (subject) => this.subjects.release(subject));
    this.aggregates = new LruCache<number, number>(capacity, (key, slot) => {
      this.releaseAggregateKey(key);
      this.aggregateMessages[slot] = undefined;
      this.freeSlots.push(slot);
    });
    this.observed = new LruCache<Observation, number>(capacity, (key) => {
      const message = key % this.messageRadix;
      if (message > 0) this.messages.release(message - 1);
      this.releaseAggregateKey((key - message) / this.messageRadix);
    });
  }

  /** Records that `reason` happened to `involved`. Never throws: a lost event must not break a controller. */
  record(involved: KubeObject, type: EventType, reason: string, message: string): KubeObject | undefined {
    const meta = involved.metadata;
    // upstream: events_cache.go: getSpamKey (the source is this recorder's): the subject every key starts with.
    const identity = [involved.kind, meta.namespace ?? '', meta.name ?? '', meta.uid ?? '', involved.apiVersion, type];
    const now = this.api.clock.now();
    const subject = this.allow(identity.join('\u0000'), now);
    if (subject === undefined) return undefined;
    // Pinned for the call: the API's watchers run inside it, and an id must keep its meaning until its keys are cached.
    this.subjects.holdId(subject);
    const reasonId = this.reasons.hold(reason);
    try {
      return this.correlate(involved, type, reason, message, now, subject, reasonId);
    } finally {
      this.reasons.release(reasonId);
      this.subjects.release(subject);
    }
  }

  private correlate(
    involved: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    now: number,
    subject: number,
    reasonId: number,
  ): KubeObject | undefined {
    const meta = involved.metadata;
    const namespace = meta.namespace || 'default';
    // Flat: the store's Event and the aggregation cache keep this text (issue 16).
    const text = flatString(message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 3)}...` : message);
    // upstream: EventAggregatorByReasonFunc: (source, object, type, reason).
    const aggregateKey = this.key(subject, reasonId, this.reasonRadix);
    const combined = this.aggregate(aggregateKey, text, now);
    // upstream: getEventKey: the aggregate key and the message; the aggregate key alone once combined (message 0).
    const messageId = combined ? -1 : this.messages.idOf(text);
    const key = messageId === undefined ? undefined : this.key(aggregateKey, messageId + 1, this.messageRadix);
    const written = combined ? `${COMBINED_PREFIX}${text}` : text;
    try {
      const previous = key === undefined ? undefined : this.observed.get(key);
      if (previous) {
        const existing = this.api.tryGet('events', namespace, previous.name);
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
      const observation = { name: created.metadata.name!, count: 1, firstTimestamp: first };
      const m = combined ? 0 : this.messages.hold(text) + 1;
      // A key new to the cache holds its ids (one already there, cached again meanwhile, holds them already).
      if (this.observed.set(this.key(aggregateKey, m, this.messageRadix), observation))
        this.holdAggregateKey(aggregateKey);
      else if (m > 0) this.messages.release(m - 1);
      return created;
    } catch (e) {
      if (isApiError(e)) return undefined;
      throw e;
    }
  }

  /** The caches' keys and the interned strings with their holds (tests: nothing is kept that no key holds). */
  correlatorSizes(): Record<string, number> {
    return {
      spam: this.spam.size,
      aggregates: this.aggregates.size,
      observed: this.observed.size,
      subjects: this.subjects.size,
      subjectHolds: this.subjects.holds,
      reasons: this.reasons.size,
      reasonHolds: this.reasons.holds,
      messages: this.messages.size,
      messageHolds: this.messages.holds,
      aggregateSlots: this.aggregateLastSeen.length - this.freeSlots.length,
    };
  }

  /** `high·radix + low`, checked: an id past its radix would make two tuples one key. */
  private key(high: number, low: number, radix: number): number {
    if (low >= radix) throw new Error(`event correlator: id ${low} beyond its radix ${radix}`);
    return high * radix + low;
  }

  /** Holds the subject and reason ids of a (subject, reason) key once more (a new cache key made of it). */
  private holdAggregateKey(key: number): void {
    const reason = key % this.reasonRadix;
    this.reasons.holdId(reason);
    this.subjects.holdId((key - reason) / this.reasonRadix);
  }

  /** Releases the subject and reason ids a (subject, reason) key holds. */
  private releaseAggregateKey(key: number): void {
    const reason = key % this.reasonRadix;
    this.reasons.release(reason);
    this.subjects.release((key - reason) / this.reasonRadix);
  }

  /**
   * The spam filter's token bucket (upstream: EventSourceObjectSpamFilter.Filter): the subject's id, held by its key,
   * or undefined to drop the Event.
   */
  private allow(identity: string, now: number): number | undefined {
    // A bucket found is already the most recent (`get`) and is updated in place; a new one is added.
    let subject = this.subjects.idOf(identity);
    if (subject === undefined || this.spam.get(subject) === undefined) {
      subject = this.subjects.hold(identity);
      this.spamTokens[subject] = SPAM_BURST;
      this.spamAt[subject] = now;
      this.spam.set(subject, 0);
    }
    const tokens = Math.min(SPAM_BURST, this.spamTokens[subject] + ((now - this.spamAt[subject]) / 1000) * SPAM_QPS);
    this.spamAt[subject] = now;
    const allowed = tokens >= 1;
    this.spamTokens[subject] = allowed ? tokens - 1 : tokens;
    return allowed ? subject : undefined;
  }

  /**
   * True when this Event is to be combined with similar ones (upstream: EventAggregator.EventAggregate). The set of
   * messages never grows beyond the maximum: on reaching it, its oldest is forgotten (upstream forgets any one).
   */
  private aggregate(key: number, message: string, now: number): boolean {
    let slot = this.aggregates.get(key);
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.aggregateLastSeen.length;
      this.aggregateMessages[slot] = message;
      this.aggregateLastSeen[slot] = now;
      // The new key holds its ids (the record in progress pins them).
      this.holdAggregateKey(key);
      this.aggregates.set(key, slot);
    } else if (now - this.aggregateLastSeen[slot] > AGGREGATE_INTERVAL_MS) {
      // upstream replaces the record (its key made the most recent: `get` did).
      this.aggregateMessages[slot] = message;
    }
    this.aggregateLastSeen[slot] = now;
    let messages = this.aggregateMessages[slot]!;
    if (typeof messages === 'string') {
      if (messages === message) return false;
      this.aggregateMessages[slot] = messages = new Set([messages]);
    }
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
    return `${objectName}.${hexNanos(Math.floor(now), this.sequence++ % 1_000_000)}`;
  }
}

const TWO_24 = 0x1000000;
/** The high part `hexNanos` wrote last and its text: the Events of one instant (and of the next) share it. */
let lastHigh = -1;
let lastHighHex = '';

/**
 * `ms × 10⁶ + nanos` in hexadecimal (lower case, no leading zeros), for `0 ≤ nanos < 10⁶`: exact in two parts of
 * doubles (the high part times 2²⁴, the low 24 bits) for a whole `ms` in 0…2⁵³, through `BigInt` otherwise. Each part
 * is written from numbers below 2³⁰ (a double's `toString(16)` is several times slower), the high part's text kept
 * while it stays the same (issue 16: an Event's name).
 */
export function hexNanos(ms: number, nanos: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) return (BigInt(ms) * 1_000_000n + BigInt(nanos)).toString(16);
  const hi = Math.floor(ms / TWO_24);
  const low = (ms - hi * TWO_24) * 1_000_000 + nanos; // < 2^44: exact
  const carry = Math.floor(low / TWO_24);
  const high = hi * 1_000_000 + carry; // < 2^50: exact
  const lowBits = low - carry * TWO_24;
  if (high === 0) return lowBits.toString(16);
  if (high !== lastHigh) {
    const top = Math.floor(high / TWO_24); // < 2^26
    const rest = high - top * TWO_24;
    lastHighHex = top > 0 ? top.toString(16) + rest.toString(16).padStart(6, '0') : rest.toString(16);
    lastHigh = high;
  }
  return lastHighHex + lowBits.toString(16).padStart(6, '0');
}
