/**
 * A pod's pending work as (due time, action) pairs on the clock: foreground
 * timers for work under way, background ones for retries that wait on the
 * world (a missing Secret, an unbound claim). Each can be cancelled by its
 * token. When the kubelet stops (node failure) they are suspended; when it
 * starts again, what fell due meanwhile runs at once, in due order, and the
 * rest keeps its time.
 */
import type { Clock, TimerHandle } from '../clock/clock';

interface Pending {
  id: number;
  due: number;
  fn: () => void;
  background: boolean;
  handle?: TimerHandle;
}

export class PodTimers {
  /** Made on the first timer and dropped when the last goes: a settled pod often has none (issue 16). */
  private pending: Map<number, Pending> | undefined;
  private suspended = false;
  private nextId = 1;

  constructor(private readonly clock: Clock) {}

  /**
   * Runs `fn` at `due` (clock time, ms); returns a token for `cancel`. A background timer is waiting on the world (a
   * retry that may find nothing to do), not pending work.
   */
  at(due: number, fn: () => void, background = false): number {
    const p: Pending = { id: this.nextId++, due, fn, background };
    (this.pending ??= new Map()).set(p.id, p);
    if (!this.suspended) this.arm(p);
    return p.id;
  }

  /** Runs `fn` `delayMs` from now. */
  after(delayMs: number, fn: () => void, background = false): number {
    return this.at(this.clock.now() + Math.max(0, delayMs), fn, background);
  }

  cancel(token: number): void {
    const p = this.pending?.get(token);
    if (!p) return;
    if (p.handle) this.clock.clearTimer(p.handle);
    this.remove(token);
  }

  cancelAll(): void {
    for (const p of this.pending?.values() ?? []) if (p.handle) this.clock.clearTimer(p.handle);
    this.pending = undefined;
  }

  suspend(): void {
    this.suspended = true;
    for (const p of this.pending?.values() ?? []) {
      if (p.handle) this.clock.clearTimer(p.handle);
      p.handle = undefined;
    }
  }

  resume(): void {
    this.suspended = false;
    const sorted = [...(this.pending?.values() ?? [])].sort((a, b) => a.due - b.due || a.id - b.id);
    for (const p of sorted) this.arm(p);
  }

  get size(): number {
    return this.pending?.size ?? 0;
  }

  private remove(id: number): void {
    this.pending?.delete(id);
    if (this.pending?.size === 0) this.pending = undefined;
  }

  private arm(p: Pending): void {
    p.handle = this.clock.setTimer(
      p.due - this.clock.now(),
      () => {
        this.remove(p.id);
        p.fn();
      },
      { background: p.background },
    );
  }
}
