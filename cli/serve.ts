/**
 * `kube-reconcile serve [files or folders…]`: runs a sandbox cluster in real
 * time (× --speed) and serves its Kubernetes API over HTTP on 127.0.0.1, so
 * kubectl and client libraries can use it. Writes a kubeconfig of its own
 * (never ~/.kube/config), applies the given manifests, and runs until
 * Ctrl+C; with --state the cluster is restored from and saved to a file.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isApiError } from '../sandbox/api/errors';
import type { ApiServer } from '../sandbox/apiserver/apiServer';
import { restoreSnapshot, snapshotFailedNodes, takeSnapshot } from '../sandbox/apiserver/snapshot';
import { SeededRandom } from '../sandbox/clock/random';
import { SwitchableClock } from '../sandbox/clock/switchableClock';
import { Cluster } from '../sandbox/cluster/cluster';
import { exportKubeconfig, renderKubeconfig, writePrivateFile } from '../sandbox/http/kubeconfig';
import { generateToken, startKubeHttpServer } from '../sandbox/http/server';
import type { KubeHttpServer } from '../sandbox/http/server';
import { isPlainObject } from '../sandbox/util/json';
import {
  KUBERNETES_VERSION_HELP,
  KUBERNETES_VERSION_OPTION,
  UsageError,
  parseArgs,
  useKubernetesVersion,
} from './args';
import type { OptionSpecs } from './args';
import { EXIT_ERRORS, EXIT_OK } from './io';
import type { CliIo } from './io';
import { loadManifests, rejectionAt } from './simulate/loadManifests';
import type { LoadedManifest } from './simulate/loadManifests';

/** The fastest clock `--speed` accepts: beyond it, timers fire in bursts too large to serve requests between. */
export const MAX_SPEED = 100;

export const SERVE_OPTIONS: OptionSpecs = {
  port: { type: 'string', short: 'p' },
  kubeconfig: { type: 'string' },
  state: { type: 'string' },
  nodes: { type: 'string' },
  seed: { type: 'string' },
  speed: { type: 'string' },
  'kubernetes-version': KUBERNETES_VERSION_OPTION,
  help: { type: 'boolean', short: 'h' },
};

export const SERVE_HELP = `Usage: kube-reconcile serve [files or folders...] [options]

Runs a sandbox cluster (API server, controllers, scheduler, kubelets) in real
time and serves its Kubernetes API over HTTP on 127.0.0.1, so kubectl and
client libraries can use it. Applies the given manifests first, writes a
kubeconfig for the API, and runs until Ctrl+C (SIGINT) or SIGTERM.

Options:
  -p, --port P          port to listen on (default 0: any free port)
  --kubeconfig FILE     where to write the kubeconfig (default
                        ~/.kube/kube-reconcile.yaml; never ~/.kube/config)
  --state FILE          restore the cluster from FILE when it exists, and save
                        it there on exit (without --state nothing is saved)
  --nodes N             nodes in the cluster (default 3: node-1 … node-N)
  --seed S              seed for every random choice (default 1)
  --speed X             how fast the cluster's clock runs against real time
                        (default 1; at most ${MAX_SPEED})
  ${KUBERNETES_VERSION_HELP}
  -h, --help            show this help

Then, in another terminal:
  export KUBECONFIG=~/.kube/kube-reconcile.yaml
  kubectl get pods -A

Exit codes: 0 stopped cleanly, 1 could not start (a manifest unreadable or
refused by the API server, port in use, unreadable --state file, kubeconfig
not writable) or could not save the state, 2 usage error.
`;

/** Where the API listens, for a caller that runs `serve` in-process. */
export interface ServeListening {
  url: string;
  kubeconfig: string;
  token: string;
}

/** What `runServe` takes besides the command line; the defaults are the process's own. */
export interface ServeHooks {
  /** Stops the server when aborted (default: SIGINT or SIGTERM). */
  stop?: AbortSignal;
  /** Called once the API answers, with its URL and the kubeconfig written. */
  onListening?: (listening: ServeListening) => void;
  /** Home folder for the default kubeconfig path (default: the user's). */
  home?: string;
  /** Wall-clock time a fresh cluster starts at (default: now). */
  now?: () => number;
}

interface Plan {
  files: string[];
  port: number;
  kubeconfig: string;
  state?: string;
  nodes: number;
  seed: string;
  speed: number;
}

function plan(args: readonly string[], cwd: string, home: string): Plan | 'help' {
  const { options: o, positionals } = parseArgs(args, SERVE_OPTIONS);
  if (o.help === true) return 'help';
  useKubernetesVersion(o['kubernetes-version']);
  const port = o.port === undefined ? 0 : Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port needs a whole number from 0 to 65535, got "${String(o.port)}"`);
  const nodes = o.nodes === undefined ? 3 : Number(o.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 5000)
    throw new UsageError(`--nodes needs a whole number from 1 to 5000, got "${String(o.nodes)}"`);
  const speed = o.speed === undefined ? 1 : Number(o.speed);
  if (!Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED)
    throw new UsageError(`--speed needs a number above 0 and at most ${MAX_SPEED}, got "${String(o.speed)}"`);
  const kubeconfig =
    typeof o.kubeconfig === 'string' ? resolve(cwd, o.kubeconfig) : join(home, '.kube', 'kube-reconcile.yaml');
  if (kubeconfig === join(home, '.kube', 'config'))
    throw new UsageError(
      '--kubeconfig must not be ~/.kube/config: serve writes a kubeconfig of its own and never touches yours',
    );
  return {
    files: [...positionals],
    port,
    kubeconfig,
    state: typeof o.state === 'string' ? resolve(cwd, o.state) : undefined,
    nodes,
    seed: typeof o.seed === 'string' ? o.seed : '1',
    speed,
  };
}

/** The parsed `--state` file, `undefined` when it does not exist yet; throws with the reason when it cannot be read. */
async function readState(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`not JSON: ${(e as Error).message}`);
  }
}

/** When a snapshot was taken (ms since epoch): a restored clock continues from there, as the extension's does. */
function savedTime(data: unknown): number | undefined {
  return isPlainObject(data) && typeof data.time === 'number' && Number.isFinite(data.time) ? data.time : undefined;
}

/**
 * A clock and, with a state file, the API server restored from it and the nodes it saved failed (those of node-1 …
 * node-N: their kubelets stay stopped); throws (SnapshotError…) for a bad file.
 */
async function prepare(
  p: Plan,
  now: () => number,
): Promise<{ clock: SwitchableClock; api?: ApiServer; failedNodes?: string[] }> {
  const data = p.state ? await readState(p.state) : undefined;
  const clock = new SwitchableClock({ start: savedTime(data) ?? now(), speed: p.speed });
  if (data === undefined) return { clock };
  try {
    const api = restoreSnapshot(data, { clock, random: new SeededRandom(p.seed).fork('apiserver') });
    const names = new Set(Array.from({ length: p.nodes }, (_, i) => `node-${i + 1}`));
    return { clock, api, failedNodes: snapshotFailedNodes(data).filter((n) => names.has(n)) };
  } catch (e) {
    clock.dispose();
    throw e;
  }
}

/**
 * Applies the manifests as `kubectl apply` does (strict field validation); each rejection is printed as
 * `file:line: message`. Returns how many were rejected.
 */
function applyFiles(cluster: Cluster, manifests: readonly LoadedManifest[], io: CliIo): number {
  let rejected = 0;
  for (const m of manifests) {
    try {
      io.stdout.write(`${cluster.apply(m.object).message}\n`);
    } catch (e) {
      if (!isApiError(e)) throw e;
      rejected++;
      io.stderr.write(`${rejectionAt(m, e)}: ${e.message}\n`);
    }
  }
  return rejected;
}

async function listen(cluster: Cluster, port: number, token: string): Promise<KubeHttpServer> {
  try {
    return await startKubeHttpServer({ cluster, port, token });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(
        `port ${port} on 127.0.0.1 is already in use; choose another with --port, or --port 0 for a free one`,
      );
    if (code === 'EACCES')
      throw new Error(
        `not allowed to listen on port ${port} of 127.0.0.1; choose a port above 1023, or --port 0 for a free one`,
      );
    throw new Error(`cannot listen on 127.0.0.1:${port}: ${(e as Error).message}`);
  }
}

function banner(p: Plan, url: string, restored: boolean): string {
  const state = p.state
    ? `${restored ? 'restored from' : 'a fresh cluster, saved on exit to'} ${p.state}${restored ? ' (saved there again on exit)' : ''}`
    : 'not saved (use --state FILE to keep the cluster between runs)';
  return [
    `Serving the Kubernetes API of the sandbox at ${url} (${p.nodes} node${p.nodes === 1 ? '' : 's'}, seed ${p.seed}, speed ${p.speed}×)`,
    `Kubeconfig: ${p.kubeconfig}`,
    `State: ${state}`,
    '',
    'Use it with kubectl:',
    `  ${exportKubeconfig(p.kubeconfig)}`,
    '  kubectl get pods -A',
    '',
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

/** SIGINT/SIGTERM as an AbortSignal; a second signal exits at once. */
function processSignals(io: CliIo): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (): void => {
    if (!controller.signal.aborted) return controller.abort();
    io.stderr.write('kube-reconcile serve: stopped at once (the state was not saved)\n');
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((done) =>
    signal.aborted ? done() : signal.addEventListener('abort', () => done(), { once: true }),
  );
}

export async function runServe(args: readonly string[], io: CliIo, hooks: ServeHooks = {}): Promise<number> {
  const p = plan(args, io.cwd, hooks.home ?? homedir());
  if (p === 'help') {
    io.stdout.write(SERVE_HELP);
    return EXIT_OK;
  }
  const fail = (message: string): number => {
    io.stderr.write(`kube-reconcile serve: ${message}\n`);
    return EXIT_ERRORS;
  };
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(p, hooks.now ?? Date.now);
  } catch (e) {
    return fail(`cannot restore --state ${p.state}: ${(e as Error).message}. The file was left unchanged.`);
  }
  const { clock, api, failedNodes } = prepared;
  const loaded = await loadManifests(p.files, io.cwd);
  for (const line of loaded.problems) io.stderr.write(`${line}\n`);
  const cluster = new Cluster({
    clock,
    seed: p.seed,
    nodes: p.nodes,
    api,
    ...(failedNodes?.length ? { failedNodes } : {}),
  });
  cluster.start();
  const failed = loaded.problems.length + applyFiles(cluster, loaded.manifests, io);
  if (failed > 0) {
    cluster.stop();
    clock.dispose();
    return fail(
      `${failed} manifest${failed === 1 ? ' was' : 's were'} not applied (see above); fix ${failed === 1 ? 'it' : 'them'} and start again${p.state ? `. ${p.state} was left unchanged` : ''}`,
    );
  }

  const token = generateToken();
  let server: KubeHttpServer;
  try {
    server = await listen(cluster, p.port, token);
  } catch (e) {
    cluster.stop();
    clock.dispose();
    return fail((e as Error).message);
  }
  try {
    await writePrivateFile(
      p.kubeconfig,
      renderKubeconfig({ server: server.url, token, certificateAuthority: server.certificateAuthority }),
    );
  } catch (e) {
    await server.close();
    cluster.stop();
    clock.dispose();
    return fail(
      `cannot write the kubeconfig ${p.kubeconfig}: ${(e as Error).message}; choose another file with --kubeconfig`,
    );
  }
  io.stdout.write(banner(p, server.url, api !== undefined));
  const signals = hooks.stop ? undefined : processSignals(io);
  hooks.onListening?.({ url: server.url, kubeconfig: p.kubeconfig, token });
  await aborted(hooks.stop ?? signals!.signal);
  return stop(p, cluster, clock, server, io, signals?.dispose);
}

/** Stops serving, saves the state when asked (atomically), and stops the cluster. */
async function stop(
  p: Plan,
  cluster: Cluster,
  clock: SwitchableClock,
  server: KubeHttpServer,
  io: CliIo,
  disposeSignals?: () => void,
): Promise<number> {
  io.stdout.write('Stopping…\n');
  clock.pause();
  await server.close();
  let code = EXIT_OK;
  if (p.state) {
    const failedNodes = cluster.nodeNames.filter((n) => !cluster.isKubeletRunning(n));
    const snapshot = takeSnapshot(cluster.api, { failedNodes });
    try {
      await writePrivateFile(p.state, `${JSON.stringify(snapshot)}\n`);
      io.stdout.write(`Saved ${snapshot.objects.length} objects to ${p.state}\n`);
    } catch (e) {
      io.stderr.write(`kube-reconcile serve: cannot save the state to ${p.state}: ${(e as Error).message}\n`);
      code = EXIT_ERRORS;
    }
  }
  cluster.stop();
  clock.dispose();
  disposeSignals?.();
  return code;
}
