/**
 * Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource):
 * `100m`, `0.5`, `1.5Gi`, `128974848`, `129e6`, `123Mi`.
 *
 * A parsed quantity holds its exact value as a bigint count of nano-units, so
 * sums and comparisons never drift; anything finer than 1n is rounded up, as
 * upstream does. Parsing is cached because the scheduler parses the same few
 * strings over and over.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** The upstream parse error text, used verbatim in validation messages. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const NANO = 1_000_000_000n;

/** An exact quantity. `nanos` is the value × 10⁹. */
export class Quantity {
  constructor(
    readonly nanos: bigint,
    readonly format: QuantityFormat,
  ) {}

  /** The value in thousandths, rounded up (CPU millicores). */
  milli(): number {
    return quantityToMilli(this);
  }

  /** The value in base units, rounded up (bytes, cores, pods). */
  value(): number {
    return quantityValue(this);
  }

  /** The canonical form upstream prints (`1536Mi`, `500m`, `1k`). */
  toString(): string {
    return formatQuantity(this);
  }
}

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SHAPE = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const NUMBER = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/;
/** Larger exponents would make absurd bigints; upstream caps scale similarly. */
const MAX_DECIMAL_EXPONENT = 100;

const cache = new Map<string, Quantity | null>();
const CACHE_LIMIT = 10_000;

/**
 * Parses a quantity from its string form or from a YAML/JSON number.
 * Returns undefined when the text is not a valid quantity.
 */
export function parseQuantity(text: string | number): Quantity | undefined {
  const s = typeof text === 'number' ? numberToText(text) : text;
  if (s === undefined) return undefined;
  const hit = cache.get(s);
  if (hit !== undefined) return hit ?? undefined;
  const parsed = parseUncached(s);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(s, parsed ?? null);
  return parsed;
}

function numberToText(n: number): string | undefined {
  if (!Number.isFinite(n)) return undefined;
  return String(n).replace('e+', 'e');
}

function parseUncached(s: string): Quantity | undefined {
  const shape = SHAPE.exec(s.trim() === s ? s : '');
  if (!shape) return undefined;
  const num = NUMBER.exec(shape[1]);
  if (!num || (num[2] === '' && (num[3] ?? '') === '')) return undefined;
  const suffix = parseSuffix(shape[2]);
  if (!suffix) return undefined;
  const frac = num[3] ?? '';
  const digits = BigInt((num[2] || '0') + frac);
  const negative = num[1] === '-';
  // value = digits / 10^frac.length × 10^dec × 2^bin, in nanos.
  let numer = digits * NANO;
  let denom = 10n ** BigInt(frac.length);
  if (suffix.decimal >= 0) numer *= 10n ** BigInt(suffix.decimal);
  else denom *= 10n ** BigInt(-suffix.decimal);
  numer *= 1n << BigInt(suffix.binary);
  const nanos = (numer + denom - 1n) / denom;
  return new Quantity(negative ? -nanos : nanos, suffix.format);
}

interface Suffix {
  decimal: number;
  binary: number;
  format: QuantityFormat;
}

function parseSuffix(text: string): Suffix | undefined {
  const dec = DECIMAL_SUFFIXES[text];
  if (dec !== undefined) return { decimal: dec, binary: 0, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES[text];
  if (bin !== undefined) return { decimal: 0, binary: bin, format: 'BinarySI' };
  const exp = /^[eE]([+-]?[0-9]+)$/.exec(text);
  if (!exp) return undefined;
  const e = Number(exp[1]);
  if (Math.abs(e) > MAX_DECIMAL_EXPONENT) return undefined;
  return { decimal: e, binary: 0, format: 'DecimalExponent' };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b > 0n ? q + 1n : q;
}

/** Thousandths of the value, rounded up: `100m` → 100, `0.5` → 500, `2` → 2000. */
export function quantityToMilli(q: Quantity): number {
  return Number(ceilDiv(q.nanos, 1_000_000n));
}

/** The value in base units, rounded up like upstream `Value()`: `1.5Gi` → 1610612736, `100m` → 1. */
export function quantityValue(q: Quantity): number {
  return Number(ceilDiv(q.nanos, NANO));
}

/** Orders two quantities by value: negative, zero or positive. */
export function compareQuantity(a: Quantity, b: Quantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

const DECIMAL_BY_EXPONENT: [number, string][] = [
  [18, 'E'],
  [15, 'P'],
  [12, 'T'],
  [9, 'G'],
  [6, 'M'],
  [3, 'k'],
  [0, ''],
  [-3, 'm'],
  [-6, 'u'],
  [-9, 'n'],
];
const BINARY_BY_SHIFT: [number, string][] = [
  [60, 'Ei'],
  [50, 'Pi'],
  [40, 'Ti'],
  [30, 'Gi'],
  [20, 'Mi'],
  [10, 'Ki'],
];

/** The canonical string upstream prints for a quantity (`Quantity.String()`). */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const sign = q.nanos < 0n ? '-' : '';
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  if (q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n) {
    const whole = abs / NANO;
    for (const [shift, suffix] of BINARY_BY_SHIFT) {
      const unit = 1n << BigInt(shift);
      if (whole % unit === 0n) return `${sign}${whole / unit}${suffix}`;
    }
    return `${sign}${whole}`;
  }
  for (const [exp, suffix] of DECIMAL_BY_EXPONENT) {
    const unit = 10n ** BigInt(exp + 9);
    if (abs % unit === 0n) {
      const mantissa = abs / unit;
      if (q.format === 'DecimalExponent') return `${sign}${mantissa}${exp === 0 ? '' : `e${exp}`}`;
      return `${sign}${mantissa}${suffix}`;
    }
  }
  return `${sign}${abs}n`;
}
