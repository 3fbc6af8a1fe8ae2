/**
 * JSON Pointers as kube-apiserver's JSON patch library reads them
 * (gopkg.in/evanphx/json-patch.v4 v4.12.0, patch.go), which is looser than
 * RFC 6901: the pointer is split on `/` and its first segment dropped whatever
 * it holds (`a/b` names the member `b` of the root; `a` and `""` name no
 * member at all); `~1` and `~0` are decoded and any other `~` is kept as
 * written; array indices are read by Go's `strconv.Atoi`, so `01`, `+1` and
 * `-1` (from the end) are indices.
 */

/** A pointer split as `findObject` splits it: the parent's tokens and the last one, or undefined without a `/`. */
export function splitPointer(pointer: string): { parents: string[]; key: string } | undefined {
  const split = pointer.split('/');
  if (split.length < 2) return undefined;
  return { parents: split.slice(1, -1).map(decodePointerToken), key: decodePointerToken(split[split.length - 1]) };
}

/** upstream: decodePatchKey — `~1` → `/` then `~0` → `~`, in one left-to-right pass (strings.NewReplacer). */
export function decodePointerToken(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Encodes one reference token (`a/b` → `a~1b`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

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
