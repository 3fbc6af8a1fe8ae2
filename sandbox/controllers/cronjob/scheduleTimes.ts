/**
 * Which scheduled run is due (pkg/controller/cronjob/utils.go): the most
 * recent activation since the last one handled (or the CronJob's creation),
 * not older than `startingDeadlineSeconds`, and how many were missed.
 */
import type { CronJob } from 'kubernetes-types/batch/v1';
import { parseTimestamp } from '../../clock/clock';
import type { Schedule } from './schedule';

/** Upstream `nextScheduleDelta`: wake up this long after a scheduled time. */
export const NEXT_SCHEDULE_DELTA_MS = 100;
/** More missed runs than this earn a `TooManyMissedTimes` warning. */
export const MAX_MISSED_BEFORE_WARNING = 100;
const ITERATION_LIMIT = 1000;

export interface RecentSchedule {
  earliest: number;
  mostRecent: number | undefined;
  missed: number;
}

/** `mostRecentScheduleTime`; throws when two activations are less than a second apart. */
export function mostRecentScheduleTime(
  cj: CronJob,
  now: number,
  schedule: Schedule,
  includeStartingDeadline: boolean,
): RecentSchedule {
  let earliest = parseTimestamp(cj.status?.lastScheduleTime ?? cj.metadata?.creationTimestamp ?? '');
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (includeStartingDeadline && deadline !== undefined && deadline !== null)
    earliest = Math.max(earliest, now - deadline * 1000);
  const t1 = schedule.next(earliest);
  if (t1 === undefined || now < t1) return { earliest, mostRecent: undefined, missed: 0 };
  const t2 = schedule.next(t1);
  if (t2 === undefined || now < t2) return { earliest, mostRecent: t1, missed: 1 };
  if (t2 - t1 < 1000) throw new Error('time difference between two schedules is less than 1 second');
  let recent = t2;
  let missed = 2;
  for (let t = schedule.next(t2); t !== undefined && t <= now; t = schedule.next(t)) {
    recent = t;
    missed++;
    if (missed >= ITERATION_LIMIT) return estimate(schedule, t1, t2, now);
  }
  return { earliest, mostRecent: recent, missed };
}

/**
 * Many missed runs: count them arithmetically from the first interval, as upstream does, then step to the exact last
 * one.
 */
function estimate(schedule: Schedule, t1: number, t2: number, now: number): RecentSchedule {
  const period = t2 - t1;
  const missed = Math.floor((now - t1) / period) + 1;
  let recent = t1 + (missed - 1) * period;
  for (let t = schedule.next(recent); t !== undefined && t <= now; t = schedule.next(t)) recent = t;
  return { earliest: t1, mostRecent: recent, missed };
}

/** Delay (ms) until just after the next activation, to requeue the CronJob then. */
export function nextScheduleDelay(cj: CronJob, now: number, schedule: Schedule): number | undefined {
  let from: number;
  try {
    const r = mostRecentScheduleTime(cj, now, schedule, false);
    from = r.mostRecent ?? r.earliest;
  } catch {
    return NEXT_SCHEDULE_DELTA_MS;
  }
  const next = schedule.next(from);
  return next === undefined ? undefined : Math.max(0, next + NEXT_SCHEDULE_DELTA_MS - now);
}
