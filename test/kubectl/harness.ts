/**
 * Runs the real `kubectl` against a sandbox served over HTTP in this process:
 * a Cluster on real time × `speed`, the HTTP API on a free port, a kubeconfig
 * and a discovery cache in a temporary folder. Commands run asynchronously so
 * the sandbox keeps serving while kubectl waits; conditions are awaited on the
 * API server's own watch, never with fixed sleeps.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from '../../sandbox/cluster/cluster';
import { SwitchableClock } from '../../sandbox/clock/switchableClock';
import type { KubeObject } from '../../sandbox/api/types';
import { generateToken, startKubeHttpServer } from '../../sandbox/http/server';
import type { KubeHttpServer } from '../../sandbox/http/server';
import { renderKubeconfig } from '../../sandbox/http/kubeconfig';
import { findKubectl as findKubectlBinary } from '../../scripts/kubectl.mjs';
import type { FoundKubectl } from '../../scripts/kubectl.mjs';

export interface KubectlRun {
  code: number;
  stdout: string;
  stderr: string;
}

let found: FoundKubectl | undefined;

/**
 * The kubectl these tests run (scripts/kubectl.mjs): the packaged kubectl v1.32 where it runs
 * (Linux x64, with the devDependency installed), else the kubectl on PATH, else undefined (the
 * tests then skip and say why). Printed once, so the test output says which kubectl ran.
 */
export function findKubectl(): string | undefined {
  if (found === undefined) {
    found = findKubectlBinary();
    console.log(found.bin === undefined ? `# kubectl: none (${found.reason})` : `# kubectl: ${found.found}`);
  }
  return found.bin;
}

/** Why findKubectl() found none: the skip message of these tests. */
export function kubectlMissing(): string {
  const reason = found?.bin === undefined ? found?.reason : undefined;
  return `no kubectl to run (${reason ?? 'not looked for'}): the kubectl session is skipped. Run npm ci (Linux x64) or install kubectl v1.32 to run it.`;
}

export interface KubectlSandbox {
  readonly cluster: Cluster;
  readonly server: KubeHttpServer;
  readonly kubeconfig: string;
  /** The kubectl binary that `kubectl()` runs (findKubectl). */
  readonly bin: string;
  kubectl(...args: string[]): Promise<KubectlRun>;
  /** Resolves when `predicate` holds for the live objects of `resource` (checked now and on every change). */
  until(
    resource: string,
    predicate: (objects: KubeObject[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<void>;
  dispose(): Promise<void>;
}

export async function startKubectlSandbox(options: { speed?: number; nodes?: number } = {}): Promise<KubectlSandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-reconcile-kubectl-'));
  const clock = new SwitchableClock({ start: Date.now(), speed: options.speed ?? 50 });
  const cluster = new Cluster({ clock, nodes: options.nodes ?? 3, seed: 1 });
  cluster.start();
  const token = generateToken();
  const server = await startKubeHttpServer({ cluster, token, port: 0 });
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    renderKubeconfig({ server: server.url, token, certificateAuthority: server.certificateAuthority }),
    { mode: 0o600 },
  );
  const cacheDir = join(dir, 'cache');
  const bin = findKubectl();
  if (bin === undefined) throw new Error(kubectlMissing());

  const kubectl = (...args: string[]): Promise<KubectlRun> =>
    new Promise((resolve) => {
      execFile(
        bin,
        ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args],
        {
          encoding: 'utf8',
          env: { ...process.env, KUBECONFIG: kubeconfig, KUBECTL_EXTERNAL_DIFF: '', NO_COLOR: '1' },
          timeout: 120_000,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });

  const until = (
    resource: string,
    predicate: (objects: KubeObject[]) => boolean,
    what: string,
    timeoutMs = 60_000,
  ): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => predicate(cluster.api.list(resource).items);
      if (check()) return resolve();
      const timer = setTimeout(() => {
        handle.stop();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const handle = cluster.api.watch(resource, { resourceVersion: cluster.api.resourceVersion }, () => {
        if (!check()) return;
        clearTimeout(timer);
        queueMicrotask(() => handle.stop());
        resolve();
      });
    });

  return {
    cluster,
    server,
    kubeconfig,
    bin,
    kubectl,
    until,
    async dispose() {
      await server.close();
      cluster.stop();
      clock.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Splits kubectl's table output into rows of cells (columns are separated by two or more spaces). */
export function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/));
}
