/**
 * Plain-JSON helpers used on every write: copy-with-checks, structural
 * equality and deep freezing. Stored objects are frozen and shared; anything
 * that wants to change one copies it first (as with client-go's caches).
 */

export interface CopyLimits {
  /** Deepest nesting accepted (objects and arrays). */
  maxDepth: number;
  /** Rough byte budget (string lengths plus keys), checked while copying. */
  maxBytes: number;
}

export const DEFAULT_COPY_LIMITS: CopyLimits = { maxDepth: 100, maxBytes: 3 * 1024 * 1024 };

/** Why a value could not be copied as JSON. */
export class JsonCopyError extends Error {
  constructor(
    message: string,
    readonly kind: 'depth' | 'size' | 'type',
  ) {
    super(message);
    this.name = 'JsonCopyError';
  }
}

/**
 * Deep-copies a JSON value, refusing anything that is not JSON (functions,
 * symbols, non-finite numbers, class instances, cycles) and anything deeper
 * or larger than the limits. `undefined` object members are dropped.
 */
export function copyJson<T>(value: T, limits: CopyLimits = DEFAULT_COPY_LIMITS): T {
  return copyJsonCounted(value, limits).value;
}

/**
 * `copyJson`, also saying how many nulls the copy holds (an `undefined` array item becomes one), so a caller can
 * skip a pass over nulls.
 */
export function copyJsonCounted<T>(value: T, limits: CopyLimits = DEFAULT_COPY_LIMITS): { value: T; nulls: number } {
  const budget = { bytes: 0, nulls: 0 };
  const out = copy(value, 0, limits, budget) as T;
  return { value: out, nulls: budget.nulls };
}

/** A checked copy of an object's members, and which of them hold a null (see `copyMembersCounted`). */
export interface MembersCopy {
  value: Record<string, unknown>;
  /** The copied members whose value is or holds a null (an `undefined` array item counts), in key order. */
  nullMembers: string[];
}

/**
 * `copyJsonCounted` of a plain object, saying which top-level members hold nulls, so a caller's pass over nulls
 * visits only those. With `keep`, only the members it names are copied: the others are checked all the same (the
 * same errors, limits counted over the whole value, in the same order) but left out of the copy — a status write
 * checks the whole body and keeps its status and metadata. Checking a deeply frozen member (a stored object's spec
 * that a client spread into its write) is remembered, so it costs one lookup the next time.
 */
export function copyMembersCounted(
  value: Record<string, unknown>,
  limits: CopyLimits = DEFAULT_COPY_LIMITS,
  keep?: ReadonlySet<string>,
): MembersCopy {
  const budget = { bytes: 0, nulls: 0 };
  if (limits.maxDepth <= 0)
    throw new JsonCopyError(`object nesting exceeds the maximum depth of ${limits.maxDepth}`, 'depth');
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    throw new JsonCopyError('only plain JSON objects can be stored', 'type');
  const out: Record<string, unknown> = {};
  const nullMembers: string[] = [];
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    budget.bytes += key.length + 4;
    const before = budget.nulls;
    if (keep === undefined || keep.has(key)) {
      setMember(out, key, copy(v, 1, limits, budget));
      if (budget.nulls !== before) nullMembers.push(key);
    } else measureMember(v, limits, budget);
  }
  return { value: out, nullMembers };
}

/** What checking a deeply frozen member found: its bytes, nulls and nesting (objects and arrays, itself included). */
interface Measured {
  bytes: number;
  nulls: number;
  height: number;
}

/** Members checked without a copy, frozen all the way down: checking one again only adds up what it holds. */
const measuredFrozen = new WeakMap<object, Measured>();

/**
 * `measure` of a top-level member (at depth 1), remembered when it is frozen all the way down. Exported for the API
 * server's one-pass decoding of a body (sandbox/apiserver/decodeBody.ts), which checks its members as this file does.
 */
export function measureMember(value: unknown, limits: CopyLimits, budget: Budget): void {
  if (typeof value !== 'object' || value === null) {
    copy(value, 1, limits, budget);
    return;
  }
  const known = measuredFrozen.get(value);
  if (known !== undefined && 1 + known.height <= limits.maxDepth && budget.bytes + known.bytes <= limits.maxBytes) {
    budget.bytes += known.bytes;
    budget.nulls += known.nulls;
    return;
  }
  const bytes0 = budget.bytes;
  const nulls0 = budget.nulls;
  const counter = { open: 0 };
  const height = measure(value, 1, limits, budget, counter);
  if (counter.open === 0)
    measuredFrozen.set(value, { bytes: budget.bytes - bytes0, nulls: budget.nulls - nulls0, height });
}

/**
 * `measure` of a value at `depth`, nothing remembered: for a value made anew at each write (a status write's
 * carried stored metadata, sandbox/apiserver/decodeBody.ts), which a `WeakMap` entry would cost more to remember
 * than to measure (a young key's entry is dear: see bench/RESULTS.md, "a WeakMap cliff").
 */
export function measureChecked(value: unknown, depth: number, limits: CopyLimits, budget: Budget): void {
  measure(value, depth, limits, budget, { open: 0 });
}

/**
 * `copy` without the copy: the same checks in the same order, adding to `budget`; counts the objects and arrays
 * that are not frozen in `counter.open`. Returns the nesting of `value` (0 for a primitive).
 */
function measure(value: unknown, depth: number, limits: CopyLimits, budget: Budget, counter: { open: number }): number {
  if (typeof value !== 'object' || value === null) {
    copy(value, depth, limits, budget);
    return 0;
  }
  if (depth >= limits.maxDepth)
    throw new JsonCopyError(`object nesting exceeds the maximum depth of ${limits.maxDepth}`, 'depth');
  if (!Object.isFrozen(value)) counter.open++;
  let height = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v === undefined) budget.nulls++;
      else {
        const h = measure(v, depth + 1, limits, budget, counter);
        if (h > height) height = h;
      }
    }
    budget.bytes += value.length + 2;
    return height + 1;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    throw new JsonCopyError('only plain JSON objects can be stored', 'type');
  // for…in: a plain object's own keys in Object.keys' order (prototype checked above), no array of keys allocated.
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    budget.bytes += key.length + 4;
    const h = measure(v, depth + 1, limits, budget, counter);
    if (h > height) height = h;
  }
  return height + 1;
}

/** What a checked copy has counted so far: bytes against `maxBytes`, and the nulls it met. */
export interface Budget {
  bytes: number;
  nulls: number;
}

/**
 * The checked copy of one value at `depth` (see `copyJson`), adding to `budget`. Exported for the API server's
 * one-pass decoding of a body (sandbox/apiserver/decodeBody.ts), which copies what it does not read by a schema here.
 */
export function copyChecked(value: unknown, depth: number, limits: CopyLimits, budget: Budget): unknown {
  return copy(value, depth, limits, budget);
}

function copy(value: unknown, depth: number, limits: CopyLimits, budget: Budget): unknown {
  switch (typeof value) {
    case 'string':
      budget.bytes += value.length + 2;
      if (budget.bytes > limits.maxBytes)
        throw new JsonCopyError(`object is larger than the limit of ${limits.maxBytes} bytes`, 'size');
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new JsonCopyError(`${value} is not a JSON number`, 'type');
      budget.bytes += 8;
      return value;
    case 'boolean':
      budget.bytes += 5;
      return value;
    case 'object': {
      if (value === null) {
        budget.nulls++;
        return null;
      }
      if (depth >= limits.maxDepth)
        throw new JsonCopyError(`object nesting exceeds the maximum depth of ${limits.maxDepth}`, 'depth');
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          if (value[i] !== undefined) out[i] = copy(value[i], depth + 1, limits, budget);
          else {
            out[i] = null;
            budget.nulls++;
          }
        }
        budget.bytes += value.length + 2;
        return out;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null)
        throw new JsonCopyError('only plain JSON objects can be stored', 'type');
      const out: Record<string, unknown> = {};
      // for…in: a plain object's own keys in Object.keys' order (prototype checked above), no array of keys allocated.
      for (const key in value) {
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) continue;
        budget.bytes += key.length + 4;
        setMember(out, key, copy(v, depth + 1, limits, budget));
      }
      return out;
    }
    default:
      throw new JsonCopyError(`a ${typeof value} is not a JSON value`, 'type');
  }
}

/** Fast deep copy for values already known to be JSON (e.g. read from the store). */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) setMember(out, key, cloneJson(v));
  }
  return out as T;
}

/** Assigns `key`, treating `__proto__` (which JSON.parse yields as an ordinary key) as data, not as the prototype. */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Structural equality of JSON values; object key order does not matter, `undefined` members equal absent ones. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // A plain object's members by for…in: its own keys in Object.keys' order, without the array of keys Object.keys
  // allocates (two a pair of objects compared, on every write: issue 16, allocation per write). Others by their keys.
  if (!ownKeysOnly(ao) || !ownKeysOnly(bo)) return sameMembersByKeys(ao, bo);
  let count = 0;
  for (const key in ao) {
    const v = ao[key];
    if (v === undefined) continue;
    count++;
    if (!jsonEqual(v, bo[key])) return false;
  }
  for (const key in bo) if (bo[key] !== undefined) count--;
  return count === 0;
}

/** A plain object (prototype `Object.prototype` or null): for…in visits exactly its own enumerable keys. */
function ownKeysOnly(o: object): boolean {
  const proto: unknown = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}

function sameMembersByKeys(ao: Record<string, unknown>, bo: Record<string, unknown>): boolean {
  let count = 0;
  for (const key of Object.keys(ao)) {
    if (ao[key] === undefined) continue;
    count++;
    if (!jsonEqual(ao[key], bo[key])) return false;
  }
  for (const key of Object.keys(bo)) if (bo[key] !== undefined) count--;
  return count === 0;
}

/** Freezes a JSON value and everything inside it; returns it for chaining. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'object' && v !== null) deepFreeze(v);
    }
  } else {
    const obj = value as Record<string, unknown>;
    for (const key in obj) {
      const v = obj[key];
      if (typeof v === 'object' && v !== null) deepFreeze(v);
    }
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How deeply encoding/json lets JSON nest: `maxNestingDepth` in Go's
 * encoding/json/scanner.go, shared by every decoder kube-apiserver uses
 * (sigs.k8s.io/json is a fork of it). Past it Go's scanner stops with
 * `invalid character '[' exceeded max depth`.
 */
export const GO_JSON_MAX_DEPTH = 10_000;

/** How a JSON text nests: its deepest level, and the first bracket that opens a level past `limit`. */
export interface JsonNesting {
  deepest: number;
  overflow?: { offset: number; bracket: '{' | '[' };
}

/**
 * Measures the nesting of JSON text in one pass without recursion (string
 * contents are skipped), so a body can be refused before anything walks it.
 * Stops at the first bracket past `limit`. Invalid JSON is measured as far as
 * its brackets go; parsing it reports the rest.
 */
export function jsonNesting(text: string, limit: number = GO_JSON_MAX_DEPTH): JsonNesting {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth > limit) return { deepest, overflow: { offset: i, bracket: c === 0x7b ? '{' : '[' } };
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return { deepest };
}

/**
 * Whether a value holds objects or arrays nested more than `limit` levels
 * (the outermost one is level 1), walked without recursion; a cycle counts as
 * endlessly deep.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, level] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (level > limit) return true;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, level + 1]);
  }
  return false;
}
