/**
 * JSON values printed as upstream's Go code prints the equivalent
 * `map[string]interface{}`: `fmt.Sprintf("%+v", v)` and `json.Marshal(v)`.
 * Both visit map keys in sorted order, as Go's fmt and encoding/json do.
 */

function sortedKeys(obj: Readonly<Record<string, unknown>>): string[] {
  // Go compares strings bytewise; UTF-16 order agrees for everything but astral characters, which keys rarely hold.
  return Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A number as `%v` prints it. Integers that fit an int64 decode to int64 upstream and print plainly; other numbers
 * are float64, printed by strconv's shortest 'g': exponent form when the exponent is below -4 or at least 6.
 */
function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return n.toFixed(Math.max(0, mantissa.replace(/^-?\d\.?/, '').length - e));
}

/** `fmt.Sprintf("%+v", v)` of a decoded JSON value: `map[spec:map[replicas:3 selector:<nil>]]`, `[a b]`. */
export function goPrint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goPrint).join(' ')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `map[${sortedKeys(obj)
      .map((k) => `${k}:${goPrint(obj[k])}`)
      .join(' ')}]`;
  }
  return String(value);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** `json.Marshal` of a decoded JSON value: compact, keys sorted, `<`, `>` and `&` escaped as Go escapes them. */
export function goJson(value: unknown): string {
  return encode(value).replace(/[<>&\u2028\u2029]/g, (c) => HTML_ESCAPES[c]);
}

function encode(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(encode).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  const obj = value as Record<string, unknown>;
  return `{${sortedKeys(obj)
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${encode(obj[k])}`)
    .join(',')}}`;
}
