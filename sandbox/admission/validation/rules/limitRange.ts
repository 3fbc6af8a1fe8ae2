/**
 * LimitRange items (upstream: pkg/apis/core/validation/validation.go `ValidateLimitRange`,
 * `validateLimitRangeTypeName`): each item's `type` is a qualified name, and one of Pod, Container,
 * PersistentVolumeClaim unless it has a prefix; no type twice; a Pod item has no `default` or `defaultRequest`; a
 * PersistentVolumeClaim item sets a minimum or maximum storage; per resource, min ≤ defaultRequest ≤ default ≤ max,
 * 1 ≤ maxLimitRequestRatio ≤ max/min, and default = defaultRequest for a resource that cannot be overcommitted.
 * Not checked here: the resource names (`validateLimitRangeResourceName`).
 */
import { isQualifiedName } from '../../../api/names';
import type { Quantity } from '../../../api/quantity';
import { compareQuantity, formatQuantity, parseQuantity } from '../../../api/quantity';
import { arr, isObj } from '../access';
import type { FieldError, GoLiteral } from '../fieldError';
import { duplicate, forbidden, goLiteral, invalid, required } from '../fieldError';
import type { ValidationRule } from '../rule';

const STANDARD_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

function typeNameErrors(code: string, value: string, path: string): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => invalid(code, path, value, msg));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !STANDARD_TYPES.has(value))
    return [invalid(code, path, value, 'must be a standard limit type or fully qualified')];
  return [];
}

const DECIMAL_EXPONENTS: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXPONENTS: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const INT64_MAX = 2n ** 63n - 1n;

/**
 * How kube-apiserver 1.32 prints a `resource.Quantity` given as a bad value: `field.Error.ErrorBody` falls back to Go's
 * `%#v` (Quantity is no fmt.Stringer: its `String()` has a pointer receiver), e.g.
 * `resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2",
 * Format:"DecimalSI"}`. `i` is what `ParseQuantity` (apimachinery resource/quantity.go) keeps on its int64 fast path;
 * `s` holds `String()`, which `ValidateLimitRange` calls for its message before the value is boxed. Quantities off the
 * fast path (`1.5Gi`, more than 18 digits) are held as an `*inf.Dec` whose address upstream differs on every run;
 * shown as `0xc000000000`. The value is read from the stored text, which the defaults have put in canonical form.
 */
function goQuantity(text: string, q: Quantity): GoLiteral {
  const shown = (value: bigint, scale: number, dec: string, format: string): GoLiteral =>
    goLiteral(
      `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:${dec}}, s:${JSON.stringify(formatQuantity(q))}, Format:${JSON.stringify(format)}}`,
    );
  if (text === '0') return shown(0n, 0, '(*inf.Dec)(nil)', 'DecimalSI');
  const m = /^([+-]?)0*([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(text);
  if (!m) return shown(0n, 0, '(*inf.Dec)(0xc000000000)', q.format);
  const negative = m[1] === '-';
  const num = m[2] === '' ? '0' : m[2];
  const denom = m[3] ?? '';
  const suffix = m[4];
  let exponent: number;
  let format: string;
  if (DECIMAL_EXPONENTS[suffix] !== undefined) [exponent, format] = [DECIMAL_EXPONENTS[suffix], 'DecimalSI'];
  else if (BINARY_EXPONENTS[suffix] !== undefined) [exponent, format] = [BINARY_EXPONENTS[suffix], 'BinarySI'];
  else [exponent, format] = [Number(suffix.slice(1)), 'DecimalExponent'];
  let scale = 0;
  let precision: number;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  scale -= denom.length;
  if (precision >= 0 && scale >= -9) {
    const value = BigInt(num + denom) * mantissa;
    if (value <= INT64_MAX) return shown(negative ? -value : value, scale, '(*inf.Dec)(nil)', format);
  }
  return shown(0n, 0, '(*inf.Dec)(0xc000000000)', format);
}

/** Upstream `helper.IsOvercommitAllowed`: a native resource (no domain, or `kubernetes.io/`) that is not hugepages. */
function isOvercommitAllowed(name: string): boolean {
  return (!name.includes('/') || name.includes('kubernetes.io/')) && !name.startsWith('hugepages-');
}

/** Upstream `resource.MaxMilliValue`. */
const MAX_MILLI_VALUE = Number((INT64_MAX / 1000n).toString());

/** Go's `%f`. */
function goFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  return x.toFixed(6);
}

/**
 * The comparisons of `ValidateLimitRange` for one item, per resource name (upstream iterates a set, so the order of
 * names is Go's random map order; here it is sorted).
 */
function compareBounds(code: string, item: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const read = (key: string): Map<string, { text: string; q: Quantity }> => {
    const out = new Map<string, { text: string; q: Quantity }>();
    const list = item[key];
    if (!isObj(list)) return out;
    for (const [k, v] of Object.entries(list)) {
      if (typeof v !== 'string' && typeof v !== 'number') continue;
      const q = parseQuantity(v);
      if (q) out.set(k, { text: String(v), q });
    }
    return out;
  };
  const min = read('min');
  const max = read('max');
  const isPod = item.type === 'Pod';
  const defaults = isPod ? new Map() : read('default');
  const defaultRequests = isPod ? new Map() : read('defaultRequest');
  const ratios = read('maxLimitRequestRatio');
  const keys = [
    ...new Set([...max.keys(), ...min.keys(), ...defaults.keys(), ...defaultRequests.keys(), ...ratios.keys()]),
  ].sort();
  const one = parseQuantity('1') as Quantity;
  for (const k of keys) {
    const lo = min.get(k);
    const hi = max.get(k);
    const def = defaults.get(k);
    const req = defaultRequests.get(k);
    const ratio = ratios.get(k);
    const s = (x: { q: Quantity }): string => formatQuantity(x.q);
    const at = (key: string): string => `${path}.${key}[${k}]`;
    const bad = (field: string, value: { text: string; q: Quantity }, detail: string): void => {
      errs.push(invalid(code, field, goQuantity(value.text, value.q), detail));
    };
    if (lo && hi && compareQuantity(lo.q, hi.q) > 0)
      bad(at('min'), lo, `min value ${s(lo)} is greater than max value ${s(hi)}`);
    if (req && lo && compareQuantity(lo.q, req.q) > 0)
      bad(at('defaultRequest'), req, `min value ${s(lo)} is greater than default request value ${s(req)}`);
    if (req && hi && compareQuantity(req.q, hi.q) > 0)
      bad(at('defaultRequest'), req, `default request value ${s(req)} is greater than max value ${s(hi)}`);
    if (req && def && compareQuantity(req.q, def.q) > 0)
      bad(at('defaultRequest'), req, `default request value ${s(req)} is greater than default limit value ${s(def)}`);
    if (def && lo && compareQuantity(lo.q, def.q) > 0)
      bad(at('default'), lo, `min value ${s(lo)} is greater than default value ${s(def)}`);
    if (def && hi && compareQuantity(def.q, hi.q) > 0)
      bad(at('default'), hi, `default value ${s(def)} is greater than max value ${s(hi)}`);
    if (ratio && compareQuantity(ratio.q, one) < 0)
      bad(at('maxLimitRequestRatio'), ratio, `ratio ${s(ratio)} is less than 1`);
    if (ratio && lo && hi) {
      let ratioValue = ratio.q.value();
      let minValue = lo.q.value();
      let maxValue = hi.q.value();
      if (ratioValue < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
        ratioValue = ratio.q.milli() / 1000;
        minValue = lo.q.milli();
        maxValue = hi.q.milli();
      }
      const limit = maxValue / minValue;
      if (ratioValue > limit)
        bad(at('maxLimitRequestRatio'), ratio, `ratio ${s(ratio)} is greater than max/min = ${goFloat(limit)}`);
    }
    if (!isOvercommitAllowed(k) && def && req && compareQuantity(def.q, req.q) !== 0)
      bad(at('defaultRequest'), req, `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`);
  }
  return errs;
}

function nonEmpty(v: unknown): boolean {
  return isObj(v) && Object.keys(v).length > 0;
}

export const limitRangeSpec: ValidationRule = {
  code: 'limit-range',
  description:
    'Each limit has a type (Pod, Container, PersistentVolumeClaim or a prefixed name), no type twice; a Pod limit has no default or defaultRequest; a PersistentVolumeClaim limit sets min or max storage; min ≤ defaultRequest ≤ default ≤ max and 1 ≤ maxLimitRequestRatio ≤ max/min.',
  kinds: ['LimitRange'],
  validate(o) {
    const code = this.code;
    const errs: FieldError[] = [];
    if (!isObj(o.spec)) return errs;
    const seen = new Set<string>();
    arr(o.spec, 'limits').forEach((item, i) => {
      if (!isObj(item)) return;
      const path = `spec.limits[${i}]`;
      // A left-out type decodes as "".
      const type = typeof item.type === 'string' ? item.type : '';
      errs.push(...typeNameErrors(code, type, `${path}.type`));
      if (seen.has(type)) errs.push(duplicate(code, `${path}.type`, type));
      seen.add(type);
      if (type === 'Pod') {
        if (nonEmpty(item.default))
          errs.push(forbidden(code, `${path}.default`, "may not be specified when `type` is 'Pod'"));
        if (nonEmpty(item.defaultRequest))
          errs.push(forbidden(code, `${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
      }
      if (type === 'PersistentVolumeClaim') {
        const min = isObj(item.min) ? item.min : {};
        const max = isObj(item.max) ? item.max : {};
        if (min.storage === undefined && max.storage === undefined)
          errs.push(
            required(
              code,
              `${path}.limits`,
              'either minimum or maximum storage value is required, but neither was provided',
            ),
          );
      }
      // Upstream ValidateLimitRange: min ≤ defaultRequest ≤ default ≤ max, 1 ≤ ratio ≤ max/min.
      errs.push(...compareBounds(code, item, path));
    });
    return errs;
  },
};
