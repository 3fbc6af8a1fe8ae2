/** Upstream `SlowStartInitialBatchSize`. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/**
 * Calls `fn` `count` times in batches of 1, 2, 4, … (`slowStartBatch` in
 * pkg/controller/replicaset): a batch with a failure finishes, then the rest
 * are skipped. Returns the number of successes and the first error.
 */
export function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => void,
): { successes: number; error?: unknown } {
  let remaining = count;
  let successes = 0;
  for (let size = Math.min(remaining, initialBatchSize); size > 0; size = Math.min(2 * size, remaining)) {
    let first: { error: unknown } | undefined;
    for (let i = 0; i < size; i++) {
      try {
        fn();
        successes++;
      } catch (error) {
        first ??= { error };
      }
    }
    if (first) return { successes, error: first.error };
    remaining -= size;
  }
  return { successes };
}
