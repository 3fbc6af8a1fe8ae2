/**
 * Helpers for tests that run the real sandbox worker thread: where the tsx
 * bootstraps are, and waiting for a condition with a deadline (no sleeps).
 */
import { fileURLToPath } from 'node:url';
import type { SandboxSettings } from '../../../client/src/sandbox/protocol';

export const WORKER = fileURLToPath(new URL('./tsxWorker.mjs', import.meta.url));
export const CRASHING_WORKER = fileURLToPath(new URL('./crashingWorker.mjs', import.meta.url));
export const SILENT_WORKER = fileURLToPath(new URL('./silentWorker.mjs', import.meta.url));

export const SETTINGS: SandboxSettings = { nodes: 2, speed: 1, seed: 7, selfHeal: true };

/**
 * Resolves with the first truthy value of `probe`, checked now and whenever
 * `subscribe` signals; rejects with `what` after `deadlineMs`. The deadline only
 * turns a hang into a failure that names what never came; it checks no speed. A
 * worker loads the sandbox's TypeScript through tsx before it answers, which took
 * over 15 s on a host at load ~14, so it is generous.
 */
export function until<T>(
  what: string,
  probe: () => T | undefined | false,
  subscribe: (wake: () => void) => { dispose(): void },
  deadlineMs = 120_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const first = probe();
    if (first) return resolve(first);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${deadlineMs} ms waiting for ${what}`));
    }, deadlineMs);
    const sub = subscribe(() => {
      const v = probe();
      if (!v) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(v);
    });
  });
}
