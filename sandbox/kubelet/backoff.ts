/**
 * The kubelet's restart and image-pull back-off (client-go
 * `util/flowcontrol/backoff.go` as kuberuntime `doBackOff` and the image
 * manager use it): per key, 10 s doubling to a 300 s cap; an entry whose last
 * update is more than 2×cap before the event has expired and starts over.
 */

export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;

interface Entry {
  backoff: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly initialMs = INITIAL_BACKOFF_MS,
    readonly maxMs = MAX_BACKOFF_MS,
  ) {}

  /** The current window for `key` (0 when there is none). */
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }

  /**
   * Records an event at `eventTime`: a new or expired entry starts at the initial delay, else the delay doubles up to
   * the cap.
   */
  next(key: string, eventTime: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.expired(eventTime, entry.lastUpdate)) {
      this.entries.set(key, { backoff: this.initialMs, lastUpdate: eventTime });
      return;
    }
    entry.backoff = Math.min(entry.backoff * 2, this.maxMs);
    entry.lastUpdate = eventTime;
  }

  /** `IsInBackOffSince`: less than the window has passed between `eventTime` and `now` (crash-loop restarts). */
  inBackOffSince(key: string, eventTime: number, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || this.expired(eventTime, entry.lastUpdate)) return false;
    return now - eventTime < entry.backoff;
  }

  /** `IsInBackOffSinceUpdate`: less than the window has passed since the last `next` (image pulls). */
  inBackOffSinceUpdate(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || this.expired(now, entry.lastUpdate)) return false;
    return now - entry.lastUpdate < entry.backoff;
  }

  /** When the window opened by the last `next` closes, or undefined. */
  windowEnd(key: string): number | undefined {
    const entry = this.entries.get(key);
    return entry ? entry.lastUpdate + entry.backoff : undefined;
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Drops every entry not updated for 2×cap by `now` (it has expired: any later event starts over), so that the keys
   * of pods long gone do not pile up (upstream: flowcontrol `Backoff.GC`, which the kubelet's `HandlePodCleanups`
   * calls).
   */
  gc(now: number): void {
    for (const [key, entry] of this.entries) if (this.expired(now, entry.lastUpdate)) this.entries.delete(key);
  }

  /** Entries kept (expired ones included until `gc`). */
  get size(): number {
    return this.entries.size;
  }

  private expired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > 2 * this.maxMs;
  }
}
