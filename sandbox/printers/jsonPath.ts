/**
 * The JSONPath subset of kubectl and of CRD printer columns (client-go util/jsonpath): `.a.b`, `['a.b']`,
 * `[0]`, `[-1]`, `[*]`, `[1:3]`, `..name` (recursive descent) and filters `[?(@.type=="Ready")]` with `==`,
 * `!=`, `<`, `<=`, `>`, `>=` or a bare `@.field` (exists). An optional `{…}` template wrapper is accepted.
 * `findResults` returns every match, in document order.
 */
import { appendAll } from '../util/arrays';

type Step =
  | { t: 'field'; name: string }
  | { t: 'index'; i: number }
  | { t: 'slice'; start?: number; end?: number }
  | { t: 'all' }
  | { t: 'recursive'; name: string | '*' }
  | { t: 'filter'; path: Step[]; op?: string; value?: unknown };

export class JsonPathError extends Error {}

function parseValue(text: string): unknown {
  const t = text.trim();
  if (/^'.*'$/.test(t) || /^".*"$/.test(t)) return t.slice(1, -1);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t !== '' && !Number.isNaN(Number(t))) return Number(t);
  return t;
}

function parseSteps(src: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const name = () => {
    const m = /^[^.[\]\s]*/.exec(src.slice(i))![0];
    i += m.length;
    return m;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '.' && src[i + 1] === '.') {
      i += 2;
      const n = src[i] === '*' ? (i++, '*') : name();
      steps.push({ t: 'recursive', name: n });
    } else if (c === '.') {
      i++;
      if (src[i] === '*') {
        i++;
        steps.push({ t: 'all' });
      } else {
        const n = name();
        if (n !== '') steps.push({ t: 'field', name: n });
      }
    } else if (c === '[') {
      const close = findClose(src, i);
      const inner = src.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ t: 'all' });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ t: 'field', name: inner.slice(1, -1) });
      else if (/^-?\d+$/.test(inner)) steps.push({ t: 'index', i: Number(inner) });
      else if (/^-?\d*:-?\d*$/.test(inner)) {
        const [a, b] = inner.split(':');
        steps.push({ t: 'slice', ...(a !== '' ? { start: Number(a) } : {}), ...(b !== '' ? { end: Number(b) } : {}) });
      } else if (inner.startsWith('?(') && inner.endsWith(')')) {
        const expr = inner.slice(2, -1).trim();
        const m = /^@((?:\.[^\s=!<>]+|\[[^\]]*\])*)\s*(==|!=|<=|>=|<|>)?\s*(.*)$/.exec(expr);
        if (m === null) throw new JsonPathError(`unrecognized filter: ${expr}`);
        steps.push({ t: 'filter', path: parseSteps(m[1]), ...(m[2] ? { op: m[2], value: parseValue(m[3]) } : {}) });
      } else throw new JsonPathError(`unrecognized identifier ${inner}`);
    } else if (/\s/.test(c)) i++;
    else {
      const n = name();
      if (n === '') throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(c)}`);
      steps.push({ t: 'field', name: n });
    }
  }
  return steps;
}

function findClose(src: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new JsonPathError('unterminated array');
}

/** Parses a JSONPath (with or without `{}`); throws JsonPathError for what client-go's parser refuses. */
export function parseJsonPath(path: string): Step[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim();
  if (p.startsWith('$')) p = p.slice(1);
  return parseSteps(p);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b || (typeof a === 'number' && String(a) === String(b));
    case '!=':
      return !(a === b || (typeof a === 'number' && String(a) === String(b)));
    case '<':
      return typeof a === 'number' && typeof b === 'number' && a < b;
    case '<=':
      return typeof a === 'number' && typeof b === 'number' && a <= b;
    case '>':
      return typeof a === 'number' && typeof b === 'number' && a > b;
    case '>=':
      return typeof a === 'number' && typeof b === 'number' && a >= b;
    default:
      return false;
  }
}

function apply(values: unknown[], step: Step): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    switch (step.t) {
      case 'field':
        if (isObj(v) && Object.hasOwn(v, step.name)) out.push(v[step.name]);
        break;
      case 'index':
        if (Array.isArray(v)) {
          const i = step.i < 0 ? v.length + step.i : step.i;
          if (i >= 0 && i < v.length) out.push(v[i]);
        }
        break;
      case 'slice':
        if (Array.isArray(v)) appendAll(out, v.slice(step.start, step.end));
        break;
      case 'all':
        if (Array.isArray(v)) appendAll(out, v);
        else if (isObj(v)) appendAll(out, Object.values(v));
        break;
      case 'recursive': {
        const visit = (x: unknown): void => {
          if (isObj(x)) {
            if (step.name === '*') appendAll(out, Object.values(x));
            else if (Object.hasOwn(x, step.name)) out.push(x[step.name]);
            for (const c of Object.values(x)) visit(c);
          } else if (Array.isArray(x)) for (const c of x) visit(c);
        };
        visit(v);
        break;
      }
      case 'filter':
        if (Array.isArray(v)) {
          for (const item of v) {
            const found = step.path.reduce(apply, [item]);
            if (step.op === undefined ? found.length > 0 : found.some((f) => compare(f, step.op!, step.value)))
              out.push(item);
          }
        }
        break;
    }
  }
  return out;
}

/** Every value `path` selects in `obj` (empty when none). Throws JsonPathError for a path that does not parse. */
export function findResults(obj: unknown, path: string): unknown[] {
  return parseJsonPath(path).reduce(apply, [obj]);
}

/** How kubectl's jsonpath prints one value: strings as they are, everything else as JSON. */
export function jsonPathText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}
