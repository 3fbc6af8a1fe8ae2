/**
 * Appends every item of `items` to `into`. `into.push(...items)` passes each item as an argument, so a list past about
 * 120,000 items (the pods or Events of a large cluster) throws `RangeError: Maximum call stack size exceeded`; this
 * takes any length.
 */
export function appendAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const item of items) into.push(item);
  return into;
}
