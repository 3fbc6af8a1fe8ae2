/**
 * CronJob schedules exactly as robfig/cron v3 (v3.0.1) `ParseStandard` reads
 * them — the parser behind kube-apiserver's CronJob validation
 * (batch validation: validateScheduleFormat) and the CronJob controller — with
 * its error texts. Notably, as upstream:
 * - the spec is not trimmed: `" @hourly"` is one field, `"@hourly "` an
 *   unknown descriptor; fields split on Go's Unicode white space;
 * - a field is split on commas with empty parts dropped (`"1,,2"`, and `","`
 *   which matches nothing);
 * - after `*` or `?` the rest of a range is ignored (`*-5` is `*`);
 * - hyphens are checked before slashes (`1-2-3/4/5`: too many hyphens);
 * - a step above 1 clears the `*` mark (a stepped day-of-month restricts the day);
 * - `@every` takes any Go duration (`.5s`, `0`, `-1s`), rounded as `Every` does;
 * - a `TZ=`/`CRON_TZ=` prefix names a location, checked like `time.LoadLocation`.
 */
import { goAtoi, goParseDuration } from '../../util/goText';

/** A field's range and the names it accepts (months and weekdays). */
export interface CronBounds {
  min: number;
  max: number;
  names?: ReadonlyMap<string, number>;
}

/** The values a field allows, and robfig's star bit (`*` or `?` with a step of 1). */
export interface CronField {
  values: ReadonlySet<number>;
  star: boolean;
}

export type CronSchedule =
  | {
      kind: 'spec';
      /** The `TZ=` location as written (`''` without one: robfig's time.Local). */
      location: string;
      second: CronField;
      minute: CronField;
      hour: CronField;
      dom: CronField;
      month: CronField;
      dow: CronField;
    }
  /** `@every`: `ConstantDelaySchedule`, whole seconds, at least one. */
  | { kind: 'every'; delayMs: number };

const names = (list: readonly string[], first: number) => new Map(list.map((n, i) => [n, i + first]));

export const SECONDS: CronBounds = { min: 0, max: 59 };
export const MINUTES: CronBounds = { min: 0, max: 59 };
export const HOURS: CronBounds = { min: 0, max: 23 };
export const DOM: CronBounds = { min: 1, max: 31 };
export const MONTHS: CronBounds = {
  min: 1,
  max: 12,
  names: names(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'], 1),
};
export const DOW: CronBounds = { min: 0, max: 6, names: names(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], 0) };

type Result<T> = { ok: T } | { error: string };

function between(min: number, max: number, step = 1): Set<number> {
  const out = new Set<number>();
  for (let v = min; v <= max; v += step) out.add(v);
  return out;
}

/** `all(r)`: every value, with the star bit. */
function all(r: CronBounds): CronField {
  return { values: between(r.min, r.max), star: true };
}

const only = (v: number): CronField => ({ values: new Set([v]), star: false });

/** `mustParseInt`: Atoi, and no negative numbers. */
function mustParseInt(expr: string): Result<bigint> {
  const n = goAtoi(expr);
  if ('error' in n) return { error: `failed to parse int from ${expr}: ${n.error}` };
  if (n.value < 0n) return { error: `negative number (${n.value}) not allowed: ${expr}` };
  return { ok: n.value };
}

function parseIntOrName(expr: string, bounds: CronBounds): Result<bigint> {
  const named = bounds.names?.get(expr.toLowerCase());
  return named !== undefined ? { ok: BigInt(named) } : mustParseInt(expr);
}

/** upstream: getRange — one `number | number "-" number [ "/" number ]`, `*` or `?`. */
export function parseCronRange(expr: string, bounds: CronBounds): Result<CronField> {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  const singleDigit = lowAndHigh.length === 1;
  const min = BigInt(bounds.min);
  const max = BigInt(bounds.max);
  let start: bigint;
  let end: bigint;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = min;
    end = max;
    star = true;
  } else {
    const low = parseIntOrName(lowAndHigh[0], bounds);
    if ('error' in low) return low;
    start = low.ok;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const high = parseIntOrName(lowAndHigh[1], bounds);
      if ('error' in high) return high;
      end = high.ok;
    } else return { error: `too many hyphens: ${expr}` };
  }
  let step: bigint;
  if (rangeAndStep.length === 1) step = 1n;
  else if (rangeAndStep.length === 2) {
    const parsed = mustParseInt(rangeAndStep[1]);
    if ('error' in parsed) return parsed;
    step = parsed.ok;
    // "N/step" means "N-max/step".
    if (singleDigit) end = max;
    if (step > 1n) star = false;
  } else return { error: `too many slashes: ${expr}` };
  if (start < min) return { error: `beginning of range (${start}) below minimum (${min}): ${expr}` };
  if (end > max) return { error: `end of range (${end}) above maximum (${max}): ${expr}` };
  if (start > end) return { error: `beginning of range (${start}) beyond end of range (${end}): ${expr}` };
  if (step === 0n) return { error: `step of range should be a positive number: ${expr}` };
  const values = new Set<number>();
  for (let v = start; v <= end; v += step) values.add(Number(v));
  return { ok: { values, star } };
}

/** upstream: getField — a comma-separated list of ranges (empty parts dropped, as strings.FieldsFunc does). */
export function parseCronField(field: string, bounds: CronBounds): Result<CronField> {
  const values = new Set<number>();
  let star = false;
  for (const expr of field.split(',').filter((p) => p !== '')) {
    const range = parseCronRange(expr, bounds);
    if ('error' in range) return range;
    for (const v of range.ok.values) values.add(v);
    star ||= range.ok.star;
  }
  return { ok: { values, star } };
}

/** What strings.Fields splits on: Go's unicode.IsSpace. */
const GO_SPACE_CLASS = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const GO_SPACE = new RegExp(`${GO_SPACE_CLASS}+`);
/** strings.TrimSpace. */
const GO_TRIM = new RegExp(`^${GO_SPACE_CLASS}+|${GO_SPACE_CLASS}+$`, 'g');

/** Go's `time.LoadLocation`, against the tz database the runtime carries. */
function loadLocation(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name[0] === '/' || name[0] === '\\') return 'time: invalid location name';
  // The tz database's names are matched case-sensitively, as Go reads them from files.
  const wellFormed = name.split('/').every((part) => /^[A-Z]/.test(part));
  try {
    if (wellFormed) {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      return undefined;
    }
  } catch {
    // unknown below
  }
  return `unknown time zone ${name}`;
}

/** upstream: parseDescriptor. */
function parseDescriptor(descriptor: string, location: string): Result<CronSchedule> {
  const spec = (minute: CronField, hour: CronField, dom: CronField, month: CronField, dow: CronField) => ({
    ok: { kind: 'spec' as const, location, second: only(0), minute, hour, dom, month, dow },
  });
  switch (descriptor) {
    case '@yearly':
    case '@annually':
      return spec(only(0), only(0), only(1), only(1), all(DOW));
    case '@monthly':
      return spec(only(0), only(0), only(1), all(MONTHS), all(DOW));
    case '@weekly':
      return spec(only(0), only(0), all(DOM), all(MONTHS), only(0));
    case '@daily':
    case '@midnight':
      return spec(only(0), only(0), all(DOM), all(MONTHS), all(DOW));
    case '@hourly':
      return spec(only(0), all(HOURS), all(DOM), all(MONTHS), all(DOW));
  }
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const d = goParseDuration(descriptor.slice(every.length));
    if ('error' in d) return { error: `failed to parse duration ${descriptor}: ${d.error}` };
    // upstream: Every — under a second becomes a second; fractions of a second are dropped.
    const second = 1_000_000_000n;
    const delay = d.ns < second ? second : d.ns - (d.ns % second);
    return { ok: { kind: 'every', delayMs: Number(delay / 1_000_000n) } };
  }
  return { error: `unrecognized descriptor: ${descriptor}` };
}

/** upstream: robfig/cron v3 `ParseStandard` (Parser.Parse with Minute | Hour | Dom | Month | Dow | Descriptor). */
export function parseCron(spec: string): Result<CronSchedule> {
  if (spec.length === 0) return { error: 'empty spec string' };
  let location = '';
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    if (space < 0) {
      // robfig slices spec[eq+1:-1] and panics; kube-apiserver then answers 500.
      return {
        error:
          'runtime error: slice bounds out of range [:-1] (robfig/cron panics on a TZ= prefix with no schedule after it)',
      };
    }
    const name = spec.slice(spec.indexOf('=') + 1, space);
    const bad = loadLocation(name);
    if (bad) return { error: `provided bad location ${name}: ${bad}` };
    location = name;
    spec = spec.slice(space).replace(GO_TRIM, '');
  }
  if (spec.startsWith('@')) return parseDescriptor(spec, location);
  const fields = spec.split(GO_SPACE).filter((f) => f !== '');
  if (fields.length !== 5) return { error: `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]` };
  const parsed: CronField[] = [];
  for (const [i, bounds] of [MINUTES, HOURS, DOM, MONTHS, DOW].entries()) {
    const field = parseCronField(fields[i], bounds);
    if ('error' in field) return field;
    parsed.push(field.ok);
  }
  const [minute, hour, dom, month, dow] = parsed;
  return { ok: { kind: 'spec', location, second: only(0), minute, hour, dom, month, dow } };
}

/** The error `cron.ParseStandard` returns for `schedule`, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  const parsed = parseCron(schedule);
  return 'error' in parsed ? parsed.error : undefined;
}
