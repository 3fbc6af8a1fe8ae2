/**
 * `kube-reconcile plan <files or folders…>`: what applying the manifests would do, found by applying them to a fork
 * of a cluster (a `--state` snapshot, or a fresh cluster with `simulate`'s defaults) and running it in virtual time
 * (sandbox/plan). The snapshot file is only read.
 */
import { readFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { SnapshotError } from '../sandbox/apiserver/snapshot';
import { parseDuration } from '../sandbox/kubelet/duration';
import { formatPlanText } from '../sandbox/plan/format';
import { DEFAULT_PLAN_LIMIT_MS, FINDINGS, runPlan } from '../sandbox/plan/plan';
import type { PlanFinding } from '../sandbox/plan/types';
import {
  KUBERNETES_VERSION_HELP,
  KUBERNETES_VERSION_OPTION,
  UsageError,
  parseArgs,
  useKubernetesVersion,
} from './args';
import type { OptionSpecs } from './args';
import { EXIT_ERRORS, EXIT_OK, EXIT_USAGE } from './io';
import type { CliIo } from './io';
import { loadManifests } from './simulate/loadManifests';
import type { LiveContext } from '../live/kubeconfig';
import type { LiveSnapshot } from '../live/snapshot';

export const PLAN_OPTIONS: OptionSpecs = {
  state: { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  nodes: { type: 'string' },
  seed: { type: 'string' },
  for: { type: 'string' },
  output: { type: 'string', short: 'o', choices: ['text', 'json'] },
  'fail-on': { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'kubernetes-version': KUBERNETES_VERSION_OPTION,
  help: { type: 'boolean', short: 'h' },
};

export const PLAN_HELP = `Usage: kube-reconcile plan <files or folders...> [options]

Shows what applying the manifests would do, before you apply them: each
object created, configured (with the diff kubectl diff shows), unchanged or
pruned; each Deployment's rollout (pods replaced, peak surge and
unavailability, virtual time); pods that would stay Pending with the
scheduler's message; Services' ready endpoints; what would not settle.
It applies them to a copy of the cluster and runs it in virtual time;
the cluster and the --state file are never changed.

Options:
  --state FILE          the cluster to plan against: a snapshot as
                        "serve --state" saves it (default: a fresh cluster,
                        as simulate starts). Objects that these files applied
                        before (kube-reconcile.dev/source) and no longer
                        declare are shown as pruned
  --kubeconfig FILE     plan against a snapshot of a real cluster: the live
                        state that matters (nodes, pods, workloads, PDBs,
                        volumes, priority classes, quotas…) is read with GET
                        requests only and loaded into a sandbox; nothing is
                        written to the cluster
  --context NAME        the kubeconfig context (default: its current one);
                        without --kubeconfig, KUBECONFIG or ~/.kube/config
  --nodes N             nodes (default 3, or the snapshot's nodes)
  --seed S              seed for every random choice (default 1)
  --for DURATION        longest virtual time to run after applying
                        (default 15m: past the default progress deadline)
  -o, --output text|json
                        text (default), or the plan as JSON on stdout
                        (schema: docs/plan.md)
  --fail-on LIST        which findings fail the plan, comma-separated:
                        refused (exit 2), pending, crashloop, probe,
                        stuck, failed, endpoints, disruption,
                        unsettled (exit 1),
                        or never (default: all)
  -n, --namespace NS    namespace for manifests without one (default "default")
  ${KUBERNETES_VERSION_HELP}
  -h, --help            show this help

Exit codes: 0 everything settles, 1 something would not (a pod Pending, a
container crash-looping or failing a probe, a
rollout stuck, a Job failed, a Service without ready endpoints, a
PodDisruptionBudget allowing no disruption, not settled in time),
2 usage error, unreadable input or a manifest the API server refuses.
`;

interface Options {
  files: string[];
  state?: string;
  /** Plan against a real cluster: the kubeconfig (undefined: KUBECONFIG or ~/.kube/config) and context. */
  live?: { kubeconfig?: string; context?: string };
  nodes?: number;
  seed: string;
  limitMs: number;
  output: 'text' | 'json';
  failOn: ReadonlySet<PlanFinding>;
  namespace: string;
}

function failOn(value: unknown): ReadonlySet<PlanFinding> {
  if (value === undefined) return new Set(FINDINGS);
  const names = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new UsageError('--fail-on needs a list like pending,refused, or never');
  const set = new Set<PlanFinding>();
  for (const n of names) {
    if (n === 'never') continue;
    if (!(FINDINGS as readonly string[]).includes(n))
      throw new UsageError(`--fail-on: unknown finding "${n}"; choose from ${FINDINGS.join(', ')}, never`);
    set.add(n as PlanFinding);
  }
  if (names.includes('never') && set.size > 0)
    throw new UsageError('--fail-on: never cannot be combined with findings');
  return set;
}

function options(args: readonly string[], cwd: string): Options | 'help' {
  const { options: o, positionals } = parseArgs(args, PLAN_OPTIONS);
  if (o.help === true) return 'help';
  if (positionals.length === 0) throw new UsageError('no files or folders given');
  useKubernetesVersion(o['kubernetes-version']);
  let nodes: number | undefined;
  if (o.nodes !== undefined) {
    nodes = Number(o.nodes);
    if (!Number.isInteger(nodes) || nodes < 1 || nodes > 5000)
      throw new UsageError(`--nodes needs a whole number from 1 to 5000, got "${String(o.nodes)}"`);
  }
  let limitMs = DEFAULT_PLAN_LIMIT_MS;
  if (o.for !== undefined) {
    const ms = typeof o.for === 'string' ? parseDuration(o.for) : undefined;
    if (ms === undefined) throw new UsageError(`--for needs a duration like 30s, 10m or 1h30m, got "${String(o.for)}"`);
    limitMs = ms;
  }
  const kubeconfig = typeof o.kubeconfig === 'string' ? o.kubeconfig : undefined;
  const context = typeof o.context === 'string' ? o.context : undefined;
  const live = kubeconfig !== undefined || context !== undefined ? { kubeconfig, context } : undefined;
  if (live && o.state !== undefined)
    throw new UsageError('--state and --kubeconfig/--context are two clusters to plan against: choose one');
  if (live && nodes !== undefined)
    throw new UsageError('--nodes cannot be used with a real cluster: its nodes are used');
  return {
    files: [...positionals],
    state: typeof o.state === 'string' ? resolve(cwd, o.state) : undefined,
    live,
    nodes,
    seed: typeof o.seed === 'string' ? o.seed : '1',
    limitMs,
    output: o.output === 'json' ? 'json' : 'text',
    failOn: failOn(o['fail-on']),
    namespace: typeof o.namespace === 'string' ? o.namespace : 'default',
  };
}

/** What the JSON plan says of the real cluster it was computed on (docs/real-clusters.md). */
function liveSummary(live: LiveSnapshot, ctx: LiveContext): object {
  return { context: ctx.name, server: ctx.server, objects: live.counts, unseen: live.unseen, written: false };
}

async function readSnapshot(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new SnapshotError(`not JSON: ${(e as Error).message}`);
  }
}

export async function runPlanCommand(args: readonly string[], io: CliIo): Promise<number> {
  const p = options(args, io.cwd);
  if (p === 'help') {
    io.stdout.write(PLAN_HELP);
    return EXIT_OK;
  }
  const loaded = await loadManifests(p.files, io.cwd);
  if (loaded.problems.length > 0) {
    for (const line of loaded.problems) io.stderr.write(`${line}\n`);
    io.stderr.write('kube-reconcile plan: nothing was planned: fix the files above first\n');
    return EXIT_USAGE;
  }
  let snapshot: unknown;
  if (p.state) {
    try {
      snapshot = await readSnapshot(p.state);
    } catch (e) {
      io.stderr.write(`kube-reconcile plan: cannot read --state ${p.state}: ${(e as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  let live: LiveSnapshot | undefined;
  let liveContext: LiveContext | undefined;
  let liveHeader: ((live: LiveSnapshot, ctx: LiveContext) => string) | undefined;
  if (p.live) {
    // loaded on demand: @kubernetes/client-node is needed only here, and every other command starts without it
    const [{ LiveConnection, LiveError }, { KubeconfigError, loadKubeconfig }, { takeLiveSnapshot }, planText] =
      await Promise.all([
        import('../live/connection'),
        import('../live/kubeconfig'),
        import('../live/snapshot'),
        import('../live/planText'),
      ]);
    liveHeader = planText.liveHeader;
    try {
      const loaded = await loadKubeconfig({ file: p.live.kubeconfig, cwd: io.cwd });
      const conn = await LiveConnection.open(loaded, { context: p.live.context });
      liveContext = conn.context;
      try {
        live = await takeLiveSnapshot(conn, { time: Date.now(), seed: p.seed });
      } finally {
        conn.close();
      }
    } catch (e) {
      if (!(e instanceof KubeconfigError) && !(e instanceof LiveError)) throw e;
      io.stderr.write(`kube-reconcile plan: ${e.message}\n`);
      return EXIT_USAGE;
    }
    snapshot = live.snapshot;
  }
  let report;
  try {
    report = runPlan({
      manifests: loaded.manifests.map((m) => ({
        ...m,
        // relative to where the command runs, as the extension names a file relative to its workspace folder
        source: relative(io.cwd, resolve(io.cwd, m.source)).split(sep).join('/'),
      })),
      snapshot,
      // read from its file (or the real cluster) for this plan alone: the fork shares its objects instead of copying
      snapshotOwned: true,
      nodes: live ? live.nodes : p.nodes,
      seed: p.seed,
      limitMs: p.limitMs,
      namespace: p.namespace,
    });
  } catch (e) {
    if (!(e instanceof SnapshotError)) throw e;
    io.stderr.write(`kube-reconcile plan: cannot use --state ${p.state}: ${e.message}\n`);
    return EXIT_USAGE;
  }
  if (p.output === 'json')
    io.stdout.write(
      `${JSON.stringify(live ? { ...report, live: liveSummary(live, liveContext!) } : report, null, 2)}\n`,
    );
  else io.stdout.write((live && liveHeader ? liveHeader(live, liveContext!) : '') + formatPlanText(report));
  const failing = report.findings.filter((f) => p.failOn.has(f));
  if (failing.includes('refused')) return EXIT_USAGE;
  return failing.length > 0 ? EXIT_ERRORS : EXIT_OK;
}
