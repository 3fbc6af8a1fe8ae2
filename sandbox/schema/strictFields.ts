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

/**
 * The strict decoding errors of `value` read as `type` at `at` (the keys and indices that lead to it, which its errors'
 * paths start with): one member of a larger walk (the API server's one-pass decoding of a body,
 * sandbox/apiserver/decodeBody.ts), with the same memory of frozen values found clean. `member`: `value` is a
 * top-level member of a write body (a status write's `spec` or `metadata`, carried from the stored object), remembered
 * when clean whatever its size (see MEMO_MIN_OBJECTS): a controller writes the same frozen spec many times.
 */
export function strictFieldErrorsAt(
  value: unknown,
  type: SchemaType,
  at: readonly (string | number)[],
  member = false,
): StrictFieldError[] {
  const as =
    typeof value === 'object' && value !== null ? (type.kind === 'ref' ? definition(type.name) : type) : undefined;
  // A frozen value found clean before (as the walk's own first step would find it), without starting a walk.
  if (as !== undefined && walkedClean.get(value as object) === as) return [];
  const walk = new Walk(at);
  const clean = walk.visit(value, type);
  if (member && clean && as !== undefined) walkedClean.set(value as object, as);
  return walk.found;
}

/**
 * Whether `derived` has no strict error read as `as` when `from` (read as `as`) has none and is frozen all the way
 * down: `derived` is frozen, each of its keys is a field `as` declares, and each member is `from`'s own or a primitive
 * (or null), so its walk could find nothing `from`'s did not. The API server's status write stores metadata this way
 * (`{ ...old.metadata }` with a new resourceVersion): sandbox/apiserver/cleanMetadata.ts.
 */
export function cleanLike(derived: object, from: object, as: Definition): boolean {
  if (!Object.isFrozen(derived) || Array.isArray(derived)) return false;
  const members = derived as Readonly<Record<string, unknown>>;
  if (repeatedKeyOrder(members) !== undefined) return false;
  const source = from as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(members)) {
    if (!Object.hasOwn(as.properties, key)) return false;
    const v = members[key];
    if (typeof v === 'object' && v !== null && v !== source[key]) return false;
  }
  return true;
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

export function pathText(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

/**
 * Frozen values already walked without an error, by the definition or type they were read as. A frozen object (what
 * the store and the informer caches hand out, and what a client spreads into its next write) cannot change, so its
 * walk cannot find anything new: a status update that carries its pod's stored spec walks the spec once, not per
 * write. Only a value whose every object and array is frozen is remembered.
 */
const walkedClean = new WeakMap<object, Definition | SchemaType>();
// Every value in walkedClean is frozen (a walk remembers only values frozen all the way down, and frozen stays frozen),
// so the walks look a value up only when it is frozen: the objects a manifest is read into never are.

/**
 * The fewest objects and arrays a clean frozen value must hold to be remembered. V8 makes a WeakMap set of a young key
 * costly, and the more so the more entries the map holds: remembering every clean frozen object (47 a pod, each
 * version) took two thirds of the CPU from the last bind to Running in the 150,000-pod envelope. A small value is
 * cheaper to walk again than to remember; the values worth it (a pod's spec, a ReplicaSet's template) hold dozens.
 */
const MEMO_MIN_OBJECTS = 16;

/** Whether a walk remembered `value` as clean; with `as`, as clean read as that definition or type. */
export function rememberedClean(value: object, as?: Definition | SchemaType): boolean {
  return as === undefined ? walkedClean.has(value) : walkedClean.get(value) === as;
}

/** One walk: the errors found, and the path to where it is (one shared stack, copied only into an error). */
class Walk {
  readonly found: StrictFieldError[] = [];
  /** Every error met, including those left out of `found` (repeats, past the cap). */
  private met = 0;
  /** Objects and arrays walked into so far (a remembered value's count is its own size). */
  private objects = 0;
  private readonly seen = new Set<string>();
  private readonly at: (string | number)[];

  constructor(at: readonly (string | number)[] = []) {
    this.at = [...at];
  }

  private error(kind: StrictFieldError['kind'], key: string, parent?: Definition): void {
    this.met++;
    if (this.found.length >= MAX_STRICT_ERRORS) return;
    const segments = [...this.at, key];
    const e: StrictFieldError = { kind, path: pathText(segments), segments };
    const text = strictErrorText(e);
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.found.push(parent === undefined ? e : { ...e, parent });
  }

  /** Walks `value` as `type`; true when it is frozen all the way down and had no error (a primitive is). */
  visit(value: unknown, type: SchemaType): boolean {
    if (Array.isArray(value)) {
      const items = type.kind === 'array' ? type.items : type.kind === 'any' ? type : undefined;
      if (items === undefined) return Object.isFrozen(value) && deeplyFrozen(value);
      let sealed = Object.isFrozen(value);
      if (sealed && walkedClean.get(value) === type) return true;
      const before = this.met;
      const start = this.objects++;
      for (let i = 0; i < value.length; i++) {
        this.at.push(i);
        if (!this.visit(value[i], items)) sealed = false;
        this.at.pop();
      }
      return this.remember(value, type, sealed, before, start);
    }
    if (value === null || typeof value !== 'object') return true;
    const def = type.kind === 'ref' ? definition(type.name) : undefined;
    if (def !== undefined) return this.struct(value as Readonly<Record<string, unknown>>, def);
    if (type.kind === 'map' || type.kind === 'any')
      return this.map(value as Readonly<Record<string, unknown>>, type.kind === 'map' ? type.values : type, type);
    return Object.isFrozen(value) && deeplyFrozen(value);
  }

  struct(value: Readonly<Record<string, unknown>>, def: Definition): boolean {
    let sealed = Object.isFrozen(value);
    if (sealed && walkedClean.get(value) === def) return true;
    const before = this.met;
    const start = this.objects++;
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
      if (!this.visit(value[key], def.properties[key].type)) sealed = false;
      this.at.pop();
    }
    return this.remember(value, def, sealed && repeated === undefined, before, start);
  }

  /** A map or free-form object: any key, each value of `values`. */
  private map(value: Readonly<Record<string, unknown>>, values: SchemaType, type: SchemaType): boolean {
    let sealed = Object.isFrozen(value);
    if (sealed && walkedClean.get(value) === type) return true;
    const before = this.met;
    const start = this.objects++;
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
      if (!this.visit(value[key], values)) sealed = false;
      this.at.pop();
    }
    return this.remember(value, type, sealed && repeated === undefined, before, start);
  }

  /**
   * Whether a value walked from error count `before` and object count `start` was frozen all the way down and clean;
   * such a value of at least MEMO_MIN_OBJECTS objects is remembered.
   */
  private remember(
    value: object,
    as: Definition | SchemaType,
    sealed: boolean,
    before: number,
    start: number,
  ): boolean {
    if (!sealed || this.met !== before) return false;
    if (this.objects - start >= MEMO_MIN_OBJECTS) walkedClean.set(value, as);
    return true;
  }
}

/** Whether every object and array inside a frozen value is frozen too (for values the walk does not descend into). */
function deeplyFrozen(value: object): boolean {
  for (const v of Object.values(value))
    if (typeof v === 'object' && v !== null && !(Object.isFrozen(v) && deeplyFrozen(v))) return false;
  return true;
}
