/**
 * One step of a field path as server-side apply names it, in the FieldsV1
 * spelling that managedFields store: `f:replicas` (a field), `k:{"name":"web"}`
 * (a list-map item by its keys), `v:"x"` (a set member by value), `i:0` (an
 * index). The spelling is canonical (keys sorted, JSON as Go writes it), so two
 * equal steps are equal strings and a set can key its children by them.
 */

/** `f:<name>`. */
export function fieldElement(name: string): string {
  return `f:${name}`;
}

/** `k:{"containerPort":80,"protocol":"TCP"}`: key fields sorted by name. */
export function keyElement(fields: readonly (readonly [string, unknown])[]): string {
  const sorted = [...fields].sort((a, b) => compareStrings(a[0], b[0]));
  return `k:{${sorted.map(([name, value]) => `${goJson(name)}:${goJson(value)}`).join(',')}}`;
}

/** `v:<json>`: a member of a set list. */
export function valueElement(value: unknown): string {
  return `v:${goJson(value)}`;
}

/** JSON as Go's encoder writes it: object keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function goJson(value: unknown): string {
  if (typeof value === 'string') return escapeGo(JSON.stringify(value));
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort(compareStrings);
    return `{${keys.map((k) => `${escapeGo(JSON.stringify(k))}:${goJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function escapeGo(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]);
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Thrown for a FieldsV1 key that is not a path element. */
export class PathElementError extends Error {}

/**
 * Parses a FieldsV1 key and returns its canonical spelling (`k:` keys
 * re-sorted, JSON re-encoded). Throws PathElementError for anything else.
 */
export function canonicalElement(text: string): string {
  const kind = text.slice(0, 2);
  const rest = text.slice(2);
  switch (kind) {
    case 'f:':
      return text;
    case 'k:': {
      const parsed = parseJson(rest);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new PathElementError(`expected key value pairs in ${JSON.stringify(text)}`);
      return keyElement(Object.entries(parsed));
    }
    case 'v:':
      return valueElement(parseJson(rest));
    case 'i:': {
      if (!/^-?\d+$/.test(rest)) throw new PathElementError(`invalid index in ${JSON.stringify(text)}`);
      return `i:${Number(rest)}`;
    }
    default:
      throw new PathElementError(`unknown path element type in ${JSON.stringify(text)}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new PathElementError((e as Error).message);
  }
}

const KIND_ORDER: Record<string, number> = { 'f:': 0, 'k:': 1, 'v:': 2, 'i:': 3 };
const parsedCache = new Map<string, unknown>();

function parsedValue(element: string): unknown {
  let v = parsedCache.get(element);
  if (v === undefined) {
    v = JSON.parse(element.slice(2)) as unknown;
    if (parsedCache.size > 10_000) parsedCache.clear();
    parsedCache.set(element, v);
  }
  return v;
}

/** structured-merge-diff's order of path elements: fields, then keys, values, indices; each by its own order. */
export function compareElements(a: string, b: string): number {
  if (a === b) return 0;
  const ka = KIND_ORDER[a.slice(0, 2)] ?? 4;
  const kb = KIND_ORDER[b.slice(0, 2)] ?? 4;
  if (ka !== kb) return ka - kb;
  switch (ka) {
    case 0:
      return compareStrings(a.slice(2), b.slice(2));
    case 1:
      return compareFieldLists(Object.entries(parsedValue(a) as object), Object.entries(parsedValue(b) as object));
    case 2:
      return compareValues(parsedValue(a), parsedValue(b));
    case 3:
      return Number(a.slice(2)) - Number(b.slice(2));
    default:
      return compareStrings(a, b);
  }
}

function compareFieldLists(a: [string, unknown][], b: [string, unknown][]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i][0], b[i][0]) || compareValues(a[i][1], b[i][1]);
    if (c !== 0) return c;
  }
}

function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (typeof v === 'object' && v !== null) return 4;
  return 5;
}

/**
 * The total order of JSON values that structured-merge-diff sorts by: numbers < strings < booleans < lists < maps <
 * null.
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number) - (b as number);
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return Number(a) - Number(b);
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length - lb.length;
    }
    case 4: {
      const ea = Object.entries(a as object).sort((x, y) => compareStrings(x[0], y[0]));
      const eb = Object.entries(b as object).sort((x, y) => compareStrings(x[0], y[0]));
      return compareFieldLists(ea, eb);
    }
    default:
      return 0;
  }
}

/** How conflict messages print a step: `.replicas`, `[name="web"]`, `[="x"]`, `[0]`. */
export function elementText(element: string): string {
  const rest = element.slice(2);
  switch (element.slice(0, 2)) {
    case 'f:':
      return `.${rest}`;
    case 'k:':
      return `[${Object.entries(parsedValue(element) as object)
        .map(([k, v]) => `${k}=${valueText(v)}`)
        .join(',')}]`;
    case 'v:':
      return `[=${valueText(parsedValue(element))}]`;
    case 'i:':
      return `[${rest}]`;
    default:
      return '{{invalid path element}}';
  }
}

/** `.spec.template.spec.containers[name="web"].image`. */
export function pathText(path: readonly string[]): string {
  return path.map(elementText).join('');
}

function valueText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(valueText).join(',')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .sort((a, b) => compareStrings(a[0], b[0]))
      .map(([k, x]) => `${k}=${valueText(x)}`)
      .join(';')}}`;
  return String(v);
}
