/**
 * Tolerant readers for untyped JSON: validation runs on whatever the user
 * sent, so every accessor checks the shape and returns undefined otherwise.
 */

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object at `o[key]`, or undefined. */
export function obj(o: unknown, key: string): Obj | undefined {
  if (!isObj(o)) return undefined;
  const v = o[key];
  return isObj(v) ? v : undefined;
}

/** The array at `o[key]`, or an empty array. */
export function arr(o: unknown, key: string): unknown[] {
  if (!isObj(o)) return [];
  const v = o[key];
  return Array.isArray(v) ? v : [];
}

export function str(o: unknown, key: string): string | undefined {
  if (!isObj(o)) return undefined;
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

export function num(o: unknown, key: string): number | undefined {
  if (!isObj(o)) return undefined;
  const v = o[key];
  return typeof v === 'number' ? v : undefined;
}

/** A `map[string]string` field (labels, selectors); non-string values are skipped. */
export function strMap(o: unknown, key: string): Record<string, string> | undefined {
  const m = obj(o, key);
  if (!m) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function has(o: unknown, key: string): boolean {
  return isObj(o) && o[key] !== undefined && o[key] !== null;
}

/** Path builders in upstream notation: `a.b`, `a[0]`, `a[key]`. */
export const child = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);
export const index = (path: string, i: number): string => `${path}[${i}]`;
export const key = (path: string, k: string): string => `${path}[${k}]`;

/** UTF-8 byte length, as Go's len(string) counts. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
