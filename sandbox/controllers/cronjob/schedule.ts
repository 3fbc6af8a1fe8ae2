/**
 * Cron schedules as the CronJob controller runs them: parsed by robfig/cron v3
 * `ParseStandard` (admission/validation/cron.ts), next activations by its
 * `SpecSchedule.Next` (spec.go) and `ConstantDelaySchedule.Next`
 * (constantdelay.go). Times are computed in UTC: the sandbox's controller
 * manager runs in UTC, and a schedule naming another zone (`TZ=…`) is refused
 * saying so rather than shifted silently.
 */
import { parseCron } from '../../admission/validation/cron';
import type { CronField, CronSchedule } from '../../admission/validation/cron';

export interface Schedule {
  /** The first activation strictly after `afterMs` (epoch ms); undefined for Go's zero time (none in five years). */
  next(afterMs: number): number | undefined;
}

/** Zones the sandbox computes in: UTC and its aliases. */
function isUtc(location: string): boolean {
  if (location === '' || location === 'UTC' || location === 'Local') return true;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: location }).resolvedOptions().timeZone === 'UTC';
  } catch {
    return false;
  }
}

/** Parses `spec`; throws an Error with robfig's message when it is not a schedule. */
export function parseSchedule(spec: string): Schedule {
  const parsed = parseCron(spec);
  if ('error' in parsed) throw new Error(parsed.error);
  return scheduleOf(parsed.ok);
}

export function scheduleOf(s: CronSchedule): Schedule {
  if (s.kind === 'every') {
    // upstream: ConstantDelaySchedule.Next — t + delay, rounded down to the second.
    return { next: (after) => after - mod(after, 1000) + s.delayMs };
  }
  if (!isUtc(s.location))
    throw new Error(`the sandbox computes schedules in UTC only; TZ=${s.location} is not supported`);
  return { next: (after) => specNext(s, after) };
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

const has = (f: CronField, v: number): boolean => f.values.has(v);

/** upstream: dayMatches — both day fields must match when either is starred, else either may. */
function dayMatches(s: Extract<CronSchedule, { kind: 'spec' }>, t: Date): boolean {
  const domMatch = has(s.dom, t.getUTCDate());
  const dowMatch = has(s.dow, t.getUTCDay());
  return s.dom.star || s.dow.star ? domMatch && dowMatch : domMatch || dowMatch;
}

/** upstream: SpecSchedule.Next, in UTC (no daylight saving adjustments to make). */
function specNext(s: Extract<CronSchedule, { kind: 'spec' }>, afterMs: number): number | undefined {
  // Start at the earliest possible time (the upcoming second).
  let t = new Date(afterMs - mod(afterMs, 1000) + 1000);
  const at = (y: number, mo: number, d: number, h = 0, mi = 0, sec = 0) => new Date(Date.UTC(y, mo, d, h, mi, sec));
  // This flag indicates whether a field has been incremented.
  let added = false;
  // If no time is found within five years, return zero.
  const yearLimit = t.getUTCFullYear() + 5;
  wrap: for (;;) {
    if (t.getUTCFullYear() > yearLimit) return undefined;
    // Find the first applicable month.
    while (!has(s.month, t.getUTCMonth() + 1)) {
      if (!added) {
        added = true;
        t = at(t.getUTCFullYear(), t.getUTCMonth(), 1);
      }
      t = at(
        t.getUTCFullYear(),
        t.getUTCMonth() + 1,
        t.getUTCDate(),
        t.getUTCHours(),
        t.getUTCMinutes(),
        t.getUTCSeconds(),
      );
      if (t.getUTCMonth() === 0) continue wrap;
    }
    // Now get a day in that month.
    while (!dayMatches(s, t)) {
      if (!added) {
        added = true;
        t = at(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
      }
      t = at(
        t.getUTCFullYear(),
        t.getUTCMonth(),
        t.getUTCDate() + 1,
        t.getUTCHours(),
        t.getUTCMinutes(),
        t.getUTCSeconds(),
      );
      if (t.getUTCDate() === 1) continue wrap;
    }
    while (!has(s.hour, t.getUTCHours())) {
      if (!added) {
        added = true;
        t = at(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours());
      }
      t = new Date(t.getTime() + 3_600_000);
      if (t.getUTCHours() === 0) continue wrap;
    }
    while (!has(s.minute, t.getUTCMinutes())) {
      if (!added) {
        added = true;
        t = new Date(t.getTime() - mod(t.getTime(), 60_000));
      }
      t = new Date(t.getTime() + 60_000);
      if (t.getUTCMinutes() === 0) continue wrap;
    }
    while (!has(s.second, t.getUTCSeconds())) {
      if (!added) {
        added = true;
        t = new Date(t.getTime() - mod(t.getTime(), 1000));
      }
      t = new Date(t.getTime() + 1000);
      if (t.getUTCSeconds() === 0) continue wrap;
    }
    return t.getTime();
  }
}
