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
import type { KubeObject, Typed } from '../../api/types';
import { formatTimestamp, parseTimestamp } from '../../clock/clock';
import { objectKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import type { ComponentContext } from '../../client/component';
import { cloneJson } from '../../util/json';
import { Controller } from '../framework/controller';
import type { ReconcileResult, Watches } from '../framework/controller';
import { enqueueObject } from '../framework/handlers';
import type { KeyTimers } from '../framework/keyTimers';
import type { WorkQueue } from '../framework/workQueue';
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

export class DisruptionController extends Controller {
  /** Pod keys whose stale DisruptionTarget condition is reset (`syncStalePodDisruption`). */
  private readonly staleQueue: WorkQueue;
  /**
   * When each pod's DisruptionTarget condition goes stale. Background timers: nearly every such pod is deleted right
   * after the condition is set, and a cleanup that finds nothing to do is not pending work.
   */
  private readonly staleTimers: KeyTimers;
  private pods!: Informer<Typed<Pod>>;
  private pdbs!: Informer<Typed<PodDisruptionBudget>>;
  private counter!: ExpectedPodCounter;

  constructor(ctx: ComponentContext) {
    // Upstream's events come from the `controllermanager` source.
    super(ctx, { name: 'disruption-controller', recorderName: 'controllermanager' });
    this.staleQueue = this.newQueue((key) => this.reconcileStalePod(key));
    this.staleTimers = this.newTimers((key) => this.staleQueue.add(key), { background: true, keep: 'earliest' });
  }

  protected watch(w: Watches): void {
    this.pdbs = w.watch('poddisruptionbudgets', enqueueObject());
    this.pods = w.informer('pods');
    ensureSelectorIndexes(this.pdbs.cache, this.pods.cache);
    // `addPod` / `updatePod` / `deletePod`: the pod's budget is looked at again; a stale condition is scheduled.
    w.handle(this.pods, {
      onAdd: (p) => this.podChanged(p, true),
      onUpdate: (_o, n) => this.podChanged(n, true),
      onDelete: (p) => this.podChanged(p, false),
    });
    const replicaSets = w.informer('replicasets');
    const deployments = w.informer('deployments');
    const statefulSets = w.informer('statefulsets');
    const rcs = resourceByName('replicationcontrollers') ? w.informer('replicationcontrollers') : undefined;
    this.counter = new ExpectedPodCounter(this.ctx.api, {
      replicaSets: (k) => replicaSets.cache.get(k),
      deployments: (k) => deployments.cache.get(k),
      statefulSets: (k) => statefulSets.cache.get(k),
      replicationControllers: rcs && ((k) => rcs.cache.get(k)),
    });
  }

  private podChanged(pod: Typed<Pod>, present: boolean): void {
    const pdb = this.pdbForPod(pod);
    if (pdb) this.queue.add(objectKey(pdb as KubeObject));
    if (!present) return;
    const stale = this.staleDisruptionCondition(pod);
    if (stale === undefined) return;
    if (stale <= 0) this.staleQueue.add(objectKey(pod));
    else this.staleTimers.schedule(objectKey(pod), stale);
  }

  /** `getPdbForPod`: the first budget selecting the pod; several → a `MultiplePodDisruptionBudgets` warning. */
  private pdbForPod(pod: Pod): PodDisruptionBudget | undefined {
    const matching = budgetsFor(this.pdbs.cache, pod);
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
  protected reconcile(key: string): ReconcileResult {
    const pdb = this.pdbs.cache.get(key);
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
    const pods = podsFor(this.pods.cache, pdb);
    if (pods.length === 0) this.recorder.event(obj, 'Normal', 'NoPods', 'No matching pods found');
    let expected;
    try {
      expected = this.counter.expectedPods(pdb, pods);
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

  /** `syncStalePodDisruption`: sets the stale condition to False (no reason, no message), as upstream. */
  private reconcileStalePod(key: string): ReconcileResult {
    const pod = this.pods.cache.get(key);
    if (!pod) return;
    const wait = this.staleDisruptionCondition(pod);
    if (wait === undefined) return;
    if (wait > 0) {
      this.staleTimers.schedule(key, wait);
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
