/**
 * The static cost estimate of an expression, the way cel-go's checker estimates it for kube-apiserver (upstream:
 * cel-go checker/cost.go with apiserver/pkg/cel/library/cost.go): each step costs 1, string work 0.1 per character,
 * regular expressions by the product of the string's and the pattern's lengths, and a comprehension (`all`,
 * `exists`, `map`, …) its body times the most elements its list or map can hold — `maxItems`, `maxProperties` and
 * `maxLength` from the schema, or, without them, as many as fit in the largest request (3 MiB). The sandbox
 * approximates cel-go's figures (its AST differs); the limits and messages are upstream's.
 */
import type { CelAst } from './engine';
import { escapeProperty } from './escaping';
import type { CelSchema } from './schema';
import { isDynamic, mapValues, propertiesOf } from './schema';

/** kube-apiserver's largest request body (apiserver DefaultMaxRequestSizeBytes), bounding unbounded sizes. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** The fewest bytes one value of `s` takes in JSON (upstream: DeclType.MinSerializedSize). */
export function minSerializedSize(s: CelSchema | undefined): number {
  if (s === undefined || isDynamic(s)) return 1;
  switch (s.type) {
    case 'string':
      return 2;
    case 'boolean':
      return 4;
    case 'integer':
    case 'number':
      return 1;
    default:
      return 2;
  }
}

/** How many items (or entries) a list (or map) can hold: its bound, or as many as fit in one request. */
export function maxElements(s: CelSchema): number {
  if (s.type === 'array')
    return s.maxItems ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(s.items) + 1));
  return s.maxProperties ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(mapValues(s)) + 4));
}

/** The largest `size()` a value of `s` can have. */
export function maxSize(s: CelSchema | undefined): number {
  if (s === undefined || isDynamic(s)) return MAX_REQUEST_SIZE_BYTES;
  if (s.type === 'string') return s.maxLength ?? MAX_REQUEST_SIZE_BYTES - 2;
  if (s.type === 'array' || mapValues(s) !== undefined) return maxElements(s);
  if (s.type === 'object') return Object.keys(propertiesOf(s)).length;
  return 1;
}

interface Estimate {
  cost: number;
  /** The largest size of the value (characters, items, entries). */
  size: number;
  /** The schema of the value, when it is a path into the data. */
  schema?: CelSchema;
}

type Scope = ReadonlyMap<string, CelSchema | undefined>;

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
const STRING_SCANS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'lowerAscii',
  'upperAscii',
  'trim',
  'split',
  'replace',
  'substring',
  'indexOf',
  'lastIndexOf',
  'reverse',
  'join',
  'url',
  'isURL',
  'quantity',
  'isQuantity',
  'ip',
  'isIP',
  'cidr',
  'isCIDR',
  'validate',
]);
const LIST_SCANS = new Set(['isSorted', 'sum', 'min', 'max', 'indexOf', 'lastIndexOf']);

const tenth = (n: number): number => Math.ceil(n * 0.1);

function isAst(x: unknown): x is CelAst {
  return typeof x === 'object' && x !== null && typeof (x as CelAst).op === 'string';
}

function child(schema: CelSchema | undefined, name: string): CelSchema | undefined {
  if (schema === undefined || isDynamic(schema)) return undefined;
  const values = mapValues(schema);
  if (values !== undefined && schema.properties === undefined) return values;
  for (const [prop, s] of Object.entries(propertiesOf(schema))) if (escapeProperty(prop) === name) return s;
  return undefined;
}

function element(schema: CelSchema | undefined): CelSchema | undefined {
  if (schema === undefined) return undefined;
  if (schema.type === 'array') return schema.items;
  if (mapValues(schema) !== undefined) return { type: 'string' }; // comprehensions over maps range over keys
  return undefined;
}

function est(node: unknown, scope: Scope): Estimate {
  if (!isAst(node)) return { cost: 0, size: 0 };
  const args = node.args as unknown[];
  switch (node.op) {
    case 'value': {
      const v = node.args;
      return { cost: 0, size: typeof v === 'string' ? v.length : 1 };
    }
    case 'id': {
      const name = node.args as string;
      const schema = scope.get(name);
      return { cost: 1, size: scope.has(name) ? maxSize(schema) : MAX_REQUEST_SIZE_BYTES, schema };
    }
    case '.':
    case '.?': {
      const obj = est(args[0], scope);
      const schema = child(obj.schema, args[1] as string);
      return { cost: obj.cost + 1, size: maxSize(schema), schema };
    }
    case '[]':
    case '[?]': {
      const obj = est(args[0], scope);
      const idx = est(args[1], scope);
      const schema =
        element(obj.schema) === undefined
          ? undefined
          : obj.schema?.type === 'array'
            ? obj.schema.items
            : mapValues(obj.schema ?? {});
      return { cost: obj.cost + idx.cost + 1, size: maxSize(schema), schema };
    }
    case '&&':
    case '||':
      return { cost: args.reduce((c: number, a) => c + est(a, scope).cost, 0), size: 1 };
    case '?:': {
      const [c, a, b] = args.map((a) => est(a, scope));
      return { cost: c.cost + Math.max(a.cost, b.cost), size: Math.max(a.size, b.size) };
    }
    case '!_':
    case '-_':
      return { cost: est(node.args, scope).cost + 1, size: 1 };
    case 'list': {
      const items = args.map((a) => est(a, scope));
      return { cost: 10 + items.reduce((c, e) => c + e.cost, 0), size: items.length };
    }
    case 'map': {
      const entries = (node.args as unknown[][]).flatMap((e) => e.map((x) => est(x, scope)));
      return { cost: 30 + entries.reduce((c, e) => c + e.cost, 0), size: entries.length / 2 };
    }
    case 'call':
      return call(args[0] as string, undefined, args[1] as unknown[], scope);
    case 'rcall':
      return call(args[0] as string, args[1], args[2] as unknown[], scope);
    default:
      return binary(node.op, args, scope);
  }
}

function binary(op: string, args: unknown[], scope: Scope): Estimate {
  const [l, r] = (Array.isArray(args) ? args : []).map((a) => est(a, scope));
  if (l === undefined || r === undefined) return { cost: 1, size: 1 };
  const base = l.cost + r.cost + 1;
  const strings = l.schema?.type === 'string' || r.schema?.type === 'string';
  switch (op) {
    case '+':
      return { cost: base + (strings ? tenth(l.size + r.size) : 0), size: l.size + r.size };
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return { cost: base + (strings || l.size > 1 ? tenth(Math.min(l.size, r.size)) : 0), size: 1 };
    case 'in':
      return { cost: base + r.size, size: 1 };
    default:
      return { cost: base, size: Math.max(l.size, r.size) };
  }
}

function call(name: string, receiver: unknown, args: unknown[], scope: Scope): Estimate {
  const recv = receiver === undefined ? undefined : est(receiver, scope);
  if (recv !== undefined && MACROS.has(name) && isAst(args[0]) && args[0].op === 'id') {
    const inner = new Map(scope);
    inner.set(args[0].args as string, element(recv.schema));
    const body = args.slice(1).reduce((c: number, a) => c + est(a, inner).cost, 0);
    const size = name === 'map' || name === 'filter' ? recv.size : 1;
    return { cost: recv.cost + recv.size * (body + 1), size };
  }
  if (name === 'has') return { cost: est(args[0], scope).cost, size: 1 };
  if (name === 'bind' && args.length === 3)
    return { cost: est(args[1], scope).cost + est(args[2], scope).cost, size: 1 };
  const parts = args.map((a) => est(a, scope));
  const argCost = parts.reduce((c, e) => c + e.cost, 0) + (recv?.cost ?? 0) + 1;
  const subject = recv ?? parts[0];
  if (name === 'matches' || name === 'find' || name === 'findAll') {
    const str = recv?.size ?? parts[0]?.size ?? 0;
    const pattern = (recv ? parts[0] : parts[1])?.size ?? 0;
    return { cost: argCost + Math.ceil(1 + str * 0.1) * Math.ceil(1 + pattern * 0.25), size: str };
  }
  if (recv !== undefined && LIST_SCANS.has(name) && recv.schema?.type === 'array')
    return { cost: argCost + recv.size, size: 1 };
  if (STRING_SCANS.has(name)) return { cost: argCost + tenth(subject?.size ?? 0), size: subject?.size ?? 1 };
  return { cost: argCost, size: subject?.size ?? 1 };
}

/** The largest cost one evaluation of `ast` can have, with `self` (and `oldSelf`) of schema `self`. */
export function estimateCost(ast: CelAst, variables: ReadonlyMap<string, CelSchema | undefined>): number {
  return est(ast, variables).cost;
}

/** How often a rule on `schema` can run for one object when nothing above bounds it (upstream: maxCardinality). */
export function unboundedCardinality(schema: CelSchema | undefined): number {
  return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(schema) + 1));
}
