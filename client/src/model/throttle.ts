/**
 * Coalesces bursts of change notifications into at most one action per
 * interval (leading edge soon, trailing edge guaranteed): the tree refreshes
 * at most 10 times a second however fast the sandbox writes.
 */

/** The timer functions the throttle needs; injected so tests drive time by hand. */
export interface Timer {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The host's timers and monotonic clock. */
export const systemTimer: Timer = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class Throttle {
  private pending: unknown;
  private last = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(
    private readonly action: () => void,
    private readonly intervalMs: number,
    private readonly timer: Timer = systemTimer,
  ) {}

  /**
   * Asks for the action to run. It runs once, on a timer, no sooner than
   * `intervalMs` after its previous run; requests made while one is pending
   * join it.
   */
  schedule(): void {
    if (this.pending !== undefined || this.disposed) return;
    const wait = Math.max(0, this.last + this.intervalMs - this.timer.now());
    this.pending = this.timer.setTimeout(() => {
      this.pending = undefined;
      this.last = this.timer.now();
      this.action();
    }, wait);
  }

  /** Cancels a pending run; later `schedule()` calls do nothing. */
  dispose(): void {
    this.disposed = true;
    if (this.pending !== undefined) this.timer.clearTimeout(this.pending);
    this.pending = undefined;
  }
}
