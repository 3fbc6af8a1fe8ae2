/**
 * Server-side apply's operations on objects, by their shape (shape.ts), as
 * structured-merge-diff's typed values do them:
 * - `validateApplied`: is an applied configuration well formed (known fields,
 *   list-map items with their keys, no duplicates)?
 * - `fieldSetOf`: the fields a configuration sets (what its applier will own);
 * - `merge`: the live object with a configuration laid over it (list-maps by
 *   key, sets by value, atomic lists replaced);
 * - `compare`: what changed between two objects, as added/modified/removed paths;
 * - `removeFields`: an object without the given paths.
 * Live objects are read leniently: an unknown field is free-form, a list whose
 * items cannot be keyed is treated as one value.
 */
import { isPlainObject, jsonEqual } from '../../util/json';
import { FieldSet } from './fieldSet';
import { elementText, fieldElement, keyElement, pathText, valueElement } from './pathElement';
import type { Shape } from './shape';
import { DEDUCED } from './shape';

type Obj = Record<string, unknown>;

/** A list-map key that upstream's schema defaults when an item omits it. */
function keyDefault(key: string): unknown {
  return key === 'protocol' ? 'TCP' : undefined;
}

/** The path element of a list item, or why there is none. */
function itemElement(item: unknown, list: Shape): string | { error: string } {
  if (list.relation === 'map' && list.keys.length > 0) {
    if (item === null) return { error: 'associative list with keys may not have a null element' };
    if (!isPlainObject(item)) return { error: 'associative list with keys may not have non-map elements' };
    const fields: [string, unknown][] = [];
    for (const key of list.keys) {
      let v = Object.hasOwn(item, key) ? item[key] : undefined;
      if (v === undefined) v = keyDefault(key);
      if (v === undefined)
        return {
          error: `associative list with keys has an element that omits key field ${JSON.stringify(key)} (and doesn't have default value)`,
        };
      fields.push([key, v]);
    }
    return keyElement(fields);
  }
  if (item === null) return { error: "associative list without keys has an element that's an explicit null" };
  if (Array.isArray(item)) return { error: 'not supported: associative list with lists as elements' };
  if (typeof item === 'object') return { error: "associative list without keys has an element that's a map type" };
  return valueElement(item);
}

/**
 * Items of a granular list by path element, in order; undefined when some item has none or two share one (read as one
 * value then).
 */
function indexList(list: readonly unknown[], shape: Shape): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  for (const item of list) {
    const pe = itemElement(item, shape);
    if (typeof pe !== 'string' || out.has(pe)) return undefined;
    out.set(pe, item);
  }
  return out;
}

function put(obj: Obj, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

function member(obj: Obj, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function isContainerShape(shape: Shape): boolean {
  return shape.kind === 'struct' || shape.kind === 'map' || shape.kind === 'deduced';
}

// ---- validation -----------------------------------------------------------

/** One problem in an applied configuration: `.spec.replicas: expected numeric (int or float), got string`. */
export interface ShapeError {
  path: string;
  message: string;
}

/** Checks an applied configuration against its shape; every problem found (none: well formed). */
export function validateApplied(value: unknown, shape: Shape): ShapeError[] {
  const errors: ShapeError[] = [];
  check(value, shape, [], errors);
  return errors;
}

function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

function check(v: unknown, shape: Shape, path: string[], errors: ShapeError[]): void {
  if (v === null || v === undefined) return;
  const fail = (message: string, at: readonly string[] = path): void =>
    void errors.push({ path: pathText(at), message });
  switch (shape.kind) {
    case 'struct':
    case 'map':
    case 'deduced':
      if (!isPlainObject(v)) {
        if (shape.kind !== 'deduced') fail(`expected map, got ${JSON.stringify(v)}`);
        return;
      }
      for (const [k, x] of Object.entries(v)) {
        const child = shape.field(k);
        path.push(fieldElement(k));
        if (child === undefined) fail('field not declared in schema');
        else check(x, child, path, errors);
        path.pop();
      }
      return;
    case 'list': {
      if (!Array.isArray(v)) return fail(`expected list, got ${JSON.stringify(v)}`);
      const seen = new Set<string>();
      v.forEach((item, i) => {
        const pe = itemElement(item, shape);
        if (typeof pe !== 'string') return fail(`element ${i}: ${pe.error}`);
        if (seen.has(pe)) return fail(`duplicate entries for key ${elementText(pe)}`);
        seen.add(pe);
        path.push(pe);
        check(item, shape.item, path, errors);
        path.pop();
      });
      return;
    }
    case 'scalar':
      if (typeof v === 'object')
        return fail(`expected ${shape.scalar === 'untyped' ? 'scalar' : shape.scalar}, got ${goType(v)}`);
      if (shape.scalar === 'numeric' && typeof v !== 'number')
        return fail(`expected numeric (int or float), got ${goType(v)}`);
      if (shape.scalar === 'string' && typeof v !== 'string') return fail(`expected string, got ${JSON.stringify(v)}`);
      if (shape.scalar === 'boolean' && typeof v !== 'boolean')
        return fail(`expected boolean, got ${JSON.stringify(v)}`);
      return;
    default:
      return;
  }
}

// ---- field sets ----------------------------------------------------------

/**
 * The fields a configuration sets: scalars and atomic values, list items,
 * map entries, and struct fields set to null or `{}` (upstream's ToFieldSet).
 */
export function fieldSetOf(value: unknown, shape: Shape): FieldSet {
  const set = new FieldSet();
  walkSet(value, shape, [], set);
  return set;
}

function walkSet(v: unknown, shape: Shape, path: string[], set: FieldSet): void {
  if (isContainerShape(shape) && isPlainObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      const declared = shape.kind === 'struct' ? shape.field(k) : undefined;
      path.push(fieldElement(k));
      walkSet(x, declared ?? shape.field(k) ?? DEDUCED, path, set);
      if (declared === undefined || x === null || (isPlainObject(x) && Object.keys(x).length === 0)) set.insert(path);
      path.pop();
    }
    return;
  }
  if (shape.kind === 'list' && Array.isArray(v)) {
    const items = indexList(v, shape);
    if (items !== undefined) {
      for (const [pe, item] of items) {
        path.push(pe);
        walkSet(item, shape.item, path, set);
        set.insert(path);
        path.pop();
      }
      return;
    }
  }
  if (v !== null && (shape.kind === 'struct' || shape.kind === 'map' || shape.kind === 'list')) set.insert(path);
  else if (shape.kind === 'scalar' || shape.kind === 'atomic' || shape.kind === 'deduced') set.insert(path);
}

// ---- merge --------------------------------------------------------------

/**
 * `rhs` laid over `lhs`: rhs's values win; objects merge member by member (a
 * member applied as null is dropped, as decoding into a Go struct drops it);
 * granular lists merge item by item in upstream's order; everything else is
 * replaced. Neither input is changed; the result shares untouched parts.
 */
export function merge(lhs: unknown, rhs: unknown, shape: Shape): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined || lhs === null || rhs === null) return rhs;
  if (isContainerShape(shape)) {
    if (!isPlainObject(lhs) || !isPlainObject(rhs)) return rhs;
    const out: Obj = { ...lhs };
    for (const [k, v] of Object.entries(rhs)) {
      if (v === undefined) continue;
      if (v === null && shape.kind !== 'deduced') {
        Reflect.deleteProperty(out, k);
        continue;
      }
      put(out, k, merge(member(lhs, k), v, shape.field(k) ?? DEDUCED));
    }
    return out;
  }
  if (shape.kind === 'list' && Array.isArray(lhs) && Array.isArray(rhs)) return mergeList(lhs, rhs, shape) ?? rhs;
  return rhs;
}

/**
 * Items of both lists: shared items in rhs's order, lhs-only items where they
 * were relative to the shared ones, rhs-only items where rhs puts them
 * (structured-merge-diff's ordering). Undefined when either list cannot be keyed.
 */
function mergeList(lhs: readonly unknown[], rhs: readonly unknown[], shape: Shape): unknown[] | undefined {
  const lMap = indexList(lhs, shape);
  const rMap = indexList(rhs, shape);
  if (lMap === undefined || rMap === undefined) return undefined;
  const lPEs = [...lMap.keys()];
  const rPEs = [...rMap.keys()];
  const shared = rPEs.filter((pe) => lMap.has(pe));
  let si = 0;
  let nextShared: string | undefined = shared[si++];
  const merged = new Set<string>();
  const out: unknown[] = [];
  const item = shape.item;
  let l = 0;
  let r = 0;
  while (l < lPEs.length || r < rPEs.length) {
    if (l < lPEs.length && r < rPEs.length) {
      const pe = lPEs[l];
      if (pe === rPEs[r]) {
        merged.add(pe);
        out.push(merge(lMap.get(pe), rMap.get(pe), item));
        l++;
        r++;
        nextShared = shared[si++];
        continue;
      }
      if (rMap.has(pe) && nextShared !== undefined && nextShared !== pe) {
        l++;
        continue;
      }
    }
    if (l < lPEs.length) {
      const pe = lPEs[l];
      if (!rMap.has(pe)) {
        out.push(lMap.get(pe));
        l++;
        continue;
      }
      if (merged.has(pe)) {
        l++;
        continue;
      }
    }
    if (r < rPEs.length) {
      const pe = rPEs[r];
      merged.add(pe);
      out.push(merge(lMap.get(pe), rMap.get(pe), item));
      r++;
      if (nextShared === pe) nextShared = shared[si++];
    }
  }
  return out;
}

// ---- compare ------------------------------------------------------------

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * What changed from `lhs` to `rhs`: paths only in rhs (every node of an added
 * subtree), paths whose value changed, and paths only in lhs.
 */
export function compare(lhs: unknown, rhs: unknown, shape: Shape): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walkCompare(lhs, rhs, shape, [], c);
  return c;
}

function walkCompare(l: unknown, r: unknown, shape: Shape, path: string[], c: Comparison): void {
  if (l === r) return;
  if (l === undefined) return addAll(r, shape, path, c.added);
  if (r === undefined) return addAll(l, shape, path, c.removed);
  // null stands for an empty value of whatever the other side is (Go's nil list or map): only the contents differ.
  if (l === null && typeof r === 'object') l = Array.isArray(r) ? [] : {};
  else if (r === null && typeof l === 'object' && l !== null) r = Array.isArray(l) ? [] : {};
  if (isContainerShape(shape) && isPlainObject(l) && isPlainObject(r)) {
    for (const k of Object.keys(l)) {
      path.push(fieldElement(k));
      walkCompare(l[k], member(r, k), shape.field(k) ?? DEDUCED, path, c);
      path.pop();
    }
    for (const k of Object.keys(r)) {
      if (member(l, k) !== undefined) continue;
      path.push(fieldElement(k));
      walkCompare(undefined, r[k], shape.field(k) ?? DEDUCED, path, c);
      path.pop();
    }
    return;
  }
  if (shape.kind === 'list' && Array.isArray(l) && Array.isArray(r)) {
    const li = indexList(l, shape);
    const ri = indexList(r, shape);
    if (li !== undefined && ri !== undefined) {
      for (const [pe, item] of ri) {
        path.push(pe);
        walkCompare(li.get(pe), item, shape.item, path, c);
        path.pop();
      }
      for (const [pe, item] of li) {
        if (ri.has(pe)) continue;
        path.push(pe);
        addAll(item, shape.item, path, c.removed);
        path.pop();
      }
      return;
    }
  }
  if (!jsonEqual(l, r)) c.modified.insert(path);
}

/** `path` and every path inside `v`. */
function addAll(v: unknown, shape: Shape, path: string[], set: FieldSet): void {
  if (v === undefined) return;
  set.insert(path);
  if (isContainerShape(shape) && isPlainObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      path.push(fieldElement(k));
      addAll(x, shape.field(k) ?? DEDUCED, path, set);
      path.pop();
    }
  } else if (shape.kind === 'list' && Array.isArray(v)) {
    const items = indexList(v, shape);
    if (items === undefined) return;
    for (const [pe, item] of items) {
      path.push(pe);
      addAll(item, shape.item, path, set);
      path.pop();
    }
  }
}

// ---- removal ------------------------------------------------------------

function isEmptyCollection(v: unknown): boolean {
  return Array.isArray(v) ? v.length === 0 : isPlainObject(v) && Object.keys(v).length === 0;
}

/**
 * Apply's prune: `v` without what `last` (the applier's previous set) holds
 * and nobody in `owned` still owns. A struct field something below is still
 * owned stays (only its unowned parts go); a list item or map entry goes
 * whole, as upstream prunes.
 */
export function pruneFields(v: unknown, last: FieldSet, owned: FieldSet | undefined, shape: Shape): unknown {
  if (last.children.size === 0) return v;
  if (isContainerShape(shape) && isPlainObject(v)) {
    let out: Obj | undefined;
    for (const [pe, node] of last.children) {
      if (!pe.startsWith('f:')) continue;
      const k = pe.slice(2);
      if (!Object.hasOwn(v, k)) continue;
      const mine = owned?.children.get(pe);
      const childShape = shape.field(k) ?? DEDUCED;
      const keepsOwnedParts = shape.kind === 'struct' && mine !== undefined && !mine.isEmpty();
      if (node.self && !mine?.self && !keepsOwnedParts) {
        out ??= { ...v };
        Reflect.deleteProperty(out, k);
        continue;
      }
      const next = pruneFields(v[k], node, mine, childShape);
      if (next === v[k]) continue;
      out ??= { ...v };
      if ((childShape.kind === 'map' || childShape.kind === 'list') && isEmptyCollection(next))
        Reflect.deleteProperty(out, k);
      else put(out, k, next);
    }
    return out ?? v;
  }
  if (shape.kind === 'list' && Array.isArray(v)) {
    let changed = false;
    const out: unknown[] = [];
    for (const item of v) {
      const pe = itemElement(item, shape);
      const node = typeof pe === 'string' ? last.children.get(pe) : undefined;
      const mine = typeof pe === 'string' ? owned?.children.get(pe) : undefined;
      if (node === undefined) out.push(item);
      else if (node.self && !mine?.self) changed = true;
      else {
        const next = pruneFields(item, node, mine, shape.item);
        if (next !== item) changed = true;
        out.push(next);
      }
    }
    return changed ? out : v;
  }
  return v;
}

/**
 * `v` without the members of `set` (a removed member takes everything below it). Returns `v` itself when nothing is
 * removed.
 */
export function removeFields(v: unknown, set: FieldSet, shape: Shape): unknown {
  return pruneFields(v, set, undefined, shape);
}
