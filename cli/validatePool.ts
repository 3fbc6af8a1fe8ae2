/**
 * `validate --jobs N`: the files checked by a pool of worker threads, each running {@link checkFile} on one file at
 * a time, with the results put back in the order of the files, so the output is exactly that of `--jobs 1`. The
 * cross-document checks need every file's facts, so they stay on the main thread, after the pool.
 *
 * The worker's script is the CLI bundle itself (dist/cli.js starts {@link serveValidateWorker} when it is not the
 * main thread), or cli/validateWorker.ts when run from source (tests, bench; tsx is inherited through execArgv).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, parentPort, workerData } from 'node:worker_threads';
import type { FoundFile } from './collectFiles';
import { checkFile } from './validateFile';
import type { FileResult } from './validateFile';
import { VALIDATE_WORKER_ROLE } from './validateWorkerRole';
import { setKubernetesVersion } from '../sandbox/schema/schema';

/** What a pool worker is started with. */
interface PoolWorkerData {
  readonly role: typeof VALIDATE_WORKER_ROLE;
  /** The release checked against (the main thread's, already validated). */
  readonly kubernetesVersion: string;
}

type Request = { index: number; file: FoundFile };
type Reply = { index: number; result: FileResult } | { index: number; error: string };

/** Below this many files the default `--jobs` checks in process: starting workers costs more than it saves. */
export const POOL_MIN_FILES = 200;

/** The script a pool worker runs, and whether it is the TypeScript source (run through tsx's CommonJS hook). */
function workerScript(): { path: string; source: boolean } {
  // From source (tsx) this module is cli/validatePool.ts; in the bundle, __filename is dist/cli.js.
  if (__filename.endsWith('.ts')) return { path: join(__dirname, 'validateWorker.ts'), source: true };
  return { path: __filename, source: false };
}

/** A pool worker's loop: check each file the main thread sends, answer with its index. */
export function serveValidateWorker(): void {
  const data = workerData as PoolWorkerData;
  setKubernetesVersion(data.kubernetesVersion);
  parentPort!.on('message', ({ index, file }: Request) => {
    let reply: Reply;
    try {
      reply = { index, result: checkFile(file) };
    } catch (e) {
      reply = { index, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    parentPort!.postMessage(reply);
  });
}

/**
 * Checks `files` with `jobs` workers (at most one per file); results in the order of `files`. Rejects if a worker
 * fails (the CLI reports an internal error), after stopping the others.
 */
export async function checkFilesInPool(
  files: readonly FoundFile[],
  jobs: number,
  kubernetesVersion: string,
): Promise<FileResult[]> {
  const script = workerScript();
  if (!existsSync(script.path)) throw new Error(`the validate worker script is missing: ${script.path}`);
  const results = new Array<FileResult>(files.length);
  const count = Math.max(1, Math.min(jobs, files.length));
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      if (files.length === 0) {
        resolve();
        return;
      }
      const data: PoolWorkerData = { role: VALIDATE_WORKER_ROLE, kubernetesVersion };
      const send = (w: Worker): void => {
        if (next < files.length) {
          const index = next++;
          w.postMessage({ index, file: files[index] } satisfies Request);
        }
      };
      for (let i = 0; i < count; i++) {
        const w = script.source
          ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(script.path)});`, { eval: true, workerData: data })
          : new Worker(script.path, { workerData: data });
        workers.push(w);
        w.on('message', (reply: Reply) => {
          if ('error' in reply) {
            reject(new Error(`checking ${files[reply.index].display} failed: ${reply.error}`));
            return;
          }
          results[reply.index] = reply.result;
          if (++done === files.length) resolve();
          else send(w);
        });
        w.on('error', (e) => reject(e));
        w.on('exit', (code) => {
          if (done < files.length)
            reject(new Error(`a validate worker exited (code ${code}) before its files were done`));
        });
        // Two files in flight per worker, so it never waits for the main thread between files.
        send(w);
        send(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
