/**
 * Time for the interactive sandbox: follows the host's monotonic clock,
 * scaled by a speed factor (1×, 5×, 20×…), and can be paused. Timers keep
 * their place in clock time across speed changes and pauses.
 */
import type { Clock, TimerHandle, TimerOptions } from './clock';
import { TimerQueue } from './timerQueue';

export interface RealClockOptions {
  /** Clock time at start (ms since epoch). */
  start: number;
  speed?: number;
  /** Host time source in ms (monotonic); injectable for tests. */
  hostNow?: () => number;
  /** Host timer functions; injectable for tests. */
  hostSetTimeout?: (fn: () => void, ms: number) => unknown;
  hostClearTimeout?: (handle: unknown) => void;
}

export class RealClock implements Clock {
  private readonly timers = new TimerQueue();
  private baseClock: number;
  private baseHost: number;
  private speedFactor: number;
  private paused = false;
  private hostTimer: unknown = undefined;
  private readonly hostNow: () => number;
  private readonly hostSetTimeout: (fn: () => void, ms: number) => unknown;
  private readonly hostClearTimeout: (handle: unknown) => void;

  constructor(options: RealClockOptions) {
    this.hostNow = options.hostNow ?? (() => performance.now());
    this.hostSetTimeout = options.hostSetTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.hostClearTimeout = options.hostClearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.speedFactor = validSpeed(options.speed ?? 1);
    this.baseClock = options.start;
    this.baseHost = this.hostNow();
  }

  now(): number {
    if (this.paused) return this.baseClock;
    return this.baseClock + (this.hostNow() - this.baseHost) * this.speedFactor;
  }

  get speed(): number {
    return this.speedFactor;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  setSpeed(speed: number): void {
    this.rebase();
    this.speedFactor = validSpeed(speed);
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
    const id = this.timers.push(this.now() + delay, fn, options?.background ?? false);
    this.schedule();
    return { id };
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.cancel(handle.id);
  }

  /** Stops the host timer; pending clock timers stay queued but will not fire. */
  dispose(): void {
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
    if (this.paused) return;
    const next = this.timers.peek();
    if (!next) return;
    const wait = Math.max(0, (next.due - this.now()) / this.speedFactor);
    this.hostTimer = this.hostSetTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.hostTimer = undefined;
    const now = this.now();
    for (let t = this.timers.peek(); t && t.due <= now && !this.paused; t = this.timers.peek()) {
      this.timers.pop();
      t.fn();
    }
    this.schedule();
  }
}

function validSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  return speed;
}
