/**
 * The real kubectl against the sandbox's Kubernetes API: where the extension
 * wrote its kubeconfig inside code-server's user-data folder, running kubectl
 * with it, and reading kubectl's tables as a user reads them.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findKubectl as findKubectlBinary } from '../../../scripts/kubectl.mjs';
import type { FoundKubectl } from '../../../scripts/kubectl.mjs';

const run = promisify(execFile);

/** The kubeconfig's file name in the extension's storage folder (client/src/config.ts). */
export const KUBECONFIG_NAME = 'kubeconfig.yaml';

/**
 * The kubectl step 8 runs (scripts/kubectl.mjs): the packaged kubectl v1.32 where it runs
 * (Linux x64, with the devDependency installed), else the kubectl on `path`; `found` says which
 * (printed by the suite), `reason` why there is none (the step then skips).
 */
export function findKubectl(path = process.env.PATH ?? ''): FoundKubectl {
  return findKubectlBinary({ path });
}

/**
 * The kubeconfigs the extension `extensionId` wrote under `userDataDir`: its
 * storage folder is `User/workspaceStorage/<workspace>/<extensionId>/` with a
 * folder open, `User/globalStorage/<extensionId>/` without one; the search
 * does not depend on that layout beyond the folder being named after the extension.
 */
export function findKubeconfigs(userDataDir: string, extensionId: string, depth = 5): string[] {
  const found: string[] = [];
  const walk = (dir: string, left: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const sub = join(dir, e.name);
      if (e.name === extensionId && readdirSync(sub).includes(KUBECONFIG_NAME)) found.push(join(sub, KUBECONFIG_NAME));
      else if (left > 0) walk(sub, left - 1);
    }
  };
  walk(userDataDir, depth);
  return found.sort();
}

/** Runs kubectl with `kubeconfig`; resolves with its stdout, rejects with its stderr. */
export async function kubectl(
  bin: string,
  kubeconfig: string,
  cacheDir: string,
  args: readonly string[],
): Promise<string> {
  try {
    const { stdout } = await run(
      bin,
      ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, '--request-timeout', '20s', ...args],
      { timeout: 30_000, encoding: 'utf8' },
    );
    return stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`kubectl ${args.join(' ')} failed: ${err.stderr?.trim() || err.message}`);
  }
}

/**
 * A kubectl table (`kubectl get`'s default output) as rows keyed by column
 * header. A cell ends at the next column's start, so that cells with spaces
 * (`RESTARTS`: `1 (5s ago)`) stay whole.
 */
export function parseTable(text: string): Record<string, string>[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return [];
  const header = lines[0];
  const columns = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], start: m.index }));
  return lines
    .slice(1)
    .map((line) =>
      Object.fromEntries(
        columns.map((c, i) => [
          c.name,
          line.slice(c.start, i + 1 < columns.length ? columns[i + 1].start : undefined).trim(),
        ]),
      ),
    );
}
