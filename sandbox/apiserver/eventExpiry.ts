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

interface Lease {
  at: number;
  kindKey: string;
  namespace: string;
  name: string;
  resourceVersion: string;
}

/**
 * One queue of leases in write order: the TTL is the same for all, so deadlines only grow and a single background
 * timer (at the oldest deadline) suffices. A lease whose Event was written again since is stale: that write queued a
 * later one.
 */
export class EventExpiry {
  private readonly queue: Lease[] = [];
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
    this.queue.push({
      at: Math.max(writtenAt + this.ttlMs, this.clock.now()),
      kindKey,
      namespace: meta.namespace ?? '',
      name: meta.name!,
      resourceVersion: meta.resourceVersion!,
    });
    if (this.timer === undefined) this.arm();
  }

  /** Events waiting for their lease to run out (stale leases included). */
  get pending(): number {
    return this.queue.length - this.head;
  }

  private arm(): void {
    if (this.head >= this.queue.length) return;
    const delay = Math.max(0, this.queue[this.head].at - this.clock.now());
    // Housekeeping: an hour-long lease is no pending work when deciding whether the cluster has settled.
    this.timer = this.clock.setTimer(delay, () => this.expire(), { background: true });
  }

  private expire(): void {
    this.timer = undefined;
    const now = this.clock.now();
    while (this.head < this.queue.length && this.queue[this.head].at <= now) {
      const lease = this.queue[this.head++];
      const current = this.store.get(lease.kindKey, lease.namespace, lease.name);
      if (current?.metadata.resourceVersion === lease.resourceVersion)
        this.store.remove(lease.kindKey, lease.namespace, lease.name);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
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
