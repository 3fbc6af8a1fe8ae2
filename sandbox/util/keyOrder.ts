/**
 * The keys of a JSON object as they were written, repeats included. A parsed
 * JavaScript object keeps one entry per key (the last value wins), so a
 * decoder that saw a key twice records the written order here; strict field
 * validation reads it to report `duplicate field "spec.replicas"` as
 * upstream's strict JSON decoding does. Objects nobody recorded answer their
 * own keys.
 */

const written = new WeakMap<object, readonly string[]>();

/** Records that `obj` was written with `keys`, in this order (repeats included). */
export function recordKeyOrder(obj: object, keys: readonly string[]): void {
  written.set(obj, keys);
}

/**
 * The keys of `obj` in written order, repeats included: the recorded order when it names exactly the object's keys,
 * otherwise `Object.keys(obj)`.
 */
export function keysAsWritten(obj: Readonly<Record<string, unknown>>): readonly string[] {
  const keys = Object.keys(obj);
  const recorded = written.get(obj);
  if (recorded === undefined) return keys;
  const distinct = new Set(recorded);
  return distinct.size === keys.length && keys.every((k) => distinct.has(k)) ? recorded : keys;
}
