/**
 * The DaemonSet controller (pkg/controller/daemon: daemon_controller.go,
 * update.go): one pod per eligible node (see eligibility.ts), pinned to it by
 * node affinity and bound by the scheduler; pods on nodes that may no longer
 * run them deleted; failed pods deleted (the node backs off 1 s, doubling to
 * 15 min); RollingUpdate with maxUnavailable or maxSurge, OnDelete; status
 * counted per node from its oldest pod; ControllerRevisions `<ds>-<hash>`
 * (the hash is also the pods' `controller-revision-hash`) kept to
 * `revisionHistoryLimit`.
 *
 * Pods bound to a node that was deleted are left to the pod garbage collector
 * (controllers/podgc), as upstream.
 */
import type { ControllerRevision, DaemonSet, DaemonSetStatus } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import { asResource } from '../../api/resourceObjects';
import type { Selector } from '../../api/selectors/labelSelector';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { Typed } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { parseTimestamp } from '../../clock/clock';
import { computeHash } from '../deployment/hash';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { enqueueMapped, enqueueObject, enqueueOwner } from '../framework/handlers';
import type { Revision } from '../history/controllerHistory';
import {
  deleteControllerRevision,
  listControllerRevisions,
  updateControllerRevision,
} from '../history/controllerHistory';
import { equalRevision, nextRevision, sortRevisions, templatePatch } from '../history/revisions';
import { claimControllerRevisions, claimPods } from '../util/claim';
import { controlledBy, ensureControllerIndex, orphansIn } from '../util/controllerIndex';
import { controllerRefOf, newControllerRef } from '../util/owners';
import { availableAt, isPodAvailable, isPodReady } from '../util/pods';
import { podFromTemplate } from '../replicaset/podTemplate';
import { daemonTolerations, nodeShouldRunDaemonPod, pinToNode, targetNodeName } from './eligibility';

export const DAEMONSET_CONTROLLER_NAME = 'daemonset-controller';
/** `apps.DefaultDaemonSetUniqueLabelKey`. */
export const DAEMONSET_HASH_LABEL = 'controller-revision-hash';
/** `apps.DeprecatedTemplateGeneration` and `extensions.DaemonSetTemplateGenerationKey`. */
const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** `BurstReplicas`: creates and deletes per sync. */
const BURST_REPLICAS = 250;
/** The failed-pod back-off of kube-controller-manager: 1 s doubling to 15 min, per DaemonSet and node. */
const BACKOFF_INITIAL_MS = 1000;
const BACKOFF_MAX_MS = 15 * 60 * 1000;

type Ds = Typed<DaemonSet>;
type CachedPod = ObjectsByResource['pods'];
type CachedNode = ObjectsByResource['nodes'];

function createdAt(pod: Pod): number {
  const t = pod.metadata?.creationTimestamp;
  return t ? parseTimestamp(t) : 0;
}

/** `podByCreationTimestampAndPhase`: scheduled before unscheduled, then oldest first, then by name. */
function byAge(a: Pod, b: Pod): number {
  const sa = a.spec?.nodeName ? 0 : 1;
  const sb = b.spec?.nodeName ? 0 : 1;
  if (sa !== sb) return sa - sb;
  const d = createdAt(a) - createdAt(b);
  if (d !== 0) return d;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

const isTerminating = (pod: Pod): boolean => !!pod.metadata?.deletionTimestamp;

/** `IntOrPercent` scaled against `total`, rounded up (`GetScaledValueFromIntOrPercent(…, true)`). */
function scaled(value: number | string | undefined, total: number, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (m) return Math.ceil((Number(m[1]) * total) / 100);
  return /^\d+$/.test(value) ? Number(value) : fallback;
}

/** `updatedDesiredNodeCounts` → (maxSurge, maxUnavailable); both 0 makes maxUnavailable 1. */
export function surgeAndUnavailable(ds: DaemonSet, desired: number): { maxSurge: number; maxUnavailable: number } {
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  const maxSurge = scaled(ru?.maxSurge, desired, 0);
  let maxUnavailable = scaled(ru?.maxUnavailable, desired, 1);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

interface NodePlan {
  node: CachedNode;
  shouldRun: boolean;
  shouldContinueRunning: boolean;
  /** The set's pods targeting the node, oldest first. */
  pods: CachedPod[];
}

export class DaemonSetController extends Controller {
  private sets!: Informer<Ds>;
  private pods!: Informer<CachedPod>;
  private nodes!: Informer<CachedNode>;
  private revisions!: Informer<Revision>;
  /** Failed-pod back-off per `<ds key>/<node>`: the next delay and when the current one ends. */
  private readonly backoff = new Map<string, { delayMs: number; until: number }>();

  constructor(ctx: ComponentContext) {
    super(ctx, { name: DAEMONSET_CONTROLLER_NAME });
  }

  protected watch(w: Watches): void {
    this.sets = w.informer('daemonsets');
    this.pods = w.informer('pods');
    this.nodes = w.informer('nodes');
    this.revisions = w.informer('controllerrevisions');
    ensureControllerIndex(this.pods);
    w.watch(this.sets, enqueueObject());
    w.watch(this.pods, enqueueOwner(this.sets, { kind: 'DaemonSet', group: 'apps' }));
    w.watch(
      this.pods,
      enqueueMapped((pod) => this.adopters(pod).map(objectKey), {
        when: (pod) => !controllerRefOf(pod),
        update: 'both',
      }),
    );
    // A node added, changed (labels, taints, readiness) or deleted may change where every set runs.
    w.watch(
      this.nodes,
      enqueueMapped(() => this.sets.cache.list().map(objectKey)),
    );
  }

  private adopters(pod: Pod): Ds[] {
    return this.sets.cache.list(pod.metadata?.namespace ?? '').filter((ds) => {
      const selector = selectorOf(ds);
      return !!selector && !selector.empty && selector.matches(pod.metadata?.labels);
    });
  }

  /** `syncDaemonSet`. */
  protected reconcile(key: string): ReconcileResult {
    const ds = this.sets.cache.get(key);
    if (!ds) {
      for (const k of [...this.backoff.keys()]) if (k.startsWith(`${key}/`)) this.backoff.delete(k);
      return;
    }
    const selector = selectorOf(ds);
    if (!selector) return;
    if (selector.empty) {
      this.recorder.event(
        ds,
        'Warning',
        'SelectingAll',
        'This daemon set is selecting all pods. A non-empty selector is required.',
      );
      return;
    }
    if (ds.metadata.deletionTimestamp) return;
    const now = this.ctx.clock.now();
    const { current, old, hash } = this.constructHistory(ds, selector);
    const plans = this.plan(ds, selector);
    let requeue: number | undefined;
    let changed: boolean;
    try {
      changed = this.manage(
        ds,
        plans,
        hash,
        now,
        (ms) => (requeue = requeue === undefined ? ms : Math.min(requeue, ms)),
      );
    } catch (e) {
      // Upstream syncDaemonSet writes the status even when updateDaemonSet failed (a pod it could not create), then
      // returns the error: `desiredNumberScheduled` counts the nodes that should run a pod, created or not.
      this.writeStatus(ds, plans, hash, now);
      throw e;
    }
    if (!changed && ds.spec?.updateStrategy?.type !== 'OnDelete') this.rollingUpdate(ds, plans, hash, now);
    this.cleanupHistory(ds, plans, current, old);
    this.writeStatus(ds, plans, hash, now);
    const avail = this.availabilityCheck(ds, plans, now);
    if (avail !== undefined) requeue = requeue === undefined ? avail : Math.min(requeue, avail);
    return requeue === undefined ? undefined : { requeueAfter: requeue };
  }

  /** `getNodesToDaemonPods` over every node, with `NodeShouldRunDaemonPod`. */
  private plan(ds: Ds, selector: Selector): NodePlan[] {
    const candidates = [
      ...controlledBy(this.pods, ds.metadata.uid!),
      ...orphansIn(this.pods, ds.metadata.namespace ?? ''),
    ];
    const { claimed, errors } = claimPods(candidates, {
      api: this.ctx.api,
      owner: ds,
      matches: (pod) => selector.matches(pod.metadata?.labels),
    });
    if (errors.length > 0) throw errors[0];
    const byNode = new Map<string, CachedPod[]>();
    for (const pod of claimed as CachedPod[]) {
      const node = targetNodeName(pod);
      if (node === undefined) continue;
      const list = byNode.get(node) ?? [];
      list.push(pod);
      byNode.set(node, list);
    }
    const nodes = [...this.nodes.cache.list()].sort((a, b) =>
      (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
    );
    return nodes.map((node) => ({
      node,
      ...nodeShouldRunDaemonPod(node, ds),
      pods: (byNode.get(node.metadata.name ?? '') ?? []).sort(byAge),
    }));
  }

  /**
   * `constructHistory`: the revision equal to the template now (renumbered past the others when it is an older one:
   * a rollback), or a new one; the others are old.
   */
  private constructHistory(ds: Ds, selector: Selector): { current: Revision; old: Revision[]; hash: string } {
    let all = listControllerRevisions(this.revisions, ds, selector);
    const orphans = all.filter((r) => !controllerRefOf(r));
    if (orphans.length > 0) {
      const { errors } = claimControllerRevisions(orphans, { api: this.ctx.api, owner: ds, matches: () => true });
      if (errors.length > 0) throw new Error(`can't adopt ControllerRevisions: ${errors[0].message}`);
    }
    all = sortRevisions(all);
    const collisionCount = ds.status?.collisionCount ?? 0;
    const hash = computeHash(ds.spec?.template, collisionCount);
    const patch = templatePatch(ds.spec?.template);
    const wanted: ControllerRevision = { data: patch, revision: 0 };
    const equal = all.filter((r) => equalRevision(r, wanted));
    const max = nextRevision(all);
    let current: Revision;
    if (equal.length > 0) {
      current = equal[equal.length - 1];
      for (const dup of equal.slice(0, -1)) deleteControllerRevision(this.ctx.api, dup);
      const last = all[all.length - 1];
      if (current !== last) current = updateControllerRevision(this.ctx.api, current, max);
    } else {
      current = this.snapshot(ds, hash, patch, max);
    }
    const old = all.filter((r) => r.metadata.name !== current.metadata.name && !equal.includes(r));
    const currentHash = current.metadata.labels?.[DAEMONSET_HASH_LABEL] ?? hash;
    return { current, old, hash: currentHash };
  }

  /** `snapshot`: `<ds>-<hash>`, labelled with the template's labels and the hash, the set's annotations. */
  private snapshot(ds: Ds, hash: string, patch: Record<string, unknown>, revision: number): Revision {
    const body: Revision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${ds.metadata.name}-${hash}`,
        namespace: ds.metadata.namespace,
        labels: { ...ds.spec?.template?.metadata?.labels, [DAEMONSET_HASH_LABEL]: hash },
        ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
        ownerReferences: [newControllerRef(ds)],
      },
      data: patch,
      revision,
    };
    try {
      return this.ctx.api.create(body);
    } catch (e) {
      if (!isApiError(e, 409)) throw e;
      const existing = this.ctx.api.get('controllerrevisions', ds.metadata.namespace, body.metadata.name ?? '');
      if (equalRevision(existing, body)) return existing;
      // A hash collision: count it; the next sync names the revision with the new count.
      const count = (ds.status?.collisionCount ?? 0) + 1;
      this.ctx.api.updateStatus({ ...ds, status: { ...emptyStatus(), ...ds.status, collisionCount: count } });
      throw new Error(
        `found a stale collision for ControllerRevision ${body.metadata.name}; collisionCount is now ${count}`,
      );
    }
  }

  /**
   * `manage` (`podsShouldBeOnNode` per node): create where a pod should run and none does; delete every pod where
   * none may stay, failed pods (behind the node's back-off) and duplicates (without surge the oldest stays; with
   * surge the oldest old and new ones, the old one going once the new one is available). True when it wrote.
   */
  private manage(ds: Ds, plans: NodePlan[], hash: string, now: number, later: (ms: number) => void): boolean {
    const create: string[] = [];
    const remove: CachedPod[] = [];
    const key = objectKey(ds);
    const surge = surgeAndUnavailable(ds, plans.filter((p) => p.shouldRun).length).maxSurge > 0;
    for (const p of plans) {
      const nodeName = p.node.metadata.name ?? '';
      const live = p.pods.filter((pod) => !isTerminating(pod));
      if (p.shouldRun && p.pods.length === 0) {
        create.push(nodeName);
        continue;
      }
      if (!p.shouldContinueRunning) {
        remove.push(...live);
        continue;
      }
      const running: CachedPod[] = [];
      for (const pod of live) {
        if (pod.status?.phase === 'Failed') {
          const b = this.backoff.get(`${key}/${nodeName}`);
          if (b && now < b.until) {
            later(b.until - now);
            continue;
          }
          const delay = b ? Math.min(b.delayMs * 2, BACKOFF_MAX_MS) : BACKOFF_INITIAL_MS;
          this.backoff.set(`${key}/${nodeName}`, { delayMs: delay, until: now + delay });
          const msg = `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${nodeName}, will try to kill it`;
          this.recorder.event(ds, 'Warning', 'FailedDaemonPod', msg);
          remove.push(pod);
        } else if (pod.status?.phase === 'Succeeded') {
          const msg = `Found succeeded daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${nodeName}, will try to delete it`;
          this.recorder.event(ds, 'Normal', 'SucceededDaemonPod', msg);
          remove.push(pod);
        } else running.push(pod);
      }
      if (!surge) {
        remove.push(...running.slice(1));
        continue;
      }
      const oldPods = running.filter((pod) => pod.metadata.labels?.[DAEMONSET_HASH_LABEL] !== hash);
      const newPods = running.filter((pod) => pod.metadata.labels?.[DAEMONSET_HASH_LABEL] === hash);
      remove.push(...oldPods.slice(1), ...newPods.slice(1));
      if (oldPods.length > 0 && newPods.length > 0 && isPodAvailable(newPods[0], ds.spec?.minReadySeconds ?? 0, now))
        remove.push(oldPods[0]);
    }
    this.syncNodes(ds, remove, create, hash);
    return remove.length > 0 || create.length > 0;
  }

  /** `syncNodes`: at most `BurstReplicas` creates and deletes; each pod pinned to its node. */
  private syncNodes(ds: Ds, remove: readonly Pod[], create: readonly string[], hash: string): void {
    let first: Error | undefined;
    for (const nodeName of create.slice(0, BURST_REPLICAS)) {
      try {
        const created = this.ctx.api.create(this.newPod(ds, nodeName, hash));
        this.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, {
          target: created,
          why: `a daemon pod for ${nodeName}`,
        });
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        this.recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${message}`);
        first ??= e instanceof Error ? e : new Error(message);
        break;
      }
    }
    for (const pod of remove.slice(0, BURST_REPLICAS)) {
      try {
        this.ctx.api.delete('pods', pod.metadata?.namespace, pod.metadata?.name ?? '');
        this.recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata?.name}`);
      } catch (e) {
        if (isApiError(e, 404)) continue;
        const message = e instanceof Error ? e.message : String(e);
        this.recorder.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${message}`);
        first ??= e instanceof Error ? e : new Error(message);
      }
    }
    if (first) throw first;
  }

  /** `CreatePodTemplate` + `ReplaceDaemonSetPodNodeNameNodeAffinity`: the daemon pod for `nodeName`. */
  private newPod(ds: Ds, nodeName: string, hash: string): Typed<Pod> {
    const pod = asResource('pods', podFromTemplate(ds.spec?.template ?? {}, ds, newControllerRef(ds)));
    const labels: Record<string, string> = { ...pod.metadata.labels };
    const generation = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
    if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = generation;
    labels[DAEMONSET_HASH_LABEL] = hash;
    pod.metadata.labels = labels;
    const spec = pod.spec!;
    spec.tolerations = daemonTolerations(spec);
    pinToNode(spec, nodeName);
    return pod;
  }

  /** `rollingUpdate` (update.go): without surge, old pods deleted within maxUnavailable; with surge, new pods added. */
  private rollingUpdate(ds: Ds, plans: NodePlan[], hash: string, now: number): void {
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const desired = plans.filter((p) => p.shouldRun).length;
    const { maxSurge, maxUnavailable } = surgeAndUnavailable(ds, desired);
    const withPods = plans.filter((p) => p.pods.length > 0);
    if (maxSurge === 0) {
      let unavailable = 0;
      const allowed: Pod[] = [];
      const candidates: Pod[] = [];
      for (const p of withPods) {
        const found = updatedPodsOnNode(p.pods, hash);
        if (!found) {
          unavailable++;
          continue;
        }
        const { newPod, oldPod } = found;
        if ((!oldPod && !newPod) || (oldPod && newPod)) unavailable++;
        else if (newPod) {
          if (!isPodAvailable(newPod, minReady, now)) unavailable++;
        } else if (oldPod) {
          if (!isPodAvailable(oldPod, minReady, now)) allowed.push(oldPod);
          else if (unavailable < maxUnavailable) candidates.push(oldPod);
        }
      }
      const remaining = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
      this.syncNodes(ds, [...allowed, ...candidates.slice(0, remaining)], [], hash);
      return;
    }
    let surging = 0;
    const allowedNodes: string[] = [];
    const candidateNodes: string[] = [];
    const oldToDelete: Pod[] = [];
    for (const p of withPods) {
      const name = p.node.metadata.name ?? '';
      const found = updatedPodsOnNode(p.pods, hash);
      if (!found) {
        surging++;
        continue;
      }
      const { newPod, oldPod } = found;
      if (!oldPod) continue;
      if (!newPod) {
        if (!p.shouldRun) continue;
        if (!isPodAvailable(oldPod, minReady, now)) allowedNodes.push(name);
        else if (surging < maxSurge) candidateNodes.push(name);
      } else if (!isPodAvailable(newPod, minReady, now)) surging++;
      else oldToDelete.push(oldPod);
    }
    const remaining = Math.min(Math.max(maxSurge - surging, 0), candidateNodes.length);
    this.syncNodes(ds, oldToDelete, [...allowedNodes, ...candidateNodes.slice(0, remaining)], hash);
  }

  /** `cleanupHistory`: old revisions no pod uses are deleted, oldest first, beyond `revisionHistoryLimit`. */
  private cleanupHistory(ds: Ds, plans: NodePlan[], current: Revision, old: Revision[]): void {
    const limit = ds.spec?.revisionHistoryLimit ?? 10;
    if (old.length <= limit) return;
    const live = new Set<string>();
    for (const p of plans) for (const pod of p.pods) live.add(pod.metadata.labels?.[DAEMONSET_HASH_LABEL] ?? '');
    let excess = old.length - limit;
    for (const r of sortRevisions(old)) {
      if (excess <= 0) break;
      if (r.metadata.name === current.metadata.name || live.has(r.metadata.labels?.[DAEMONSET_HASH_LABEL] ?? ''))
        continue;
      deleteControllerRevision(this.ctx.api, r);
      excess--;
    }
  }

  /** `updateDaemonSetStatus`, from the cache as it is after this sync's writes. */
  private writeStatus(ds: Ds, before: NodePlan[], hash: string, now: number): void {
    const selector = selectorOf(ds);
    const plans = selector ? this.planQuietly(ds, selector) : before;
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const s = emptyStatus();
    for (const p of plans) {
      const scheduled = p.pods.length > 0;
      if (!p.shouldRun) {
        if (scheduled) s.numberMisscheduled++;
        continue;
      }
      s.desiredNumberScheduled++;
      if (!scheduled) continue;
      s.currentNumberScheduled++;
      const pod = p.pods[0];
      if (isPodReady(pod)) {
        s.numberReady++;
        if (isPodAvailable(pod, minReady, now)) s.numberAvailable = (s.numberAvailable ?? 0) + 1;
      }
      if (pod.metadata.labels?.[DAEMONSET_HASH_LABEL] === hash)
        s.updatedNumberScheduled = (s.updatedNumberScheduled ?? 0) + 1;
    }
    s.numberUnavailable = s.desiredNumberScheduled - (s.numberAvailable ?? 0);
    s.observedGeneration = ds.metadata.generation;
    if (ds.status?.collisionCount !== undefined) s.collisionCount = ds.status.collisionCount;
    if (ds.status?.conditions) s.conditions = ds.status.conditions;
    const cur = ds.status;
    const same =
      cur &&
      cur.desiredNumberScheduled === s.desiredNumberScheduled &&
      cur.currentNumberScheduled === s.currentNumberScheduled &&
      cur.numberMisscheduled === s.numberMisscheduled &&
      cur.numberReady === s.numberReady &&
      (cur.updatedNumberScheduled ?? 0) === (s.updatedNumberScheduled ?? 0) &&
      (cur.numberAvailable ?? 0) === (s.numberAvailable ?? 0) &&
      (cur.numberUnavailable ?? 0) === (s.numberUnavailable ?? 0) &&
      cur.observedGeneration === s.observedGeneration;
    if (same) return;
    let current: Ds = ds;
    for (let attempt = 0; ; attempt++) {
      try {
        this.ctx.api.updateStatus({ ...current, status: wire(s) });
        return;
      } catch (e) {
        if (attempt >= 4 || !isApiError(e, 409)) throw e;
        current = this.ctx.api.get('daemonsets', ds.metadata.namespace, ds.metadata.name ?? '');
      }
    }
  }

  /** The plan again without adopting (the status counts what the writes left). */
  private planQuietly(ds: Ds, selector: Selector): NodePlan[] {
    const byNode = new Map<string, CachedPod[]>();
    for (const pod of controlledBy(this.pods, ds.metadata.uid!)) {
      if (!selector.matches(pod.metadata.labels)) continue;
      const node = targetNodeName(pod);
      if (node === undefined) continue;
      byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    return [...this.nodes.cache.list()].map((node) => ({
      node,
      ...nodeShouldRunDaemonPod(node, ds),
      pods: (byNode.get(node.metadata.name ?? '') ?? []).sort(byAge),
    }));
  }

  /** With `minReadySeconds`: come back when the next Ready pod becomes available. */
  private availabilityCheck(ds: Ds, plans: NodePlan[], now: number): number | undefined {
    const minReady = ds.spec?.minReadySeconds ?? 0;
    if (minReady <= 0) return undefined;
    let next: number | undefined;
    for (const p of plans)
      for (const pod of p.pods) {
        const at = availableAt(pod, minReady);
        if (at !== undefined && at > now && (next === undefined || at < next)) next = at;
      }
    return next === undefined ? undefined : next - now;
  }
}

/** `findUpdatedPodsOnNode`: the node's live new and old pod; undefined when it has two of either. */
function updatedPodsOnNode(pods: readonly Pod[], hash: string): { newPod?: Pod; oldPod?: Pod } | undefined {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (isTerminating(pod)) continue;
    if (pod.metadata?.labels?.[DAEMONSET_HASH_LABEL] === hash) {
      if (newPod) return undefined;
      newPod = pod;
    } else {
      if (oldPod) return undefined;
      oldPod = pod;
    }
  }
  return { newPod, oldPod };
}

type Counted = DaemonSetStatus & {
  currentNumberScheduled: number;
  desiredNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
};

function emptyStatus(): Counted {
  return { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 };
}

/** As Go encodes `DaemonSetStatus`: the four required counters always, the rest when non-zero. */
function wire(s: Counted): DaemonSetStatus {
  const out: DaemonSetStatus = {
    currentNumberScheduled: s.currentNumberScheduled,
    numberMisscheduled: s.numberMisscheduled,
    desiredNumberScheduled: s.desiredNumberScheduled,
    numberReady: s.numberReady,
  };
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  if (s.updatedNumberScheduled) out.updatedNumberScheduled = s.updatedNumberScheduled;
  if (s.numberAvailable) out.numberAvailable = s.numberAvailable;
  if (s.numberUnavailable) out.numberUnavailable = s.numberUnavailable;
  if (s.collisionCount !== undefined) out.collisionCount = s.collisionCount;
  if (s.conditions && s.conditions.length > 0) out.conditions = s.conditions;
  return out;
}

function selectorOf(ds: Ds): Selector | undefined {
  try {
    return labelSelectorFromObject(ds.spec?.selector);
  } catch {
    return undefined;
  }
}
