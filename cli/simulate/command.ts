/**
 * `kube-reconcile simulate <files or folders…>`: applies manifests to a fresh
 * sandbox cluster and runs it in virtual time — until it settles, or for a
 * fixed time — with optional actions at given times; then prints the cluster
 * as kubectl would. Same seed and inputs, byte-identical output.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { isApiError } from '../../sandbox/api/errors';
import { Cluster } from '../../sandbox/cluster/cluster';
import { ACTION_HELP, ActionSyntaxError, parseTimedAction, runAction } from '../../sandbox/cluster/actions';
import type { TimedAction } from '../../sandbox/cluster/actions';
import type { DrainHandle } from '../../sandbox/operations/drain';
import { formatLogEntry } from '../../sandbox/client/reconcileLog';
import { formatGoDuration, parseDuration } from '../../sandbox/kubelet/duration';
import {
  KUBERNETES_VERSION_HELP,
  KUBERNETES_VERSION_OPTION,
  UsageError,
  parseArgs,
  useKubernetesVersion,
} from '../args';
import type { OptionSpecs } from '../args';
import { EXIT_ERRORS, EXIT_OK } from '../io';
import type { CliIo } from '../io';
import { loadManifests, rejectionAt } from './loadManifests';
import type { LoadedManifest } from './loadManifests';
import { formatReport, writeJsonListOf, writeYamlListOf } from './report';
import { explainObject, parseExplainTarget } from './explain';
import type { ExplainTarget } from './explain';

export const SIMULATE_OPTIONS: OptionSpecs = {
  nodes: { type: 'string' },
  seed: { type: 'string' },
  for: { type: 'string' },
  'until-settled': { type: 'boolean' },
  limit: { type: 'string' },
  at: { type: 'list' },
  output: { type: 'string', short: 'o', choices: ['table', 'json', 'yaml'] },
  record: { type: 'string' },
  log: { type: 'boolean' },
  namespace: { type: 'string', short: 'n' },
  explain: { type: 'string' },
  'kubernetes-version': KUBERNETES_VERSION_OPTION,
  help: { type: 'boolean', short: 'h' },
};

export const SIMULATE_HELP = `Usage: kube-reconcile simulate <files or folders...> [options]

Applies the manifests to a fresh sandbox cluster (API server, controllers,
scheduler, kubelets) and runs it in virtual time, then prints the cluster
as kubectl would. The same seed and inputs always give the same output.

Options:
  --nodes N             nodes in the cluster (default 3: node-1 … node-3)
  --seed S              seed for every random choice (default 1)
  --until-settled       run until nothing is pending (default), at most --limit
  --limit DURATION      longest virtual time for --until-settled (default 10m)
  --for DURATION        run exactly this long instead (e.g. 10m, 1h30m)
  --at TIME:ACTION      at TIME after the start (e.g. 30s, 2m) do ACTION;
                        repeatable. Actions:
                          ${ACTION_HELP.replace(/\n/g, '\n                          ')}
  -o, --output table|json|yaml
                        tables and events (default), or every object as a v1
                        List in JSON or YAML: then stdout holds the List alone
                        and what happens on the way goes to stderr
  --record FILE         write every watch event as a JSON line:
                        {"time": <virtual ms since start>, "type", "object"}
  --log                 also print the reconciliation log
  -n, --namespace NS    namespace for manifests without one, for actions and
                        for --explain (default "default")
  --explain KIND/NAME   print the object's causal timeline instead of the
                        tables: every step from the apply of its manifest
                        (file:line, what changed) through the controllers'
                        decisions, the scheduler's per-node results and the
                        kubelet's transitions, each at its virtual time
  ${KUBERNETES_VERSION_HELP}
  -h, --help            show this help

Exit codes: 0 every object applied, 1 something was rejected or unreadable,
2 usage error.
`;

interface Plan {
  files: string[];
  nodes: number;
  seed: string;
  forMs?: number;
  limitMs: number;
  actions: TimedAction[];
  output: 'table' | 'json' | 'yaml';
  record?: string;
  log: boolean;
  namespace: string;
  explain?: ExplainTarget;
}

function durationOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' ? parseDuration(value) : undefined;
  if (ms === undefined)
    throw new UsageError(`--${name} needs a duration like 30s, 10m or 1h30m, got "${String(value)}"`);
  return ms;
}

function plan(args: readonly string[]): Plan | 'help' {
  const { options: o, positionals } = parseArgs(args, SIMULATE_OPTIONS);
  if (o.help === true) return 'help';
  if (positionals.length === 0) throw new UsageError('no files or folders given');
  useKubernetesVersion(o['kubernetes-version']);
  const nodes = o.nodes === undefined ? 3 : Number(o.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 5000)
    throw new UsageError(`--nodes needs a whole number from 1 to 5000, got "${String(o.nodes)}"`);
  const forMs = durationOption(o.for, 'for');
  if (forMs !== undefined && o['until-settled'] === true)
    throw new UsageError('--for and --until-settled cannot be used together');
  const namespace = typeof o.namespace === 'string' ? o.namespace : 'default';
  if (o.explain !== undefined && o.output !== undefined && o.output !== 'table')
    throw new UsageError('--explain prints text: it cannot be used with -o json or -o yaml');
  let actions: TimedAction[];
  try {
    actions = ((o.at as readonly string[] | undefined) ?? []).map((a) => parseTimedAction(a, namespace));
  } catch (e) {
    if (e instanceof ActionSyntaxError) throw new UsageError(e.message);
    throw e;
  }
  return {
    files: [...positionals],
    nodes,
    seed: typeof o.seed === 'string' ? o.seed : '1',
    forMs,
    limitMs: durationOption(o.limit, 'limit') ?? 10 * 60_000,
    actions: actions.sort((a, b) => a.atMs - b.atMs),
    output: o.output === 'json' || o.output === 'yaml' ? o.output : 'table',
    record: typeof o.record === 'string' ? o.record : undefined,
    log: o.log === true,
    namespace,
    explain: parseExplainTarget(o.explain),
  };
}

/** Where output goes: the report on stdout; progress there too, or on stderr when stdout holds a document. */
interface Out {
  report: CliIo['stdout'];
  progress: CliIo['stdout'];
  errors: CliIo['stderr'];
}

/**
 * Applies manifests as `kubectl apply` does (strict field validation), reporting each result, or each rejection as
 * `file:line: message` at the line of the first field it names; returns how many were rejected.
 */
function applyAll(cluster: Cluster, manifests: readonly LoadedManifest[], namespace: string, out: Out): number {
  let rejected = 0;
  // CustomResourceDefinitions first, wherever they are in the files, so that the custom resources of a bundle find
  // their kinds (as Helm installs a chart's crds/ first); otherwise in the files' order.
  const first = (m: LoadedManifest) =>
    m.object.kind === 'CustomResourceDefinition' && String(m.object.apiVersion).startsWith('apiextensions.k8s.io/');
  for (const m of [...manifests.filter(first), ...manifests.filter((m) => !first(m))]) {
    const unmapped = unmappedKind(cluster, m);
    if (unmapped !== undefined) {
      rejected++;
      out.errors.write(`${m.source}:${m.line}: ${unmapped}\n`);
      continue;
    }
    try {
      // kubectl prints the API server's warnings on stderr as `Warning: …`, before the result line.
      const warn = (text: string) => out.errors.write(`Warning: ${text}\n`);
      const source = { file: m.source, line: m.line, lineOf: m.lineOf };
      out.progress.write(`${cluster.apply(m.object, { namespace, warn, source }).message}\n`);
    } catch (e) {
      if (!isApiError(e)) throw e;
      rejected++;
      out.errors.write(`${rejectionAt(m, e)}: ${e.message}\n`);
    }
  }
  return rejected;
}

/**
 * kubectl maps every document's kind through discovery before it sends anything (upstream: cli-runtime
 * resource/mapper.go `infoForData`, meta `NoKindMatchError`): a kind the server does not serve — a typo in
 * apiVersion, a custom resource without its CRD, a `kustomization.yaml` in a folder given to `-f` — is refused in
 * kubectl's words, never sent.
 */
function unmappedKind(cluster: Cluster, m: LoadedManifest): string | undefined {
  const { apiVersion, kind } = m.object as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || apiVersion === '' || kind === '') return undefined;
  if (cluster.api.resources.forGvk(apiVersion, kind) !== undefined) return undefined;
  const meta = (m.object.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const name = typeof meta.name === 'string' ? meta.name : '';
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
  return (
    `resource mapping not found for name: ${JSON.stringify(name)} namespace: ${JSON.stringify(namespace)} ` +
    `from ${JSON.stringify(m.source)}: no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}\n` +
    'ensure CRDs are installed first'
  );
}

function startRecording(cluster: Cluster, file: string, start: number): () => void {
  const fd = openSync(file, 'w');
  const handles = cluster.api.resources.storedKinds().map((r) =>
    cluster.api.watch(r, { resourceVersion: cluster.api.resourceVersion }, (e) => {
      writeSync(fd, `${JSON.stringify({ time: cluster.clock.now() - start, type: e.type, object: e.object })}\n`);
    }),
  );
  return () => {
    for (const h of handles) h.stop();
    closeSync(fd);
  };
}

export async function runSimulate(args: readonly string[], io: CliIo): Promise<number> {
  const p = plan(args);
  if (p === 'help') {
    io.stdout.write(SIMULATE_HELP);
    return EXIT_OK;
  }
  const out: Out = { report: io.stdout, progress: p.output === 'table' ? io.stdout : io.stderr, errors: io.stderr };
  const loaded = await loadManifests(p.files, io.cwd);
  let failures = loaded.problems.length;
  for (const line of loaded.problems) io.stderr.write(`${line}\n`);
  const cluster = new Cluster({ nodes: p.nodes, seed: p.seed, timeline: p.explain !== undefined });
  cluster.start();
  const start = cluster.clock.now();
  const stopRecording = p.record ? startRecording(cluster, resolve(io.cwd, p.record), start) : undefined;
  const unsubscribe = p.log ? cluster.log.subscribe((e) => out.progress.write(`${formatLogEntry(e)}\n`)) : undefined;
  failures += applyAll(cluster, loaded.manifests, p.namespace, out);
  const later = new Map<string, LoadedManifest[]>();
  for (const a of p.actions) {
    if (a.action.type !== 'apply' || later.has(a.action.file)) continue;
    const files = await loadManifests([a.action.file], io.cwd);
    for (const line of files.problems) io.stderr.write(`${line}\n`);
    failures += files.problems.length;
    later.set(a.action.file, files.manifests);
  }
  const drains: { action: TimedAction; handle: DrainHandle }[] = [];
  for (const a of p.actions) {
    cluster.clock.setTimer(a.atMs, () => {
      const handle = performAction(cluster, a, later, p.namespace, out, start, () => failures++);
      if (handle) drains.push({ action: a, handle });
    });
  }
  const summary = run(cluster, p);
  for (const { action, handle } of drains) {
    if (handle.outcome) continue;
    // kubectl drain waits for as long as it takes; the run ended first.
    const waiting =
      handle.blocked.length > 0 ? ` (a PodDisruptionBudget allows no disruption: ${handle.blocked.join(', ')})` : '';
    out.errors.write(
      `[${formatGoDuration(cluster.clock.now() - start)}] ${action.text}: still draining when the run ended, waiting for ${handle.pending.join(', ')}${waiting}\n`,
    );
    handle.cancel(); // its end counts as a failure
  }
  unsubscribe?.();
  stopRecording?.();
  if (p.explain) {
    out.report.write(`\n${summary}\n\n`);
    try {
      const lines = explainObject(cluster, p.explain, p.namespace, start);
      out.report.write(`Timeline of ${p.explain.text}:\n${lines.join('\n')}\n`);
    } catch (e) {
      out.errors.write(`${(e as Error).message}\n`);
      failures++;
    }
  } else if (p.output === 'json') await writeJsonListOf(cluster.api, out.report);
  else if (p.output === 'yaml') await writeYamlListOf(cluster.api, out.report);
  else out.report.write(`\n${summary}\n\n${formatReport(cluster.api, cluster.clock.now())}`);
  if (p.output !== 'table') out.progress.write(`${summary}\n`);
  cluster.stop();
  return failures > 0 ? EXIT_ERRORS : EXIT_OK;
}

/** Runs the clock as planned; returns the one-paragraph summary. */
function run(cluster: Cluster, p: Plan): string {
  const where = `seed ${p.seed}, ${p.nodes} node${p.nodes === 1 ? '' : 's'}`;
  if (p.forMs !== undefined) {
    cluster.runFor(p.forMs);
    return `Ran for ${formatGoDuration(p.forMs)} of virtual time (${where}).`;
  }
  const lastAction = p.actions.length > 0 ? p.actions[p.actions.length - 1].atMs : 0;
  const result = cluster.runUntilSettled(Math.max(p.limitMs, lastAction + 1));
  const took = formatGoDuration(
    Math.round((result.lastActivityAt - (cluster.clock.now() - result.elapsedMs)) / 1000) * 1000,
  );
  if (result.settled && result.pending.length === 0) return `Settled after ${took} of virtual time (${where}).`;
  const head = result.settled
    ? `Settled after ${took} of virtual time (${where}), but not everything converged:`
    : `Not settled after ${formatGoDuration(result.elapsedMs)} of virtual time (${where}); still pending:`;
  return [head, ...result.pending.map((l) => `  ${l}`)].join('\n');
}

/**
 * Carries out a timed action, calling `failed` when it fails (reported on stderr). A drain prints kubectl's lines as
 * they come, each with its own time, and may fail later; its handle is returned.
 */
function performAction(
  cluster: Cluster,
  a: TimedAction,
  files: ReadonlyMap<string, LoadedManifest[]>,
  namespace: string,
  out: Out,
  start: number,
  failed: () => void,
): DrainHandle | undefined {
  const at = `[${formatGoDuration(a.atMs)}] ${a.text}`;
  if (a.action.type === 'apply') {
    out.progress.write(`${at}\n`);
    if (applyAll(cluster, files.get(a.action.file) ?? [], namespace, out) > 0) failed();
    return undefined;
  }
  try {
    return runAction(cluster, a.action, {
      line: (text, stream) => {
        const when = `[${formatGoDuration(cluster.clock.now() - start)}] ${a.text}`;
        (stream === 'stderr' ? out.errors : out.progress).write(`${when}: ${text}\n`);
      },
      done: (ok) => {
        if (!ok) failed();
      },
    });
  } catch (e) {
    out.errors.write(`${at}: ${(e as Error).message}\n`);
    failed();
    return undefined;
  }
}
