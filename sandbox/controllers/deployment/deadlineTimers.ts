/**
 * One pending progress-deadline check per Deployment, on foreground timers
 * (a rollout that may still time out is pending work). Unlike a delayed
 * queue add, a check is withdrawn as soon as the rollout completes, times
 * out or is paused, so a finished rollout leaves nothing pending.
 */
import type { Clock, TimerHandle } from '../../clock/clock';

export class DeadlineTimers {
  private readonly timers = new Map<string, { due: number; handle: TimerHandle }>();

  constructor(
    private readonly clock: Clock,
    private readonly fire: (key: string) => void,
  ) {}

  /** Checks `key` again after `delayMs` (replacing any other pending check). */
  schedule(key: string, delayMs: number): void {
    const due = this.clock.now() + delayMs;
    const existing = this.timers.get(key);
    if (existing?.due === due) return;
    if (existing) this.clock.clearTimer(existing.handle);
    const handle = this.clock.setTimer(delayMs, () => {
      this.timers.delete(key);
      this.fire(key);
    });
    this.timers.set(key, { due, handle });
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
