/**
 * A pod's pending work as (due time, action) pairs on the clock, as
 * foreground timers. When the kubelet stops (node failure) they are
 * suspended; when it starts again, what fell due meanwhile runs at once, in
 * due order, and the rest keeps its time.
 */
import type { Clock, TimerHandle } from '../clock/clock';

interface Pending {
  due: number;
  fn: () => void;
  handle?: TimerHandle;
}

export class PodTimers {
  private readonly pending = new Set<Pending>();
  private suspended = false;

  constructor(private readonly clock: Clock) {}

  /** Runs `fn` at `due` (clock time, ms). */
  at(due: number, fn: () => void): void {
    const p: Pending = { due, fn };
    this.pending.add(p);
    if (!this.suspended) this.arm(p);
  }

  /** Runs `fn` `delayMs` from now. */
  after(delayMs: number, fn: () => void): void {
    this.at(this.clock.now() + Math.max(0, delayMs), fn);
  }

  cancelAll(): void {
    for (const p of this.pending) if (p.handle) this.clock.clearTimer(p.handle);
    this.pending.clear();
  }

  suspend(): void {
    this.suspended = true;
    for (const p of this.pending) {
      if (p.handle) this.clock.clearTimer(p.handle);
      p.handle = undefined;
    }
  }

  resume(): void {
    this.suspended = false;
    const sorted = [...this.pending].sort((a, b) => a.due - b.due);
    for (const p of sorted) this.arm(p);
  }

  get size(): number {
    return this.pending.size;
  }

  private arm(p: Pending): void {
    p.handle = this.clock.setTimer(p.due - this.clock.now(), () => {
      this.pending.delete(p);
      p.fn();
    });
  }
}
