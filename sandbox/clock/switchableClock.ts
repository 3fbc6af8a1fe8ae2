/**
 * Time for the interactive sandbox that can also jump: it follows the host's
 * monotonic clock at a speed factor (1×, 5×, 20×…) and can be paused, but
 * every timer lives in an inner VirtualClock, so "step 5 s" and "fast-forward
 * until settled" run the same timers synchronously in simulated time, exactly
 * as `simulate` does, before real-time flow resumes from the new instant.
 *
 * Invariant: the inner clock's time never passes `now()`; timers set while
 * it lags are offset so that they fall due `delayMs` after `now()`.
 */
import type { Clock, TimerHandle, TimerOptions } from './clock';
import { VirtualClock } from './virtualClock';

export interface SwitchableClockOptions {
  /** Clock time at start (ms since epoch). */
  start: number;
  speed?: number;
  /** Start paused (time stands still until `resume`). */
  paused?: boolean;
  /** Host time source in ms (monotonic); injectable for tests. */
  hostNow?: () => number;
  hostSetTimeout?: (fn: () => void, ms: number) => unknown;
  hostClearTimeout?: (handle: unknown) => void;
}

export class SwitchableClock implements Clock {
  private readonly inner: VirtualClock;
  private baseClock: number;
  private baseHost: number;
  private speedFactor: number;
  private paused: boolean;
  private jumping = false;
  private hostTimer: unknown = undefined;
  private readonly hostNow: () => number;
  private readonly hostSetTimeout: (fn: () => void, ms: number) => unknown;
  private readonly hostClearTimeout: (handle: unknown) => void;

  constructor(options: SwitchableClockOptions) {
    this.hostNow = options.hostNow ?? (() => performance.now());
    this.hostSetTimeout = options.hostSetTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.hostClearTimeout = options.hostClearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.speedFactor = validSpeed(options.speed ?? 1);
    this.inner = new VirtualClock(options.start);
    this.baseClock = options.start;
    this.baseHost = this.hostNow();
    this.paused = options.paused ?? false;
  }

  now(): number {
    if (this.paused || this.jumping) return Math.max(this.baseClock, this.inner.now());
    return this.baseClock + (this.hostNow() - this.baseHost) * this.speedFactor;
  }

  get speed(): number {
    return this.speedFactor;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  setSpeed(speed: number): void {
    const valid = validSpeed(speed);
    this.rebase();
    this.speedFactor = valid;
    this.schedule();
  }

  pause(): void {
    if (this.paused) return;
    this.rebase();
    this.paused = true;
    this.schedule();
  }

  resume(): void {
    if (!this.paused) return;
    this.baseHost = this.hostNow();
    this.paused = false;
    this.schedule();
  }

  setTimer(delayMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    const delay = Number.isFinite(delayMs) && delayMs > 0 ? delayMs : 0;
    const handle = this.inner.setTimer(delay + (this.now() - this.inner.now()), fn, options);
    if (!this.jumping) this.schedule();
    return handle;
  }

  clearTimer(handle: TimerHandle): void {
    this.inner.clearTimer(handle);
  }

  /**
   * Runs `fn` with real-time flow suspended and the inner virtual clock caught
   * up to `now()`; `fn` may advance it (e.g. `advance(ms)` or
   * `runUntilSettled`). Real time then resumes from wherever `fn` left it
   * (still paused if it was). This is how `step` and fast-forward work.
   */
  jump<T>(fn: (virtual: VirtualClock) => T): T {
    if (this.jumping) throw new Error('the clock is already jumping');
    const start = this.now();
    this.cancelHost();
    this.jumping = true;
    this.baseClock = start;
    try {
      this.inner.advanceTo(start);
      return fn(this.inner);
    } finally {
      this.jumping = false;
      this.baseClock = Math.max(start, this.inner.now());
      this.baseHost = this.hostNow();
      this.schedule();
    }
  }

  /** Advances `ms` of clock time at once, running every timer due on the way. */
  step(ms: number): void {
    this.jump((v) => v.advance(Math.max(0, ms)));
  }

  /**
   * Host milliseconds until the next foreground timer falls due at the current speed: how long the sandbox will stay
   * idle unless something outside it acts. Undefined when no foreground timer is set or the clock is paused. Background
   * timers (heartbeats, resyncs) do not count, as for settling.
   */
  hostMsUntilNextWork(): number | undefined {
    if (this.paused) return undefined;
    const next = this.inner.nextForegroundTimerAt();
    return next === undefined ? undefined : Math.max(0, (next - this.now()) / this.speedFactor);
  }

  /** Timers waiting to run. */
  get pendingTimers(): number {
    return this.inner.pendingTimers;
  }

  /** Stops the host timer; pending clock timers stay queued but will not fire. */
  dispose(): void {
    this.rebase();
    this.paused = true;
    this.cancelHost();
  }

  private rebase(): void {
    this.baseClock = this.now();
    this.baseHost = this.hostNow();
  }

  private cancelHost(): void {
    if (this.hostTimer !== undefined) this.hostClearTimeout(this.hostTimer);
    this.hostTimer = undefined;
  }

  private schedule(): void {
    this.cancelHost();
    if (this.paused || this.jumping) return;
    const next = this.inner.nextTimerAt();
    if (next === undefined) return;
    const wait = Math.max(0, (next - this.now()) / this.speedFactor);
    this.hostTimer = this.hostSetTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.hostTimer = undefined;
    if (this.paused || this.jumping) return;
    this.inner.advanceTo(this.now());
    this.schedule();
  }
}

function validSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed <= 0)
    throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  return speed;
}
