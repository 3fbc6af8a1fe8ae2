/**
 * Checks a CronJob schedule the way robfig/cron's ParseStandard does (five
 * fields, names, ranges, steps, `@hourly`-style descriptors), returning its
 * error text or undefined when the schedule parses.
 */

/** One field of a schedule: its range, and the names it accepts (months and weekdays). */
export interface CronField {
  min: number;
  max: number;
  names?: readonly string[];
}
type Bounds = CronField;

export const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** minute, hour, day of month, month, day of week. */
export const CRON_FIELDS: readonly CronField[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const GO_DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

export function cronScheduleError(schedule: string): string | undefined {
  let spec = schedule.trim();
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const sp = spec.indexOf(' ');
    spec = sp < 0 ? '' : spec.slice(sp).trim();
  }
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec)) return undefined;
    if (spec.startsWith('@every ')) {
      const d = spec.slice(7).trim();
      return GO_DURATION.test(d)
        ? undefined
        : `failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(d)}`;
    }
    return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    for (const part of fields[i].split(',')) {
      const err = rangeError(part, CRON_FIELDS[i]);
      if (err) return err;
    }
  }
  return undefined;
}

function parseIntOrName(text: string, names: readonly string[] | undefined): number | string {
  const named = names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (names === MONTHS ? 1 : 0);
  if (!/^[+-]?[0-9]+$/.test(text))
    return `failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
  const n = Number(text);
  return n < 0 ? `negative number (${n}) not allowed: ${text}` : n;
}

function rangeError(expr: string, b: Bounds): string | undefined {
  const slash = expr.split('/');
  if (slash.length > 2) return `too many slashes: ${expr}`;
  const hyphen = slash[0].split('-');
  if (hyphen.length > 2) return `too many hyphens: ${expr}`;
  let start = b.min;
  let end = b.max;
  if (hyphen[0] !== '*' && hyphen[0] !== '?') {
    const s = parseIntOrName(hyphen[0], b.names);
    if (typeof s === 'string') return s;
    start = s;
    end = s;
    if (hyphen.length === 2) {
      const e = parseIntOrName(hyphen[1], b.names);
      if (typeof e === 'string') return e;
      end = e;
    }
  } else if (hyphen.length === 2) return `too many hyphens: ${expr}`;
  if (slash.length === 2) {
    const step = parseIntOrName(slash[1], undefined);
    if (typeof step === 'string') return step;
    if (step === 0) return `step of range should be a positive number: ${expr}`;
    if (hyphen[0] !== '*' && hyphen[0] !== '?' && hyphen.length === 1) end = b.max;
  }
  if (start < b.min) return `beginning of range (${start}) below minimum (${b.min}): ${expr}`;
  if (end > b.max) return `end of range (${end}) above maximum (${b.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  return undefined;
}
