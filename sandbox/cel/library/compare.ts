/** Ordering and equality of CEL values as the library represents them (bigint, number, string, Date, Duration…). */
import { Duration } from '@marcbachmann/cel-js/evaluator';

function scalar(v: unknown): bigint | number | string | undefined {
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string') return v;
  if (v instanceof Date) return BigInt(v.getTime()) * 1_000_000n;
  if (v instanceof Duration) return v.seconds * 1_000_000_000n + BigInt(v.nanos);
  if (v instanceof Uint8Array) return Array.from(v, (b) => String.fromCharCode(b)).join('');
  const u = (v as { value?: unknown } | null)?.value;
  if (typeof u === 'bigint' || typeof u === 'number') return BigInt(u); // uint
  return undefined;
}

/** <0, 0, >0; numbers of different kinds compare by value, as CEL's cross-type numeric comparisons. */
export function compareValues(a: unknown, b: unknown): number {
  const x = scalar(a);
  const y = scalar(b);
  if (x === undefined || y === undefined) return 0;
  if (typeof x === 'string' || typeof y === 'string') return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
  if (typeof x === 'number' || typeof y === 'number') return Number(x) - Number(y);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** CEL equality over lists, maps and scalars. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => celEquals(v, b[i]));
  const x = scalar(a);
  const y = scalar(b);
  if (x !== undefined && y !== undefined) {
    if ((typeof x === 'string') !== (typeof y === 'string')) return false;
    return compareValues(x, y) === 0;
  }
  if (a instanceof Map && b instanceof Map)
    return a.size === b.size && [...a].every(([k, v]) => b.has(k) && celEquals(v, b.get(k)));
  if (
    a !== null &&
    b !== null &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const ka = Object.keys(a);
    const rb = b as Record<string, unknown>;
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => k in rb && celEquals((a as Record<string, unknown>)[k], rb[k]))
    );
  }
  return false;
}
