/**
 * What a strict decode of an object into upstream's Go types complains about
 * (sigs.k8s.io/json `UnmarshalStrict`, used by apimachinery's strict JSON
 * serializer): keys a struct does not declare — `unknown field
 * "spec.template.spec.containers[0].poarts"` — and keys written twice —
 * `duplicate field "spec.replicas"`, known only for values whose written key
 * order was recorded (`util/keyOrder.ts`). In document order, each message
 * once, at most 100, as upstream's decoder saves them.
 *
 * The one walk behind the API server's field validation (Strict, Warn,
 * Ignore) and the language server's `unknown-field` rule. Maps (labels,
 * data…) accept any key; free-form JSON, IntOrString, Quantity and Time
 * values are not structs; a known field of the wrong shape is not walked
 * (decoding reports its type instead).
 */
import { isPlainObject } from '../util/json';
import { repeatedKeyOrder } from '../util/keyOrder';
import { definition, kindEntry } from './schema';
import type { Definition, SchemaType } from './types';

/** Upstream's cap on saved strict errors (sigs.k8s.io/json `saveStrictError`). */
export const MAX_STRICT_ERRORS = 100;

export interface StrictFieldError {
  kind: 'unknown' | 'duplicate';
  /** The path as upstream prints it: `spec.template.spec.containers[0].poarts`. */
  path: string;
  /** The keys and indices that lead to the field, for finding or removing it. */
  segments: (string | number)[];
  /** For an unknown field: the definition that does not declare it. */
  parent?: Definition;
}

/** `unknown field "spec.foo"`, `duplicate field "spec.replicas"`: upstream's text of one error. */
export function strictErrorText(e: Pick<StrictFieldError, 'kind' | 'path'>): string {
  return `${e.kind} field ${JSON.stringify(e.path)}`;
}

/**
 * The strict decoding errors of `value` read as an instance of `root`, or as free-form JSON (`'any'`: only duplicate
 * fields, as when upstream decodes a patch into a map).
 */
export function strictFieldErrors(value: unknown, root: Definition | 'any'): StrictFieldError[] {
  const walk = new Walk();
  if (root === 'any') walk.visit(value, { kind: 'any' });
  else if (isPlainObject(value)) walk.struct(value, root);
  return walk.found;
}

/** The strict decoding errors of an object of a kind the schema knows; none for other kinds. */
export function strictFieldErrorsOf(obj: Readonly<Record<string, unknown>>): StrictFieldError[] {
  const def = definitionOf(obj);
  return def === undefined ? [] : strictFieldErrors(obj, def);
}

/** The definition an object's apiVersion and kind name, or undefined for kinds the schema does not know. */
export function definitionOf(obj: Readonly<Record<string, unknown>>): Definition | undefined {
  const { apiVersion, kind } = obj;
  const entry = typeof apiVersion === 'string' && typeof kind === 'string' ? kindEntry(apiVersion, kind) : undefined;
  return entry === undefined ? undefined : definition(entry.definition);
}

function pathText(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

/** One walk: the errors found, and the path to where it is (one shared stack, copied only into an error). */
class Walk {
  readonly found: StrictFieldError[] = [];
  private readonly seen = new Set<string>();
  private readonly at: (string | number)[] = [];

  private error(kind: StrictFieldError['kind'], key: string, parent?: Definition): void {
    if (this.found.length >= MAX_STRICT_ERRORS) return;
    const segments = [...this.at, key];
    const e: StrictFieldError = { kind, path: pathText(segments), segments };
    const text = strictErrorText(e);
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.found.push(parent === undefined ? e : { ...e, parent });
  }

  visit(value: unknown, type: SchemaType): void {
    if (Array.isArray(value)) {
      const items = type.kind === 'array' ? type.items : type.kind === 'any' ? type : undefined;
      if (items === undefined) return;
      for (let i = 0; i < value.length; i++) {
        this.at.push(i);
        this.visit(value[i], items);
        this.at.pop();
      }
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const def = type.kind === 'ref' ? definition(type.name) : undefined;
    if (def !== undefined) return this.struct(value as Readonly<Record<string, unknown>>, def);
    if (type.kind === 'map' || type.kind === 'any')
      this.map(value as Readonly<Record<string, unknown>>, type.kind === 'map' ? type.values : type);
  }

  struct(value: Readonly<Record<string, unknown>>, def: Definition): void {
    const repeated = repeatedKeyOrder(value);
    const keys = repeated ?? Object.keys(value);
    const taken = repeated === undefined ? undefined : new Set<string>();
    for (const key of keys) {
      if (!Object.hasOwn(def.properties, key)) {
        this.error('unknown', key, def);
        continue;
      }
      if (taken !== undefined) {
        if (taken.has(key)) {
          this.error('duplicate', key);
          continue;
        }
        taken.add(key);
      }
      this.at.push(key);
      this.visit(value[key], def.properties[key].type);
      this.at.pop();
    }
  }

  /** A map or free-form object: any key, each value of `values`. */
  private map(value: Readonly<Record<string, unknown>>, values: SchemaType): void {
    const repeated = repeatedKeyOrder(value);
    const keys = repeated ?? Object.keys(value);
    const taken = repeated === undefined ? undefined : new Set<string>();
    for (const key of keys) {
      if (taken !== undefined) {
        if (taken.has(key)) {
          this.error('duplicate', key);
          continue;
        }
        taken.add(key);
      }
      this.at.push(key);
      this.visit(value[key], values);
      this.at.pop();
    }
  }
}
