/**
 * Running simulated time until the cluster has nothing left to do.
 *
 * "Settled" means no foreground timer is pending (no container about to
 * start or crash, no back-off, no retry, no deadline) and none appears during
 * a quiet window of background activity — long enough for heartbeat-driven
 * components (node lifecycle) to notice a silent node and schedule work.
 */
import type { VirtualClock } from '../clock/virtualClock';

/** Longer than a missed lease renewal (10 s) plus the node monitor period (5 s), with margin. */
export const QUIET_WINDOW_MS = 60_000;

export interface SettleReport {
  /** True when nothing was pending when the run stopped. */
  settled: boolean;
  /** Clock time of the last foreground timer run (ms since epoch). */
  lastActivityAt: number;
  /** Virtual time the run took (ms). */
  elapsedMs: number;
}

/**
 * Advances `clock` through due timers until settled or until `limitMs` of
 * virtual time has passed. Background timers on the way run as usual.
 */
export function runUntilSettled(clock: VirtualClock, limitMs: number, quietMs = QUIET_WINDOW_MS): SettleReport {
  const start = clock.now();
  const deadline = start + Math.max(0, limitMs);
  let lastActivityAt = start;
  for (;;) {
    const next = clock.nextForegroundTimerAt();
    if (next === undefined) {
      if (quietWindowPasses(clock, Math.min(clock.now() + quietMs, deadline))) {
        return { settled: true, lastActivityAt, elapsedMs: clock.now() - start };
      }
      continue;
    }
    if (next > deadline) {
      clock.advanceTo(deadline);
      return { settled: false, lastActivityAt, elapsedMs: clock.now() - start };
    }
    clock.advanceTo(next);
    lastActivityAt = next;
  }
}

/** Runs background timers up to `end`; false as soon as one of them leaves foreground work behind. */
function quietWindowPasses(clock: VirtualClock, end: number): boolean {
  for (;;) {
    const next = clock.nextTimerAt();
    if (next === undefined || next > end) break;
    clock.advanceTo(next);
    if (clock.pendingForegroundTimers > 0) return false;
  }
  clock.advanceTo(end);
  return true;
}
