/**
 * How a `validate --jobs` pool worker is told apart from the CLI's main thread, apart from validatePool.ts so that
 * the bundle's entry (bin.ts) can ask without loading the checks.
 */
import { isMainThread, workerData } from 'node:worker_threads';

/** The role in a pool worker's `workerData`. */
export const VALIDATE_WORKER_ROLE = 'kube-reconcile-validate';

/** Whether this thread is a `validate` pool worker (the bundle's entry asks before running the CLI). */
export function isValidateWorker(): boolean {
  return !isMainThread && (workerData as { role?: unknown } | null)?.role === VALIDATE_WORKER_ROLE;
}
