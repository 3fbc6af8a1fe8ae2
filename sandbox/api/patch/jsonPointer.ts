/**
 * RFC 6901 JSON Pointers: `""` is the whole document, `/a/0/b~1c` the member
 * `b/c` of the first element of `a`. `~1` decodes to `/` and `~0` to `~`.
 */

/** Splits a pointer into unescaped reference tokens; `undefined` when it is not a valid pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer.slice(1).split('/');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t.includes('~')) continue;
    if (/~(?![01])/.test(t)) return undefined;
    tokens[i] = t.replace(/~1/g, '/').replace(/~0/g, '~');
  }
  return tokens;
}

/** Encodes one reference token (`a/b` → `a~1b`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * An array index token: digits without leading zeros (RFC 6901 §4). Returns
 * `undefined` for anything else, including `-`.
 */
export function arrayIndex(token: string): number | undefined {
  if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
  const n = Number(token);
  return Number.isSafeInteger(n) ? n : undefined;
}
