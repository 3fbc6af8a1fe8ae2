/**
 * Cron schedules as robfig/cron's `ParseStandard` reads them (what the
 * CronJob controller uses): five fields (minute hour day-of-month month
 * day-of-week) with `*`, `?`, ranges, steps, lists and JAN–DEC / SUN–SAT
 * names, the `@yearly`-style descriptors and `@every <duration>`. Times are
 * computed in UTC.
 */
import { CRON_FIELDS, MONTHS, cronScheduleError } from '../../admission/validation/cron';
import type { CronField } from '../../admission/validation/cron';

export interface Schedule {
  /** The first activation strictly after `afterMs` (epoch ms); undefined if none within five years. */
  next(afterMs: number): number | undefined;
}

type FieldSpec = CronField;
const FIELDS = CRON_FIELDS;
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const GO_DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A parsed field: the allowed values, and whether it was written as `*`/`?` (robfig's star bit). */
interface Field {
  values: Set<number>;
  star: boolean;
}

/** Parses `spec`; throws an Error with robfig's message when it is not a schedule. */
export function parseSchedule(spec: string): Schedule {
  const err = cronScheduleError(spec);
  if (err) throw new Error(err);
  const text = spec.trim();
  if (text.startsWith('@every ')) return everySchedule(parseGoDuration(text.slice(7).trim()));
  const fields = (DESCRIPTORS[text] ?? text).split(/\s+/).map((f, i) => parseField(f, FIELDS[i]));
  return { next: (after) => nextMatch(fields, after) };
}

function parseField(expr: string, spec: FieldSpec): Field {
  const values = new Set<number>();
  let star = false;
  for (const part of expr.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let start = spec.min;
    let end = spec.max;
    let partStar = false;
    if (range === '*' || range === '?') partStar = true;
    else {
      const [a, b] = range.split('-');
      start = value(a, spec);
      end = b === undefined ? (stepText === undefined ? start : spec.max) : value(b, spec);
    }
    // `*/n` with n > 1 is a restriction, not a wildcard.
    if (partStar && step === 1) star = true;
    for (let v = start; v <= end; v += step) values.add(v);
  }
  return { values, star };
}

function value(text: string, spec: FieldSpec): number {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (spec.names === MONTHS ? 1 : 0);
  return Number(text);
}

/** Day-of-month and day-of-week: both must match when either is `*`, else either may (robfig's rule). */
function dayMatches(fields: Field[], d: Date): boolean {
  const dom = fields[2].values.has(d.getUTCDate());
  const dow = fields[4].values.has(d.getUTCDay());
  return fields[2].star || fields[4].star ? dom && dow : dom || dow;
}

function nextMatch(fields: Field[], after: number): number | undefined {
  const d = new Date(Math.floor(after / 60_000) * 60_000 + 60_000);
  const limit = after + 5 * 366 * 86_400_000;
  while (d.getTime() <= limit) {
    if (!fields[3].values.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(fields, d)) {
      d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(0, 0, 0, 0);
    } else if (!fields[1].values.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0);
    } else if (!fields[0].values.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
    } else return d.getTime();
  }
  return undefined;
}

/** `@every d`: `d` after the given time, rounded down to whole seconds (at least one second). */
function everySchedule(delayMs: number): Schedule {
  const delay = Math.max(1000, Math.floor(delayMs / 1000) * 1000);
  return { next: (after) => Math.floor(after / 1000) * 1000 + delay };
}

function parseGoDuration(text: string): number {
  let total = 0;
  for (const m of text.matchAll(/([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/g))
    total += Number(m[1]) * GO_DURATION_UNITS[m[2]];
  return total;
}
