/**
 * Go standard-library parsing and quoting, for the messages upstream prints
 * through them: `strconv.Atoi` (JSON patch indices, cron fields),
 * `strconv.Quote`, and `time.ParseDuration` (cron `@every`) with the time
 * package's own quoting.
 */

/** Go's `strconv.Quote`: double quotes, Go escapes for control and non-printable characters. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 0x07) out += '\\a';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0b) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    // Go decoded an unpaired surrogate as U+FFFD, which is printable.
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else if (c > 0x7f && /^[\p{C}\p{Z}]$/u.test(ch)) {
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_INT64 = (1n << 63n) - 1n;

/**
 * Go's `strconv.Atoi` on a 64-bit platform: an optional sign, then decimal
 * digits (leading zeros allowed); the error text is Go's (`strconv.Atoi:
 * parsing "x": invalid syntax`, `… value out of range`).
 */
export function goAtoi(s: string): { value: bigint } | { error: string } {
  const fail = (why: string) => ({ error: `strconv.Atoi: parsing ${goQuote(s)}: ${why}` });
  let i = 0;
  const negative = s[0] === '-';
  if (s[0] === '+' || negative) i = 1;
  if (i >= s.length) return fail('invalid syntax');
  let n = 0n;
  for (; i < s.length; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return fail('invalid syntax');
    n = n * 10n + BigInt(d);
    if (n > MAX_UINT64) return fail('value out of range');
  }
  if (n > (negative ? MAX_INT64 + 1n : MAX_INT64)) return fail('value out of range');
  return { value: negative ? -n : n };
}

/** The time package's `quote`: bytes outside printable ASCII as `\xNN` escapes of their UTF-8. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

const NS_PER_UNIT: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n],
  ['\u03bcs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

const TWO_63 = 1n << 63n;

/**
 * Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` or `0`, in
 * nanoseconds, with Go's error texts (`time: invalid duration "x"`,
 * `time: missing unit in duration "1"`, `time: unknown unit "x" in duration "1x"`).
 */
export function goParseDuration(orig: string): { ns: bigint } | { error: string } {
  const invalid = { error: `time: invalid duration ${timeQuote(orig)}` };
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ns: 0n };
  if (s === '') return invalid;
  let d = 0n;
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid;
    // [0-9]*
    let i = 0;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      if (v > TWO_63 / 10n) return invalid;
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO_63) return invalid;
    }
    const pre = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)?
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (TWO_63 - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > TWO_63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid;
    // The unit: everything up to the next digit or '.'.
    let u = 0;
    while (u < s.length && s[u] !== '.' && !isDigit(s[u])) u++;
    if (u === 0) return { error: `time: missing unit in duration ${timeQuote(orig)}` };
    const unitName = s.slice(0, u);
    s = s.slice(u);
    const unit = NS_PER_UNIT.get(unitName);
    if (unit === undefined)
      return { error: `time: unknown unit ${timeQuote(unitName)} in duration ${timeQuote(orig)}` };
    if (v > TWO_63 / unit) return invalid;
    v *= unit;
    if (f > 0n) {
      // float64 arithmetic, as Go does: nanosecond-exact for fractions of hours.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) return invalid;
    }
    d += v;
    if (d > TWO_63) return invalid;
  }
  if (neg) return { ns: -d };
  if (d > TWO_63 - 1n) return invalid;
  return { ns: d };
}
