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

/** The recorded written order of `obj`'s keys when it repeats one and names exactly the object's keys. */
export function repeatedKeyOrder(obj: Readonly<Record<string, unknown>>): readonly string[] | undefined {
  const recorded = written.get(obj);
  if (recorded === undefined) return undefined;
  const keys = Object.keys(obj);
  const distinct = new Set(recorded);
  return recorded.length > keys.length && distinct.size === keys.length && keys.every((k) => distinct.has(k))
    ? recorded
    : undefined;
}

/** The keys of `obj` in written order, repeats included (or its own keys when no repeat was recorded). */
export function keysAsWritten(obj: Readonly<Record<string, unknown>>): readonly string[] {
  return repeatedKeyOrder(obj) ?? Object.keys(obj);
}
