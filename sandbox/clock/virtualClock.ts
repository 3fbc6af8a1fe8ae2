/**
 * Simulated time: nothing happens until a test or the simulator advances it.
 * Timers run in due-time order, each with `now()` equal to its due time, so a
 * run is the same every time for the same inputs.
 */
import type { Clock, TimerHandle, TimerOptions } from './clock';
import { QueuedTimer, TimerQueue } from './timerQueue';

/** 2026-01-01T00:00:00Z: the default start, so recorded histories do not depend on when they were made. */
export const DEFAULT_EPOCH = Date.UTC(2026, 0, 1);

export class VirtualClock implements Clock {
  private current: number;
  private readonly timers = new TimerQueue();

  constructor(start: number = DEFAULT_EPOCH) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(delayMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    const delay = Number.isFinite(delayMs) && delayMs > 0 ? delayMs : 0;
    return this.timers.push(this.current + delay, fn, options?.background ?? false);
  }

  /** Cancels a timer this clock set (the handle is the queued timer); any other handle is ignored. */
  clearTimer(handle: TimerHandle): void {
    if (handle instanceof QueuedTimer) this.timers.cancel(handle);
  }

  /** Number of timers waiting to run. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Timers waiting to run that are real work, not background housekeeping. */
  get pendingForegroundTimers(): number {
    return this.timers.foregroundSize;
  }

  /** When the next foreground timer is due, or undefined when none is set. */
  nextForegroundTimerAt(): number | undefined {
    return this.timers.nextForegroundDue();
  }

  /** When the next timer is due, or undefined when none is set. */
  nextTimerAt(): number | undefined {
    return this.timers.peek()?.due;
  }

  /**
   * Moves time forward by `ms`, running every timer that falls due on the way
   * (including timers those timers set), each at its own instant.
   * Returns the number of timers run.
   */
  advance(ms: number): number {
    return this.advanceTo(this.current + Math.max(0, ms));
  }

  /** Moves time forward to `time` (never backwards), running due timers. */
  advanceTo(time: number): number {
    let ran = 0;
    for (;;) {
      const next = this.timers.peek();
      if (!next || next.due > time) break;
      const fn = this.timers.pop()!;
      if (next.due > this.current) this.current = next.due;
      ran++;
      fn();
    }
    if (time > this.current) this.current = time;
    return ran;
  }

  /** Jumps to the next due timer and runs every timer due at that instant. Returns false when none is set. */
  runNext(): boolean {
    const next = this.timers.peek();
    if (!next) return false;
    this.advanceTo(next.due);
    return true;
  }
}
