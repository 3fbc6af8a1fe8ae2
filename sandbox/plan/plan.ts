/**
 * The plan engine: what applying manifests would do to a cluster, found by doing it on a fork. The fork is a
 * fresh Cluster (the defaults of `simulate`) or one restored from a snapshot (as `serve --state` and the extension
 * save them); it is settled first, the manifests are applied as `kubectl apply` does, objects that the same files
 * applied before and no longer declare are pruned (the GitOps source annotation decides, as the sync loop's prune
 * does), and virtual time runs until the cluster settles or the bound passes. Nothing outside the fork changes.
 *
 * Pure: no I/O, virtual time on its own clock, randomness from the seed — the same inputs give the same plan, so
 * the editor can run it in the worker on a snapshot of the running sandbox.
 */
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod, Service } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { isApiError } from '../api/errors';
import { qualifiedKind } from '../api/resources';
import type { ResourceType } from '../api/resources';
import type { KubeObject } from '../api/types';
import { restoreSnapshot, snapshotFailedNodes } from '../apiserver/snapshot';
import type { ApiServer } from '../apiserver/apiServer';
import { SeededRandom } from '../clock/random';
import { VirtualClock } from '../clock/virtualClock';
import { Cluster } from '../cluster/cluster';
import { REVISION_ANNOTATION } from '../controllers/deployment/annotations';
import { resolveFenceposts } from '../controllers/deployment/fenceposts';
import { podCondition } from '../controllers/util/pods';
import { SOURCE_ANNOTATION, trackingKey, withSourceAnnotation } from '../gitops/desiredState';
import type { NodeConfig } from '../kubelet/nodeConfig';
import { applyManifest } from '../operations/apply/apply';
import { deepFreeze } from '../util/json';
import { pendingCapacity } from './capacity';
import { appliedOwners, containerProblems } from './containers';
import { objectDiff } from './diff';
import { PlanObserver } from './observe';
import { appendAll } from '../util/arrays';
import { PLAN_API_VERSION } from './types';
import type {
  PlanDisruptionBudget,
  PlanFinding,
  PlanObject,
  PlanPendingPod,
  PlanReport,
  PlanRollout,
  PlanService,
  PlanWorkload,
} from './types';

/** 15 minutes: past a Deployment's default progressDeadlineSeconds (600 s), so a stuck rollout is seen as stuck. */
export const DEFAULT_PLAN_LIMIT_MS = 15 * 60_000;

/** One document to apply, with where it was written. */
export interface PlanManifest {
  /** The file, as the user named it; objects the same file applied before carry it in `kube-reconcile.dev/source`. */
  source: string;
  /** 1-based line of the document. */
  line: number;
  object: KubeObject;
  /** 1-based line of a field (an upstream path), to place a refusal on the field it names. */
  lineOf?(field: string): number;
}

export interface PlanOptions {
  manifests: readonly PlanManifest[];
  /** A parsed snapshot (`serve --state`, the extension); a fresh cluster when absent. Throws SnapshotError if bad. */
  snapshot?: unknown;
  /**
   * The snapshot is the plan's to keep (the CLI's, parsed from its file for this plan alone): its objects are frozen
   * in place and shared by the fork's store instead of copied. Otherwise they are copied (a frozen object, as a
   * running API server's snapshot hands out, is shared either way).
   */
  snapshotOwned?: boolean;
  /**
   * Nodes (node-1 … node-N): default 3, or with a snapshot the number of Nodes it holds; or the nodes by name, as a
   * snapshot of a real cluster has them (live/snapshot.ts).
   */
  nodes?: number | NodeConfig[];
  seed?: number | string;
  /** Longest virtual time to run after the apply (default 15 minutes). */
  limitMs?: number;
  /** Namespace for manifests without one (default "default"). */
  namespace?: string;
  /**
   * Nodes whose kubelet is stopped in the cluster the snapshot was taken from (Fail Node): the fork keeps them failed
   * — no heartbeats, their pods not resumed — so it goes on as that cluster would (NotReady, taints, evictions).
   * Those the snapshot itself records as failed (`Snapshot.failedNodes`) are kept failed too.
   */
  failedNodes?: readonly string[];
  /**
   * The Kubernetes release the forked cluster serves (the running sandbox's `kubeReconcile.kubernetesVersion`);
   * default the process's active release.
   */
  kubernetesVersion?: string;
  /** Called with the fork once the report is made, before it stops (the editor asks the scheduler why pods wait). */
  inspect?(cluster: Cluster, report: PlanReport): void;
}

function snapshotNodeCount(data: unknown): number | undefined {
  const objects = (data as { objects?: unknown } | undefined)?.objects;
  if (!Array.isArray(objects)) return undefined;
  const n = objects.filter((o) => (o as { kind?: unknown } | null)?.kind === 'Node').length;
  return n > 0 ? n : undefined;
}

/** The names of the nodes a fork runs a kubelet for (as `Cluster` names them). */
function forkNodeNames(nodes: number | NodeConfig[]): Set<string> {
  return new Set(
    Array.isArray(nodes) ? nodes.map((n) => n.name) : Array.from({ length: nodes }, (_, i) => `node-${i + 1}`),
  );
}

function forkCluster(o: PlanOptions): Cluster {
  const seed = o.seed ?? 1;
  const version = o.kubernetesVersion ? { kubernetesVersion: o.kubernetesVersion } : {};
  const asked = o.failedNodes && o.failedNodes.length > 0 ? { failedNodes: o.failedNodes } : {};
  if (o.snapshot === undefined) return new Cluster({ nodes: o.nodes ?? 3, seed, ...version, ...asked });
  const objects = (o.snapshot as { objects?: unknown } | null)?.objects;
  // The store freezes what it holds: an owned object frozen in place is what its copy would have been.
  if (o.snapshotOwned && Array.isArray(objects)) for (const obj of objects) deepFreeze(obj);
  const time = (o.snapshot as { time?: unknown }).time;
  const clock = new VirtualClock(typeof time === 'number' && Number.isFinite(time) ? time : undefined);
  const api = restoreSnapshot(o.snapshot, { clock, random: new SeededRandom(seed).fork('apiserver'), ...version });
  const nodes = o.nodes ?? snapshotNodeCount(o.snapshot) ?? 3;
  // The snapshot's failed nodes that the fork runs (a smaller --nodes leaves some without a kubelet: failed anyway).
  const names = forkNodeNames(nodes);
  const failed = new Set([...snapshotFailedNodes(o.snapshot).filter((n) => names.has(n)), ...(o.failedNodes ?? [])]);
  // The fork goes on from the snapshot: its running pods are resumed as they are, not started again.
  return new Cluster({
    api,
    clock,
    seed,
    nodes,
    resumePods: true,
    ...(failed.size > 0 ? { failedNodes: [...failed] } : {}),
  });
}

function refOf(r: ResourceType, name: string | undefined): string {
  return `${qualifiedKind(r).toLowerCase()}/${name ?? ''}`;
}

function key(namespace: string | undefined, name: string | undefined): string {
  return namespace ? `${namespace}/${name}` : `${name}`;
}

function applyOne(api: ApiServer, m: PlanManifest, namespace: string, declared: Set<string>): PlanObject {
  const at = `${m.source}:${m.line}`;
  let r: ResourceType;
  try {
    r = api.resourceOf(m.object);
  } catch (e) {
    if (!isApiError(e)) throw e;
    return {
      action: 'refused',
      ref: `${m.object.kind ?? ''}/${m.object.metadata?.name ?? ''}`,
      source: at,
      message: e.message,
    };
  }
  const ns = r.namespaced ? m.object.metadata?.namespace || namespace : undefined;
  const ref = refOf(r, m.object.metadata?.name);
  const name = m.object.metadata?.name;
  let live: KubeObject | undefined;
  if (name) {
    declared.add(trackingKey(r.plural, ns, name));
    try {
      live = api.get(r, ns, name);
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
  // An object the GitOps sync applied from this file keeps its tracking annotation, as the sync loop applies it.
  const tracked = live?.metadata.annotations?.[SOURCE_ANNOTATION] === m.source;
  try {
    const result = applyManifest(api, tracked ? withSourceAnnotation(m.object, m.source) : m.object, { namespace });
    const object: PlanObject = { action: result.action, ref, source: at };
    if (ns) object.namespace = ns;
    if (result.action === 'configured' && live) object.diff = objectDiff(live, result.object);
    return object;
  } catch (e) {
    if (!isApiError(e)) throw e;
    const fields = e.fields ?? (e.status.details?.causes ?? []).flatMap((c) => (c.field ? [c.field] : []));
    const line = fields.length > 0 && m.lineOf ? m.lineOf(fields[0]) : m.line;
    const refused: PlanObject = { action: 'refused', ref, source: `${m.source}:${line}`, message: e.message };
    if (ns) refused.namespace = ns;
    return refused;
  }
}

/** Objects that a given file applied before (their source annotation) and that no manifest declares now. */
function prune(api: ApiServer, sources: ReadonlySet<string>, declared: ReadonlySet<string>): PlanObject[] {
  const pruned: PlanObject[] = [];
  for (const r of api.resources.storedKinds()) {
    for (const obj of api.list(r).items) {
      const source = obj.metadata.annotations?.[SOURCE_ANNOTATION];
      if (source === undefined || !sources.has(source) || obj.metadata.deletionTimestamp) continue;
      // A controller copies its annotations to what it creates (a Deployment's ReplicaSets): those were not applied.
      if (obj.metadata.ownerReferences?.some((o) => o.controller === true)) continue;
      if (declared.has(trackingKey(r.plural, obj.metadata.namespace, obj.metadata.name!))) continue;
      // upstream (Argo CD prune, as sandbox/gitops): background propagation
      api.delete(r, obj.metadata.namespace, obj.metadata.name!, { propagationPolicy: 'Background' });
      const entry: PlanObject = { action: 'pruned', ref: refOf(r, obj.metadata.name), source };
      if (obj.metadata.namespace) entry.namespace = obj.metadata.namespace;
      pruned.push(entry);
    }
  }
  return pruned;
}

function rollout(api: ApiServer, observer: PlanObserver, d: Deployment & KubeObject, start: number): PlanRollout {
  const k = key(d.metadata.namespace, d.metadata.name);
  const replicas = d.spec?.replicas ?? 1;
  const recreate = d.spec?.strategy?.type === 'Recreate';
  const ru = d.spec?.strategy?.rollingUpdate;
  const [maxSurge, maxUnavailable] = recreate
    ? [0, 0]
    : resolveFenceposts(ru?.maxSurge ?? '25%', ru?.maxUnavailable ?? '25%', replicas);
  const f = observer.figures(k);
  const replicaSets = (
    api.list('replicasets', { namespace: d.metadata.namespace }).items as (ReplicaSet & KubeObject)[]
  )
    .filter((rs) => rs.metadata.ownerReferences?.some((o) => o.controller === true && o.uid === d.metadata.uid))
    .map((rs) => ({
      name: rs.metadata.name!,
      revision: rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '',
      replicas: rs.spec?.replicas ?? 1,
    }))
    .sort((a, b) => Number(b.revision) - Number(a.revision) || a.name.localeCompare(b.name));
  const progressing = d.status?.conditions?.find((c) => c.type === 'Progressing');
  const outcome =
    progressing?.reason === 'ProgressDeadlineExceeded'
      ? 'stuck'
      : progressing?.reason === 'NewReplicaSetAvailable' &&
          (d.status?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
        ? 'complete'
        : 'progressing';
  const r: PlanRollout = {
    deployment: k,
    replicas,
    strategy: recreate ? 'Recreate' : 'RollingUpdate',
    maxSurge,
    maxUnavailable,
    podsCreated: f?.podsCreated ?? 0,
    podsDeleted: f?.podsDeleted ?? 0,
    peakSurge: f?.peakSurge ?? 0,
    peakUnavailable: f?.peakUnavailable ?? 0,
    durationMs: Math.max(0, (f?.lastChangeAt ?? start) - start),
    replicaSets,
    outcome,
  };
  if (progressing?.message) r.message = progressing.message;
  return r;
}

type Workload = (StatefulSet | DaemonSet | Job) & KubeObject;

/**
 * Where a StatefulSet, DaemonSet or Job the apply changed stands at the end, from its status (the conditions and
 * counters its controller writes), with the pods its controller created and deleted on the way.
 */
function workload(observer: PlanObserver, kind: PlanWorkload['kind'], w: Workload, start: number): PlanWorkload {
  const f = observer.ownerFigures(w.metadata.uid);
  const entry: PlanWorkload = {
    kind,
    workload: key(w.metadata.namespace, w.metadata.name),
    podsCreated: f?.podsCreated ?? 0,
    podsDeleted: f?.podsDeleted ?? 0,
    durationMs: Math.max(0, (f?.lastChangeAt ?? start) - start),
    outcome: 'progressing',
  };
  const observed = (g: number | undefined) => (g ?? 0) >= (w.metadata.generation ?? 0);
  if (kind === 'StatefulSet') {
    const ss = w as StatefulSet & KubeObject;
    const replicas = ss.spec?.replicas ?? 1;
    const st = ss.status;
    entry.replaced = f?.deleted ?? [];
    entry.replicas = replicas;
    entry.updated = st?.updatedReplicas ?? 0;
    entry.ready = st?.readyReplicas ?? 0;
    // upstream: pkg/controller/statefulset/stateful_set_control.go: updateStatefulSet — OnDelete replaces a pod only
    // when it is deleted; RollingUpdate replaces ordinals ≥ partition, highest first, one at a time.
    const onDelete = ss.spec?.updateStrategy?.type === 'OnDelete';
    const partition = onDelete ? 0 : (ss.spec?.updateStrategy?.rollingUpdate?.partition ?? 0);
    const wanted = onDelete ? replicas : Math.max(0, replicas - partition);
    if (observed(st?.observedGeneration) && entry.ready === replicas && entry.updated >= wanted)
      entry.outcome = 'complete';
    if (onDelete && entry.updated < replicas)
      entry.message = 'updateStrategy OnDelete: a pod is replaced only when it is deleted';
    else if (partition > 0) entry.message = `partition ${partition}: ordinals below ${partition} keep their revision`;
  } else if (kind === 'DaemonSet') {
    const st = (w as DaemonSet & KubeObject).status;
    entry.nodesDesired = st?.desiredNumberScheduled ?? 0;
    entry.nodesCovered = st?.numberAvailable ?? 0;
    entry.updated = st?.updatedNumberScheduled ?? 0;
    if (
      observed(st?.observedGeneration) &&
      entry.updated === entry.nodesDesired &&
      entry.nodesCovered === entry.nodesDesired
    )
      entry.outcome = 'complete';
  } else {
    const job = w as Job & KubeObject;
    // upstream: a Job without completions completes on its first success (pkg/controller/job: completions nil)
    entry.completions = job.spec?.completions ?? 1;
    entry.succeeded = job.status?.succeeded ?? 0;
    entry.failed = job.status?.failed ?? 0;
    const conditions = job.status?.conditions ?? [];
    const failed = conditions.find((c) => c.type === 'Failed' && c.status === 'True');
    if (conditions.some((c) => c.type === 'Complete' && c.status === 'True')) entry.outcome = 'complete';
    else if (failed) {
      entry.outcome = 'failed';
      entry.message = `${failed.reason ?? 'Failed'}: ${failed.message ?? ''}`.replace(/: $/, '');
    }
  }
  return entry;
}

function pdbAllowed(api: ApiServer): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of api.list('poddisruptionbudgets').items as (PodDisruptionBudget & KubeObject)[])
    out.set(key(p.metadata.namespace, p.metadata.name), p.status?.disruptionsAllowed ?? 0);
  return out;
}

/**
 * PodDisruptionBudgets that allow no disruption at the end though they select pods — an eviction of any of them
 * (`kubectl drain`, a node upgrade) would be refused (upstream: pkg/registry/core/pod/storage/eviction.go:
 * checkAndDecrement, "Cannot evict pod as it would violate the pod's disruption budget.") — when the apply created or
 * changed the budget, or the budget allowed a disruption before.
 */
function blockingBudgets(
  api: ApiServer,
  before: ReadonlyMap<string, number>,
  applied: ReadonlySet<string>,
): PlanDisruptionBudget[] {
  const out: PlanDisruptionBudget[] = [];
  for (const p of api.list('poddisruptionbudgets').items as (PodDisruptionBudget & KubeObject)[]) {
    const k = key(p.metadata.namespace, p.metadata.name);
    const st = p.status;
    if (!st || st.disruptionsAllowed > 0 || st.expectedPods <= 0) continue;
    const was = before.get(k);
    if (!applied.has(k) && !(was !== undefined && was > 0)) continue;
    const entry: PlanDisruptionBudget = {
      pdb: k,
      currentHealthy: st.currentHealthy,
      desiredHealthy: st.desiredHealthy,
      expectedPods: st.expectedPods,
      disruptionsAllowed: st.disruptionsAllowed,
    };
    if (was !== undefined) entry.before = was;
    out.push(entry);
  }
  return out;
}

function ownerOf(api: ApiServer, pod: Pod & KubeObject): string | undefined {
  const ref = pod.metadata.ownerReferences?.find((o) => o.controller === true);
  if (!ref) return undefined;
  if (ref.kind === 'ReplicaSet') {
    const rs = api
      .list('replicasets', { namespace: pod.metadata.namespace })
      .items.find((x) => x.metadata.uid === ref.uid);
    const d = rs?.metadata.ownerReferences?.find((o) => o.controller === true && o.kind === 'Deployment');
    if (d) return `Deployment ${pod.metadata.namespace}/${d.name}`;
  }
  return `${ref.kind} ${pod.metadata.namespace}/${ref.name}`;
}

function pendingPods(api: ApiServer): PlanPendingPod[] {
  const out: PlanPendingPod[] = [];
  for (const p of api.list('pods').items as (Pod & KubeObject)[]) {
    if (p.status?.phase !== 'Pending' || p.spec?.nodeName || p.metadata.deletionTimestamp) continue;
    const scheduled = podCondition(p, 'PodScheduled');
    if (scheduled?.status !== 'False' || scheduled.reason !== 'Unschedulable') continue;
    const entry: PlanPendingPod = { pod: key(p.metadata.namespace, p.metadata.name), message: scheduled.message ?? '' };
    const owner = ownerOf(api, p);
    if (owner) entry.owner = owner;
    out.push(entry);
  }
  return out;
}

function services(api: ApiServer, observer: PlanObserver, applied: ReadonlySet<string>): PlanService[] {
  const wanted = new Set([...applied, ...observer.servicesChanged]);
  const out: PlanService[] = [];
  for (const s of api.list('services').items as (Service & KubeObject)[]) {
    const k = key(s.metadata.namespace, s.metadata.name);
    if (!wanted.has(k) || !s.spec?.selector || Object.keys(s.spec.selector).length === 0) continue;
    const e = observer.endpoints(k) ?? { min: 0, after: 0 };
    const entry: PlanService = { service: k, min: e.min, after: e.after };
    if (e.before !== undefined) entry.before = e.before;
    out.push(entry);
  }
  return out;
}

/** Every finding a plan can report, in the order its report lists them (and `--fail-on` names them). */
export const FINDINGS: readonly PlanFinding[] = [
  'refused',
  'pending',
  'crashloop',
  'probe',
  'stuck',
  'failed',
  'endpoints',
  'disruption',
  'unsettled',
];

function formatSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60 === 0 ? '' : `${s % 60}s`}`;
}

function verdict(report: Omit<PlanReport, 'verdict'>): string {
  const counts = (['created', 'configured', 'unchanged', 'pruned', 'refused'] as const)
    .map((a) => [a, report.objects.filter((o) => o.action === a).length] as const)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => `${n} ${a}`);
  const head = counts.length > 0 ? counts.join(', ') : 'nothing to apply';
  const problems: string[] = [];
  const refused = report.objects.filter((o) => o.action === 'refused').length;
  if (refused > 0) problems.push(`${refused} refused by the API server`);
  if (report.pending.length > 0)
    problems.push(`${report.pending.length} pod${report.pending.length === 1 ? '' : 's'} would stay Pending`);
  const crashing = report.containers.filter((c) => c.problem === 'crashloop').length;
  if (crashing > 0) problems.push(`${crashing} container${crashing === 1 ? '' : 's'} would crash-loop`);
  const probing = report.containers.length - crashing;
  if (probing > 0) problems.push(`${probing} probe${probing === 1 ? '' : 's'} would keep failing`);
  const stuck = report.rollouts.filter((r) => r.outcome === 'stuck').length;
  if (stuck > 0) problems.push(`${stuck} rollout${stuck === 1 ? '' : 's'} would get stuck`);
  const failed = report.workloads.filter((w) => w.outcome === 'failed').length;
  if (failed > 0) problems.push(`${failed} Job${failed === 1 ? '' : 's'} would fail`);
  const dry = report.services.filter((s) => isEndpointLoss(s)).length;
  if (dry > 0) problems.push(`${dry} Service${dry === 1 ? '' : 's'} would have no ready endpoints`);
  const blocking = report.disruptionBudgets.length;
  if (blocking > 0)
    problems.push(`${blocking} PodDisruptionBudget${blocking === 1 ? '' : 's'} would allow no disruption`);
  if (problems.length > 0) return `${head}; ${problems.join(', ')}.`;
  if (!report.settled) return `${head}; not settled after ${formatSeconds(report.durationMs)} of virtual time.`;
  if (report.unsettled.length > 0)
    return `${head}; settled after ${formatSeconds(report.durationMs)}, but not everything converged.`;
  return `${head}; settles in ${formatSeconds(report.durationMs)}.`;
}

/** A Service ends with no ready endpoints, or had some and drops to none during the run. */
export function isEndpointLoss(s: PlanService): boolean {
  return s.after === 0 || ((s.before ?? 0) > 0 && s.min === 0);
}

/** Runs the plan: fork, settle, apply, prune, run until settled; the report of what happened. */
export function runPlan(o: PlanOptions): PlanReport {
  const namespace = o.namespace ?? 'default';
  const limitMs = o.limitMs ?? DEFAULT_PLAN_LIMIT_MS;
  const cluster = forkCluster(o);
  cluster.start();
  try {
    cluster.runUntilSettled(limitMs); // the state as it stands, before the change
    const api = cluster.api;
    const start = cluster.clock.now();
    const observer = new PlanObserver(api, cluster.clock);
    const budgetsBefore = pdbAllowed(api);
    const declared = new Set<string>();
    const objects = o.manifests.map((m) => applyOne(api, m, namespace, declared));
    // An object a refused document declares might not be named at all: then nothing is pruned, as the sync loop.
    const unnamed = objects.some((x) => x.action === 'refused' && x.ref.endsWith('/'));
    if (o.snapshot !== undefined && !unnamed)
      appendAll(objects, prune(api, new Set(o.manifests.map((m) => m.source)), declared));
    const settle = cluster.runUntilSettled(limitMs);
    observer.stop();
    const durationMs = settle.settled ? Math.max(0, settle.lastActivityAt - start) : settle.elapsedMs;
    const changed = (kind: string) =>
      new Set(
        objects
          .filter((x) => (x.action === 'created' || x.action === 'configured') && x.ref.startsWith(`${kind}/`))
          .map((x) => key(x.namespace ?? namespace, x.ref.slice(kind.length + 1))),
      );
    const rolled = changed('deployment.apps');
    const rollouts = (api.list('deployments').items as (Deployment & KubeObject)[])
      .filter((d) => rolled.has(key(d.metadata.namespace, d.metadata.name)))
      .map((d) => rollout(api, observer, d, start));
    const workloads: PlanWorkload[] = [];
    for (const [kind, resource, ref] of [
      ['StatefulSet', 'statefulsets', 'statefulset.apps'],
      ['DaemonSet', 'daemonsets', 'daemonset.apps'],
      ['Job', 'jobs', 'job.batch'],
    ] as const) {
      const touched = changed(ref);
      for (const w of api.list(resource).items as Workload[])
        if (touched.has(key(w.metadata.namespace, w.metadata.name))) workloads.push(workload(observer, kind, w, start));
    }
    const pending = pendingPods(api);
    const owner = (p: Pod & KubeObject) => ownerOf(api, p);
    const applied = appliedOwners(objects, namespace);
    const ownPods = (api.list('pods').items as (Pod & KubeObject)[]).filter((p) =>
      applied.has(owner(p) ?? `Pod ${key(p.metadata.namespace, p.metadata.name)}`),
    );
    const report: Omit<PlanReport, 'verdict'> = {
      apiVersion: PLAN_API_VERSION,
      kind: 'Plan',
      settled: settle.settled,
      durationMs,
      nodes: cluster.nodeNames.length,
      objects,
      rollouts,
      workloads,
      pending,
      ...(pending.length > 0 ? { capacity: pendingCapacity(cluster, pending, owner) } : {}),
      containers: containerProblems(
        cluster,
        ownPods,
        (p) => owner(p) ?? `Pod ${key(p.metadata.namespace, p.metadata.name)}`,
      ),
      services: services(api, observer, changed('service')),
      disruptionBudgets: blockingBudgets(api, budgetsBefore, changed('poddisruptionbudget.policy')),
      unsettled: settle.pending,
      findings: [],
    };
    const present: Record<PlanFinding, boolean> = {
      refused: objects.some((x) => x.action === 'refused'),
      pending: report.pending.length > 0,
      crashloop: report.containers.some((c) => c.problem === 'crashloop'),
      probe: report.containers.some((c) => c.problem !== 'crashloop'),
      stuck: rollouts.some((r) => r.outcome === 'stuck'),
      failed: workloads.some((w) => w.outcome === 'failed'),
      endpoints: report.services.some(isEndpointLoss),
      disruption: report.disruptionBudgets.length > 0,
      unsettled: !settle.settled || settle.pending.length > 0,
    };
    report.findings = FINDINGS.filter((f) => present[f]);
    const done = { ...report, verdict: verdict(report) };
    o.inspect?.(cluster, done);
    return done;
  } finally {
    cluster.stop();
  }
}
