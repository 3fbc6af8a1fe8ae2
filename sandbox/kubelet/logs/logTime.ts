/**
 * Clock times as container programs print them (always UTC): a small
 * `strftime` for `date +FORMAT` and the images' log prefixes, and the
 * kubelet's `--timestamps` prefix (RFC 3339 with nine fraction digits).
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

type Field = (d: Date, ms: number) => string;

const FIELDS: Record<string, Field> = {
  Y: (d) => String(d.getUTCFullYear()),
  m: (d) => pad(d.getUTCMonth() + 1),
  d: (d) => pad(d.getUTCDate()),
  e: (d) => String(d.getUTCDate()).padStart(2, ' '),
  H: (d) => pad(d.getUTCHours()),
  M: (d) => pad(d.getUTCMinutes()),
  S: (d) => pad(d.getUTCSeconds()),
  T: (d) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
  F: (d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
  D: (d) => `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${String(d.getUTCFullYear()).slice(2)}`,
  a: (d) => DAYS[d.getUTCDay()],
  b: (d) => MONTHS[d.getUTCMonth()],
  s: (_d, ms) => String(Math.floor(ms / 1000)),
  Z: () => 'UTC',
  z: () => '+0000',
  '%': () => '%',
};

const fraction =
  (digits: number): Field =>
  (d) =>
    pad(d.getUTCMilliseconds(), 3).padEnd(digits, '0').slice(0, digits);

/** Formats compiled once: literal text and fields, in order (a log prefix is formatted for every line). */
const compiled = new Map<string, (string | Field)[]>();
const COMPILED_MAX = 256;

function compile(format: string): (string | Field)[] {
  let parts = compiled.get(format);
  if (parts) return parts;
  parts = [];
  let last = 0;
  for (const m of format.matchAll(/%([369]?)([A-Za-z%])/g)) {
    const [whole, digits, code] = m;
    const field =
      code === 'N' ? fraction(digits === '' ? 9 : Number(digits)) : digits === '' ? FIELDS[code] : undefined;
    if (!field) continue;
    if (m.index > last) parts.push(format.slice(last, m.index));
    parts.push(field);
    last = m.index + whole.length;
  }
  if (last < format.length) parts.push(format.slice(last));
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(format, parts);
  return parts;
}

/**
 * Formats `ms` (epoch milliseconds) with the usual `%` codes: `%Y %m %d %e
 * %H %M %S %T %F %D %a %b %s %Z %z %%`, plus `%3N` / `%6N` / `%9N` for the
 * fraction of the second.
 */
export function strftime(ms: number, format: string): string {
  const d = new Date(Math.floor(ms));
  // Joined into one flat string: appended pieces stay a chain of cons strings for as long as the log line is kept.
  return compile(format)
    .map((p) => (typeof p === 'string' ? p : p(d, ms)))
    .join('');
}

/** busybox `date` with no format: `Thu Jan  1 00:00:05 UTC 2026`. */
export function dateCommandOutput(ms: number): string {
  return strftime(ms, '%a %b %e %H:%M:%S %Z %Y');
}

/** The kubelet's `--timestamps` prefix: `2026-01-01T00:00:05.250000000Z` (Go's RFC3339NanoFixed). */
export function rfc3339NanoFixed(ms: number): string {
  return strftime(ms, '%Y-%m-%dT%H:%M:%S.%9NZ');
}
