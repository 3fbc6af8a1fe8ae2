/**
 * The disruption controller (pkg/controller/disruption/disruption.go): keeps
 * every PodDisruptionBudget's status — `currentHealthy`, `desiredHealthy`,
 * `expectedPods`, `disruptionsAllowed`, `disruptedPods` (approved evictions,
 * forgotten after 2 minutes without a deletion), `observedGeneration` and the
 * `DisruptionAllowed` condition (`SufficientPods`, `InsufficientPods`,
 * `SyncFailed`). The eviction subresource reads that status
 * (sandbox/apiserver/eviction.ts); nothing else computes budgets.
 *
 * It also resets a `DisruptionTarget=True` condition left on a pod that was
 * not deleted within 2 minutes (`syncStalePodDisruption`).
 *
 * Shape: informer events map to keys (budget keys; pod keys for the stale
 * conditions), and `reconcile(key)` / `reconcileStalePod(key)` read the caches
 * and write status.
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { LabelSelector as PdbSelector } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { isApiError } from '../../api/errors';
import { resourceByName } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import type { TimerHandle } from '../../clock/clock';
import { formatTimestamp, parseTimestamp } from '../../clock/clock';
import { objectKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import { Recorder } from '../../client/component';
import type { Component, ComponentContext } from '../../client/component';
import { cloneJson } from '../../util/json';
import type { ReconcileResult } from '../framework/workQueue';
import { WorkQueue } from '../framework/workQueue';
import { isPodTerminal } from '../util/pods';
import { ExpectedPodCounter } from './expectedPods';
import { budgetsFor, ensureSelectorIndexes, podsFor } from './selectorIndex';
import { buildDisruptedPodMap, countHealthyPods, failSafeStatus, nextStatus } from './status';

/** `stalePodDisruptionTimeout`. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;

/** `%v` of a `*metav1.LabelSelector` (its generated String()), as the UnmanagedPods warning prints it. */
export function goLabelSelector(sel: PdbSelector | undefined): string {
  if (!sel) return 'nil';
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('');
  const exprs = (sel.matchExpressions ?? [])
    .map(
      (e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

export class DisruptionController implements Component {
  readonly name = 'disruption-controller';
  /** Upstream's events come from the `controllermanager` source. */
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private readonly staleQueue: WorkQueue;
  /** Pod keys waiting for their DisruptionTarget condition to go stale (housekeeping: background timers). */
  private readonly staleTimers = new Map<string, { due: number; handle: TimerHandle }>();
  private pods: Informer | undefined;
  private pdbs: Informer | undefined;
  private counter: ExpectedPodCounter | undefined;
  private running = false;

  constructor(private readonly ctx: ComponentContext) {
    this.recorder = new Recorder(ctx, 'controllermanager');
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.reconcile(key),
      onError: (key, error, retry) => this.recorder.syncFailed(key, error, retry),
    });
    this.staleQueue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.reconcileStalePod(key),
      onError: (key, error, retry) =>
        this.recorder.syncFailed(key, error, retry, `clearing the DisruptionTarget condition of pod "${key}"`),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const { informers } = this.ctx;
    const pods = (this.pods = informers.get('pods'));
    const pdbs = (this.pdbs = informers.get('poddisruptionbudgets'));
    ensureSelectorIndexes(pdbs.cache, pods.cache);
    const replicaSets = informers.get('replicasets');
    const deployments = informers.get('deployments');
    const statefulSets = informers.get('statefulsets');
    const rcs = resourceByName('replicationcontrollers') ? informers.get('replicationcontrollers') : undefined;
    this.counter = new ExpectedPodCounter(this.ctx.api, {
      replicaSets: (k) => replicaSets.cache.get(k),
      deployments: (k) => deployments.cache.get(k),
      statefulSets: (k) => statefulSets.cache.get(k),
      replicationControllers: rcs && ((k) => rcs.cache.get(k)),
    });
    const budget = (o: KubeObject): void => this.enqueue(objectKey(o));
    pdbs.addHandlers({ onAdd: budget, onUpdate: (_o, n) => budget(n), onDelete: budget });
    pods.addHandlers({
      onAdd: (p) => this.podChanged(p as Pod, true),
      onUpdate: (_o, n) => this.podChanged(n as Pod, true),
      onDelete: (p) => this.podChanged(p as Pod, false),
    });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
    this.staleQueue.shutdown();
    for (const t of this.staleTimers.values()) this.ctx.clock.clearTimer(t.handle);
    this.staleTimers.clear();
  }

  private enqueue(key: string): void {
    if (this.running) this.queue.add(key);
  }

  /** `addPod` / `updatePod` / `deletePod`: the pod's budget is looked at again; a stale condition is scheduled. */
  private podChanged(pod: Pod, present: boolean): void {
    const pdb = this.pdbForPod(pod);
    if (pdb) this.enqueue(objectKey(pdb as KubeObject));
    if (!present) return;
    const stale = this.staleDisruptionCondition(pod);
    if (stale !== undefined) this.scheduleStaleCleanup(objectKey(pod as KubeObject), stale);
  }

  /** `getPdbForPod`: the first budget selecting the pod; several → a `MultiplePodDisruptionBudgets` warning. */
  private pdbForPod(pod: Pod): PodDisruptionBudget | undefined {
    const matching = budgetsFor(this.pdbs!.cache, pod);
    if (matching.length > 1) {
      this.recorder.event(
        pod as KubeObject,
        'Warning',
        'MultiplePodDisruptionBudgets',
        `Pod "${pod.metadata?.namespace}"/"${pod.metadata?.name}" matches multiple PodDisruptionBudgets.  Chose "${matching[0].metadata?.name}" arbitrarily.`,
      );
    }
    return matching[0];
  }

  /** `sync`: a failure other than a conflict leaves the budget allowing nothing, with the reason (`failSafe`). */
  reconcile(key: string): ReconcileResult {
    const pdb = this.pdbs?.cache.get(key) as PodDisruptionBudget | undefined;
    if (!pdb) return;
    try {
      return this.trySync(pdb);
    } catch (e) {
      if (isApiError(e, 409)) throw e;
      const message = e instanceof Error ? e.message : String(e);
      this.recorder.logOnly(pdb as KubeObject, 'Warning', 'SyncFailed', `Failed to sync PDB: ${message}`);
      const status = failSafeStatus(pdb, message, this.ctx.clock.now());
      this.ctx.api.updateStatus({ ...(pdb as KubeObject), status });
    }
  }

  private trySync(pdb: PodDisruptionBudget): ReconcileResult {
    const obj = pdb as KubeObject;
    const pods = podsFor(this.pods!.cache, pdb);
    if (pods.length === 0) this.recorder.event(obj, 'Normal', 'NoPods', 'No matching pods found');
    let expected;
    try {
      expected = this.counter!.expectedPods(pdb, pods);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.recorder.event(
        obj,
        'Warning',
        'CalculateExpectedPodCountFailed',
        `Failed to calculate the number of expected pods: ${message}`,
      );
      throw e;
    }
    if (expected.unmanagedPods.length > 0) {
      this.recorder.event(
        obj,
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${goLabelSelector(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = this.ctx.clock.now();
    const disrupted = buildDisruptedPodMap(pods, pdb, now);
    for (const pod of disrupted.notDeleted) {
      // Upstream names the budget's namespace twice here.
      const ns = pdb.metadata?.namespace;
      this.recorder.event(
        pod as KubeObject,
        'Warning',
        'NotDeleted',
        `Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`,
      );
    }
    const status = nextStatus(
      pdb,
      {
        currentHealthy: countHealthyPods(pods, disrupted.pods, now),
        desiredHealthy: expected.desiredHealthy,
        expectedCount: expected.expectedCount,
        disruptedPods: disrupted.pods,
      },
      now,
    );
    if (status) this.ctx.api.updateStatus({ ...obj, status });
    if (disrupted.recheckAt !== undefined) return { requeueAfter: disrupted.recheckAt - now };
  }

  // ---- stale DisruptionTarget conditions ----

  /**
   * `nonTerminatingPodHasStaleDisruptionCondition`: for a live, non-terminal pod with `DisruptionTarget=True` (not the
   * kubelet's), the time until it is stale (≥ 0); undefined otherwise.
   */
  private staleDisruptionCondition(pod: Pod): number | undefined {
    if (pod.metadata?.deletionTimestamp) return undefined;
    const cond = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    if (!cond || cond.status !== 'True' || cond.reason === 'TerminationByKubelet' || isPodTerminal(pod))
      return undefined;
    const since = cond.lastTransitionTime ? parseTimestamp(cond.lastTransitionTime) : this.ctx.clock.now();
    return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - (this.ctx.clock.now() - since));
  }

  /**
   * `enqueueStalePodDisruptionCleanup`. A background timer: nearly every such pod is deleted right after the condition
   * is set, and a cleanup that finds nothing to do is not pending work.
   */
  private scheduleStaleCleanup(key: string, delayMs: number): void {
    if (!this.running) return;
    if (delayMs <= 0) return this.staleQueue.add(key);
    const due = this.ctx.clock.now() + delayMs;
    const existing = this.staleTimers.get(key);
    if (existing && existing.due <= due) return;
    if (existing) this.ctx.clock.clearTimer(existing.handle);
    const handle = this.ctx.clock.setTimer(
      delayMs,
      () => {
        this.staleTimers.delete(key);
        if (this.running) this.staleQueue.add(key);
      },
      { background: true },
    );
    this.staleTimers.set(key, { due, handle });
  }

  /** `syncStalePodDisruption`: sets the stale condition to False (no reason, no message), as upstream. */
  reconcileStalePod(key: string): ReconcileResult {
    const pod = this.pods?.cache.get(key) as Pod | undefined;
    if (!pod) return;
    const wait = this.staleDisruptionCondition(pod);
    if (wait === undefined) return;
    if (wait > 0) {
      this.scheduleStaleCleanup(key, wait);
      return;
    }
    const status = cloneJson(pod.status ?? {});
    const conditions = status.conditions ?? [];
    const i = conditions.findIndex((c) => c.type === 'DisruptionTarget');
    const reset: PodCondition = {
      type: 'DisruptionTarget',
      status: 'False',
      lastTransitionTime: formatTimestamp(this.ctx.clock.now()),
    };
    if (i < 0) conditions.push(reset);
    else conditions[i] = reset;
    status.conditions = conditions;
    this.ctx.api.updateStatus({ ...(pod as KubeObject), status });
    this.recorder.logOnly(
      pod as KubeObject,
      'Normal',
      'DisruptionTargetReset',
      'Reset stale DisruptionTarget condition to False',
    );
  }
}
