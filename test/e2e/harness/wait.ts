/** Waiting on a condition with a deadline: the e2e suite never sleeps a fixed time. */
import { setTimeout as delay } from 'node:timers/promises';

/** How often a condition is looked at again. */
const POLL_MS = 100;

/** Set by `interruptWaits`: every `until` throws it at its next look, until `resumeWaits`. */
let interruption: Error | undefined;

/**
 * Makes every running and later `until` throw `reason` at its next look (within POLL_MS), so that
 * a step that has already failed stops acting instead of running on into the next step.
 */
export function interruptWaits(reason: Error): void {
  interruption = reason;
}

/** Ends `interruptWaits`. */
export function resumeWaits(): void {
  interruption = undefined;
}

/**
 * Resolves with the first value `probe` returns that is not `undefined`;
 * rejects after `timeoutMs` with `what` and the last value `describe` gave
 * (what was seen instead), or the last error `probe` threw.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  describe?: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    if (interruption) throw interruption;
    try {
      const value = await probe();
      if (value !== undefined) return value;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() >= deadline) break;
    await delay(POLL_MS);
  }
  const seen = describe ? await describe().catch((e: unknown) => `(could not describe: ${String(e)})`) : undefined;
  const cause = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen ? `; saw: ${seen}` : ''}${cause}`);
}
