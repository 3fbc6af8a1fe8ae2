/**
 * `fn` with its answers remembered by `keyOf` of its arguments, for a pure `fn` whose few distinct inputs recur in
 * every object (quantity texts, policy expressions, JSON keys). Bounded: once `limit` keys are held, a new key is
 * computed every time, nothing evicted. An `undefined` answer is not remembered.
 */
export function boundedMemo<A extends unknown[], V>(
  limit: number,
  keyOf: (...args: A) => string,
  fn: (...args: A) => V,
): (...args: A) => V {
  const known = new Map<string, V>();
  return (...args: A): V => {
    const key = keyOf(...args);
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const value = fn(...args);
    if (known.size < limit) known.set(key, value);
    return value;
  };
}
