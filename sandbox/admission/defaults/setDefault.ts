/** Small helpers for in-place defaulting of untyped JSON. */
import { isObj, type Obj } from '../validation/access';

/** Sets `o[key]` to `value` when it is absent or null. */
export function setDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

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
