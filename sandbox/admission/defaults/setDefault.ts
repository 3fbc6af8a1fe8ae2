/**
 * Small helpers for in-place defaulting of untyped JSON. A default itself is written `o.field ??= value` at its own
 * site (set when absent or null, as Go's defaulting of a nil pointer): one named property per site, where a shared
 * `setDefault(o, key, value)` read and wrote every default through one keyed access of every shape.
 */
import { isObj, type Obj } from '../validation/access';

/** The object at `o[key]`, created when absent. Returns undefined when something else is there. */
export function ensureObj(o: Obj, key: string): Obj | undefined {
  if (o[key] === undefined || o[key] === null) o[key] = {};
  const v = o[key];
  return isObj(v) ? v : undefined;
}

/** Calls `fn` on each object element of the array at `o[key]`. */
export function eachObj(o: Obj | undefined, key: string, fn: (item: Obj) => void): void {
  const list = o?.[key];
  if (Array.isArray(list)) for (const item of list) if (isObj(item)) fn(item);
}
