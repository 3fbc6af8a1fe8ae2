/**
 * One pending timer per key, on the injected clock: what a controller uses
 * for work due at a known time that a delayed queue add cannot express — a
 * check that must be withdrawn when it is no longer needed (a Deployment's
 * progress deadline, a node's grace period) or that must not count as
 * pending work (a CronJob's next run, on a background timer).
 *
 * Unlike `WorkQueue.addAfter`, a timer can be cancelled, and the controller
 * chooses what a second `schedule` for the same key does: `latest` (the new
 * time replaces the old) or `earliest` (the sooner one stays).
 */
import type { Clock, TimerHandle } from '../../clock/clock';

export interface KeyTimersOptions {
  /**
   * Background timers (periodic housekeeping, CronJob schedules) do not keep a simulation from settling; the default
   * is foreground (real pending work).
   */
  background?: boolean;
  /** What `schedule` does when the key already has a timer (default `latest`). */
  keep?: 'latest' | 'earliest';
}

export class KeyTimers {
  private readonly timers = new Map<string, { due: number; handle: TimerHandle }>();

  constructor(
    private readonly clock: Clock,
    private readonly fire: (key: string) => void,
    private readonly options: KeyTimersOptions = {},
  ) {}

  /**
   * Fires `key` after `delayMs`. A pending timer for the same time is kept; otherwise, with `latest` it is replaced,
   * with `earliest` it is kept when due sooner (and not overdue).
   */
  schedule(key: string, delayMs: number): void {
    const now = this.clock.now();
    const due = now + delayMs;
    const existing = this.timers.get(key);
    if (existing) {
      const keep = this.options.keep === 'earliest' ? existing.due <= due && existing.due >= now : existing.due === due;
      if (keep) return;
      this.clock.clearTimer(existing.handle);
    }
    const handle = this.clock.setTimer(
      delayMs,
      () => {
        this.timers.delete(key);
        this.fire(key);
      },
      this.options.background ? { background: true } : undefined,
    );
    this.timers.set(key, { due, handle });
  }

  /** When `key`'s timer is due (epoch ms), if it has one. */
  dueAt(key: string): number | undefined {
    return this.timers.get(key)?.due;
  }

  has(key: string): boolean {
    return this.timers.has(key);
  }

  cancel(key: string): void {
    const existing = this.timers.get(key);
    if (!existing) return;
    this.clock.clearTimer(existing.handle);
    this.timers.delete(key);
  }

  cancelAll(): void {
    for (const key of [...this.timers.keys()]) this.cancel(key);
  }
}
