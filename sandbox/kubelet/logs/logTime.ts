/**
 * Clock times as container programs print them (always UTC): a small
 * `strftime` for `date +FORMAT` and the images' log prefixes, and the
 * kubelet's `--timestamps` prefix (RFC 3339 with nine fraction digits).
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Formats `ms` (epoch milliseconds) with the usual `%` codes: `%Y %m %d %e
 * %H %M %S %T %F %D %a %b %s %Z %z %%`, plus `%3N` / `%6N` / `%9N` for the
 * fraction of the second.
 */
export function strftime(ms: number, format: string): string {
  const d = new Date(Math.floor(ms));
  const frac = (digits: number) => pad(d.getUTCMilliseconds(), 3).padEnd(digits, '0').slice(0, digits);
  const codes: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    m: () => pad(d.getUTCMonth() + 1),
    d: () => pad(d.getUTCDate()),
    e: () => String(d.getUTCDate()).padStart(2, ' '),
    H: () => pad(d.getUTCHours()),
    M: () => pad(d.getUTCMinutes()),
    S: () => pad(d.getUTCSeconds()),
    T: () => `${codes.H()}:${codes.M()}:${codes.S()}`,
    F: () => `${codes.Y()}-${codes.m()}-${codes.d()}`,
    D: () => `${codes.m()}/${codes.d()}/${codes.Y().slice(2)}`,
    a: () => DAYS[d.getUTCDay()],
    b: () => MONTHS[d.getUTCMonth()],
    s: () => String(Math.floor(ms / 1000)),
    Z: () => 'UTC',
    z: () => '+0000',
    N: () => frac(9),
    '%': () => '%',
  };
  return format.replace(/%([369]?)([A-Za-z%])/g, (whole, digits: string, code: string) => {
    if (code === 'N') return frac(digits === '' ? 9 : Number(digits));
    return code in codes && digits === '' ? codes[code]() : whole;
  });
}

/** busybox `date` with no format: `Thu Jan  1 00:00:05 UTC 2026`. */
export function dateCommandOutput(ms: number): string {
  return strftime(ms, '%a %b %e %H:%M:%S %Z %Y');
}

/** The kubelet's `--timestamps` prefix: `2026-01-01T00:00:05.250000000Z` (Go's RFC3339NanoFixed). */
export function rfc3339NanoFixed(ms: number): string {
  return strftime(ms, '%Y-%m-%dT%H:%M:%S.%9NZ');
}
