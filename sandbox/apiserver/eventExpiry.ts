/**
 * Event expiry: the API server stores every Event with a one-hour lease, renewed by each write, and the Event is
 * gone (a DELETED watch event) when its lease runs out.
 *
 * upstream: cmd/kube-apiserver/app/options: --event-ttl (default 1h); pkg/registry/core/event/storage.go: NewREST
 * (`TTLFunc` returns the TTL on create and on every update, so each write starts a new hour).
 */
import type { Clock, TimerHandle } from '../clock/clock';
import type { KubeObject } from '../api/types';
import type { ObjectStore } from '../store/objectStore';

/** kube-apiserver's default `--event-ttl`. */
export const EVENT_TTL_MS = 60 * 60 * 1000;

/**
 * One queue of leases in write order: the TTL is the same for all, so deadlines only grow and a single background
 * timer (at the oldest deadline) suffices. A lease whose Event was written again since is stale: that write queued a
 * later one. The queue is parallel arrays, a lease a slot in each (issue 16: an object a lease was ~90 bytes, a slot
 * of each array is 40); the strings are the stored Event's own.
 */
export class EventExpiry {
  /** Each lease's deadline, its kind (an index into `kinds`), the Event's namespace, name and resourceVersion. */
  private readonly deadlines: number[] = [];
  private readonly kindIndexes: number[] = [];
  private readonly namespaces: string[] = [];
  private readonly names: string[] = [];
  private readonly versions: string[] = [];
  private readonly kinds: string[] = [];
  private head = 0;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly store: ObjectStore,
    private readonly ttlMs = EVENT_TTL_MS,
  ) {}

  /** Starts (or renews) the lease of an Event just stored, from `writtenAt` (default now). */
  written(kindKey: string, event: KubeObject, writtenAt = this.clock.now()): void {
    const meta = event.metadata;
    let kind = this.kinds.indexOf(kindKey);
    if (kind < 0) kind = this.kinds.push(kindKey) - 1;
    this.deadlines.push(Math.max(writtenAt + this.ttlMs, this.clock.now()));
    this.kindIndexes.push(kind);
    this.namespaces.push(meta.namespace ?? '');
    this.names.push(meta.name!);
    this.versions.push(meta.resourceVersion!);
    if (this.timer === undefined) this.arm();
  }

  /** Events waiting for their lease to run out (stale leases included). */
  get pending(): number {
    return this.deadlines.length - this.head;
  }

  private arm(): void {
    if (this.head >= this.deadlines.length) return;
    const delay = Math.max(0, this.deadlines[this.head] - this.clock.now());
    // Housekeeping: an hour-long lease is no pending work when deciding whether the cluster has settled.
    this.timer = this.clock.setTimer(delay, () => this.expire(), { background: true });
  }

  private expire(): void {
    this.timer = undefined;
    const now = this.clock.now();
    while (this.head < this.deadlines.length && this.deadlines[this.head] <= now) {
      const at = this.head++;
      const kindKey = this.kinds[this.kindIndexes[at]];
      const current = this.store.get(kindKey, this.namespaces[at], this.names[at]);
      if (current?.metadata.resourceVersion === this.versions[at])
        this.store.remove(kindKey, this.namespaces[at], this.names[at]);
    }
    if (this.head > 1024 && this.head * 2 > this.deadlines.length) {
      for (const column of [this.deadlines, this.kindIndexes, this.namespaces, this.names, this.versions])
        column.splice(0, this.head);
      this.head = 0;
    }
    this.arm();
  }
}

/** Whether a stored kind is one of the two Event APIs (core/v1 and events.k8s.io/v1 share the TTL). */
export function isEventKind(r: { group: string; kind: string }): boolean {
  return r.kind === 'Event' && (r.group === '' || r.group === 'events.k8s.io');
}

/**
 * When a restored Event was last written, as near as it says: the latest of its timestamps (a snapshot keeps no
 * lease), so a restored cluster does not keep old Events for another full hour.
 */
export function lastWrittenAt(event: KubeObject): number | undefined {
  const e = event as KubeObject & {
    lastTimestamp?: unknown;
    eventTime?: unknown;
    series?: { lastObservedTime?: unknown };
  };
  let latest: number | undefined;
  for (const t of [e.lastTimestamp, e.eventTime, e.series?.lastObservedTime, e.metadata.creationTimestamp]) {
    if (typeof t !== 'string') continue;
    const ms = Date.parse(t);
    if (!Number.isNaN(ms) && (latest === undefined || ms > latest)) latest = ms;
  }
  return latest;
}
