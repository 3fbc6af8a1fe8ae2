/**
 * kube-scheduler for the sandbox (`pkg/scheduler/`): watches pods and nodes,
 * queues unbound pods that name `default-scheduler`, runs the default
 * filters and scores on its node cache, binds the winner, and for pods that
 * fit nowhere writes upstream's exact FailedScheduling message to a Warning
 * event and the `PodScheduled=False` condition. Keeps each pod's last
 * decision for `explain`.
 */
import type { Node, Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { LabelSelectorRequirement, Selector } from '../api/selectors/labelSelector';
import { labelSelectorFromObject } from '../api/selectors/labelSelector';
import { isApiError } from '../api/errors';
import type { ObjectsByResource } from '../api/resourceObjects';
import { objectKey } from '../client/cache';
import type { Informer } from '../client/informer';
import type { TimerHandle } from '../clock/clock';
import { formatTimestamp } from '../clock/clock';
import type { SeededRandom } from '../clock/random';
import type { Component, ComponentContext } from '../client/component';
import { Recorder } from '../client/component';
import { bindPod } from './bind';
import {
  ASSIGNED_POD_ADDED,
  ASSIGNED_POD_GONE,
  NODE_ADDED,
  VOLUME_CHANGED,
  nodeUpdateMask,
  pluginBit,
} from './clusterEvents';
import { VOLUME_BINDING } from './filters';
import { ANN_SELECTED_NODE, BIND_POLL_MS, BIND_TIMEOUT_MS, claimsBound, planVolumes } from './volumeBinding';
import type { VolumeLookup, VolumePlan } from './volumeBinding';
import type { SchedulingExplanation, SchedulingOutcome } from './explanation';
import { ExplanationStore } from './explanation';
import { NO_NODES_AVAILABLE, PREEMPTION_NOT_HELPFUL, PREEMPTION_POLICY_NEVER, fitErrorMessage } from './fitError';
import type { CycleState } from './filters';
import { isUnresolvable, pluginOf } from './filters';
import type { NamespaceLabels } from './podAffinity';
import { preFilter } from './preFilter';
import type { Candidate } from './preemption';
import { findCandidate } from './preemption';
import type { NodeState } from './nodeState';
import type { PodInfo } from './podInfo';
import { newPodInfo } from './podInfo';
import { SchedulerCache } from './schedulerCache';
import type { CycleCursor, CycleRecord } from './schedulePod';
import { schedulePod } from './schedulePod';
import type { QueueOptions, QueuedPod } from './schedulingQueue';
import { SchedulingQueue } from './schedulingQueue';
import { setPodScheduledFalse } from './podStatus';

export type { NodeExplanation, SchedulingExplanation, SchedulingOutcome } from './explanation';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** upstream: pkg/scheduler/framework/preemption `PodEligibleToPreemptOthers`. */
const NOT_ELIGIBLE_TERMINATING = 'not eligible due to a terminating pod on the nominated node.';

function isUnresolvableVerdict(v: number, tooSmall: boolean): boolean {
  return isUnresolvable(v, tooSmall);
}

/** `podTerminatingByPreemption`: being deleted, and marked DisruptionTarget by a scheduler's preemption. */
function terminatingByPreemption(pod: Pod): boolean {
  if (!pod.metadata?.deletionTimestamp) return false;
  return (pod.status?.conditions ?? []).some(
    (c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === PREEMPTION_REASON,
  );
}

const PREEMPTION_REASON = 'PreemptionByScheduler';

/** The victim's status with `DisruptionTarget=True` (`prepareCandidate`); undefined when it already says so. */
function withPreemptionCondition(pod: Pod, now: number, schedulerName: string): Pod['status'] | undefined {
  const message = `${schedulerName}: preempting to accommodate a higher priority pod`;
  const conditions: PodCondition[] = [...(pod.status?.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === 'DisruptionTarget');
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === 'True' && old.reason === PREEMPTION_REASON && old.message === message) return undefined;
  const next: PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    lastTransitionTime:
      old?.status === 'True' && old.lastTransitionTime ? old.lastTransitionTime : formatTimestamp(now),
    reason: PREEMPTION_REASON,
    message,
  };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  return { ...pod.status, conditions };
}

type CachedPod = ObjectsByResource['pods'];

/** The phases `measure` is told about, for benchmarks. */
export type SchedulerPhase = 'schedule' | 'bind' | 'event' | 'status';

export interface SchedulerOptions {
  /** Upstream `percentageOfNodesToScore`: 0 (default) is adaptive, 100 evaluates every node. */
  percentageOfNodesToScore?: number;
  /** Evaluated-node entries kept in full explanations before the oldest keep only a summary. */
  explanationDetailBudget?: number;
  queue?: QueueOptions;
  /**
   * Kubernetes ≥ 1.34: a node smaller than the pod's request is reported as
   * "Preemption is not helpful for scheduling" rather than "No preemption
   * victims found for incoming pod". Default false (the 1.30 behaviour).
   */
  nodeTooSmallIsUnresolvable?: boolean;
  /** Wraps each phase of a cycle (benchmarks time them); the default just runs it. */
  measure?: <T>(phase: SchedulerPhase, fn: () => T) => T;
}

const EMPTY_RECORD: CycleRecord = {
  totalNodes: 0,
  names: [],
  verdicts: new Int32Array(0),
  taintReasons: undefined,
  feasible: new Int32Array(0),
  scores: undefined,
  chosen: -1,
};

export class Scheduler implements Component {
  readonly name = DEFAULT_SCHEDULER_NAME;
  private readonly cache = new SchedulerCache();
  private readonly queue: SchedulingQueue;
  private readonly explanations: ExplanationStore;
  private readonly recorder: Recorder;
  private readonly random: SeededRandom;
  private readonly cursor: CycleCursor = { nextStart: 0 };
  private readonly measure: <T>(phase: SchedulerPhase, fn: () => T) => T;
  private pods: Informer<CachedPod> | undefined;
  private namespaces: Informer<ObjectsByResource['namespaces']> | undefined;
  private pdbs: Informer<ObjectsByResource['poddisruptionbudgets']> | undefined;
  private readonly nsLabels: NamespaceLabels = (ns) => this.namespaces?.cache.get(ns)?.metadata.labels;
  private services: Informer<ObjectsByResource['services']> | undefined;
  private replicaSets: Informer<ObjectsByResource['replicasets']> | undefined;
  private statefulSets: Informer<ObjectsByResource['statefulsets']> | undefined;
  private drainTimer: TimerHandle | undefined;
  private running = false;
  private volumes: VolumeLookup | undefined;
  /** PreBind waits (VolumeBinding): pods waiting for their claims to be bound. */
  private readonly volumeWaits = new Set<TimerHandle>();

  constructor(
    private readonly ctx: ComponentContext,
    private readonly options: SchedulerOptions = {},
  ) {
    this.random = ctx.random.fork(DEFAULT_SCHEDULER_NAME);
    this.recorder = new Recorder(ctx, DEFAULT_SCHEDULER_NAME);
    this.explanations = new ExplanationStore(options.explanationDetailBudget);
    this.queue = new SchedulingQueue(ctx.clock, () => this.scheduleDrain(), options.queue);
    this.measure = options.measure ?? ((_phase, fn) => fn());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const nodes = this.ctx.informers.get('nodes');
    nodes.addHandlers({
      onAdd: (n) => this.running && this.onNode(undefined, n),
      onUpdate: (o, n) => this.running && this.onNode(o, n),
      onDelete: (n) => this.running && this.cache.removeNode(n.metadata.name!),
    });
    this.namespaces = this.ctx.informers.get('namespaces');
    this.pdbs = this.ctx.informers.get('poddisruptionbudgets');
    this.services = this.ctx.informers.get('services');
    this.replicaSets = this.ctx.informers.get('replicasets');
    this.statefulSets = this.ctx.informers.get('statefulsets');
    this.pods = this.ctx.informers.get('pods');
    this.pods.addHandlers({
      onAdd: (p) => this.running && this.onPod(undefined, p),
      onUpdate: (o, p) => this.running && this.onPod(o, p),
      onDelete: (p) => this.running && this.onPodDeleted(p),
    });
    // VolumeBinding: claims, volumes and classes (upstream's `EventsToRegister`).
    const claims = this.ctx.informers.get('persistentvolumeclaims');
    const pvs = this.ctx.informers.get('persistentvolumes');
    const classes = this.ctx.informers.get('storageclasses');
    const moved = { onAdd: () => this.onVolumeEvent(), onUpdate: () => this.onVolumeEvent() };
    claims.addHandlers(moved);
    pvs.addHandlers(moved);
    classes.addHandlers(moved);
    this.volumes = {
      claim: (ns, name) => claims.cache.get(`${ns}/${name}`),
      volume: (name) => pvs.cache.get(name),
      storageClass: (name) => classes.cache.get(name),
    };
  }

  private onVolumeEvent(): void {
    if (this.running) this.queue.moveAll(VOLUME_CHANGED);
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
    if (this.drainTimer) this.ctx.clock.clearTimer(this.drainTimer);
    this.drainTimer = undefined;
    for (const t of this.volumeWaits) this.ctx.clock.clearTimer(t);
    this.volumeWaits.clear();
  }

  /** The last scheduling decision for a pod, as a plain JSON-able object; undefined if none is known. */
  explain(namespace: string, name: string): SchedulingExplanation | undefined {
    return this.explanations.explain(`${namespace}/${name}`);
  }

  /** Pods waiting in each part of the queue. */
  queueCounts(): { active: number; backoff: number; unschedulable: number } {
    return this.queue.counts();
  }

  private onNode(old: Node | undefined, node: Node): void {
    this.cache.setNode(node);
    const mask = old ? nodeUpdateMask(old, node) : NODE_ADDED;
    if (mask !== 0) this.queue.moveAll(mask);
  }

  private onPod(old: CachedPod | undefined, pod: CachedPod): void {
    const key = objectKey(pod);
    if (pod.spec?.nodeName) {
      this.queue.delete(key);
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') {
        if (this.cache.removePod(key)) this.queue.moveAll(ASSIGNED_POD_GONE);
      } else {
        if (this.cache.addOrUpdatePod(key, pod)) this.queue.moveAll(ASSIGNED_POD_ADDED);
      }
      return;
    }
    const responsible = (pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME;
    if (!responsible || pod.metadata?.deletionTimestamp || (pod.spec?.schedulingGates ?? []).length > 0) {
      this.queue.delete(key);
      return;
    }
    const specChanged = old !== undefined && old.spec !== pod.spec;
    this.queue.addOrUpdate(key, pod, pod.spec?.priority ?? 0, specChanged);
  }

  private onPodDeleted(obj: CachedPod): void {
    const key = objectKey(obj);
    this.queue.delete(key);
    this.explanations.delete(key);
    if (this.cache.removePod(key)) this.queue.moveAll(ASSIGNED_POD_GONE);
  }

  private scheduleDrain(): void {
    if (this.drainTimer || !this.running) return;
    this.drainTimer = this.ctx.clock.setTimer(0, () => {
      this.drainTimer = undefined;
      this.drain();
    });
  }

  private drain(): void {
    for (let qp = this.queue.pop(); qp && this.running; qp = this.queue.pop()) this.scheduleOne(qp);
  }

  private scheduleOne(qp: QueuedPod): void {
    const info = (qp.info ??= newPodInfo(qp.pod));
    const nodes = this.cache.nodeList;
    if (nodes.length === 0) return this.unschedulable(qp, EMPTY_RECORD, NO_NODES_AVAILABLE, 0);
    const plan = this.volumes ? planVolumes(qp.pod, this.volumes) : undefined;
    info.volumeNodes = plan?.nodes;
    if (plan?.rejection !== undefined) {
      // A PreFilter rejection (UnschedulableAndUnresolvable on every node): upstream's FitError wording.
      const n = nodes.length;
      const post = info.preemptNever
        ? PREEMPTION_POLICY_NEVER
        : `0/${n} nodes are available: ${n} ${PREEMPTION_NOT_HELPFUL}.`;
      const message = `0/${n} nodes are available: ${plan.rejection}. preemption: ${post}`;
      return this.unschedulable(qp, { ...EMPTY_RECORD, totalNodes: n }, message, pluginBit(VOLUME_BINDING));
    }
    const pct = this.options.percentageOfNodesToScore ?? 0;
    const record = this.measure('schedule', () => {
      const cycle = preFilter(
        info,
        this.cache,
        this.nsLabels,
        () => this.defaultSelector(qp.pod),
        this.queue.nominator,
      );
      return schedulePod(info, nodes, this.cursor, this.random, pct, cycle);
    });
    if (record.chosen >= 0) {
      const nodeName = record.names[record.feasible[record.chosen]];
      if (plan) return this.preBindVolumes(qp, info, record, nodeName, plan);
      return this.bind(qp, info, record, nodeName);
    }
    const tooSmall = this.options.nodeTooSmallIsUnresolvable ?? false;
    const { preemption, nominated, notEligible } = info.preemptNever
      ? { preemption: undefined, nominated: undefined, notEligible: undefined }
      : this.measure('schedule', () => this.postFilter(qp, info, record, tooSmall));
    let message = fitErrorMessage(
      record.totalNodes,
      record.verdicts,
      record.names.length,
      (i) => record.taintReasons?.get(i) ?? '',
      info.preemptNever,
      tooSmall,
      preemption,
    );
    if (notEligible) message = `${message.slice(0, message.indexOf(' preemption: '))} preemption: ${notEligible}`;
    let rejected = 0;
    for (const v of record.verdicts) rejected |= pluginBit(pluginOf(v));
    this.unschedulable(qp, record, message, rejected, nominated);
  }

  /**
   * DefaultPreemption's PostFilter: not eligible while a victim of an earlier preemption is still terminating on the
   * nominated node (`PodEligibleToPreemptOthers`); else the dry run, and for the chosen candidate the victims are
   * marked DisruptionTarget, deleted and told why (`prepareCandidate`). Returns the reasons for the message (null
   * when a candidate was found) and the node nominated.
   */
  private postFilter(
    qp: QueuedPod,
    info: PodInfo,
    record: CycleRecord,
    tooSmall: boolean,
  ): { preemption: Map<string, number> | null | undefined; nominated?: string; notEligible?: string } {
    const current = this.pods?.cache.get(qp.key) ?? qp.pod;
    const nominatedName = current.status?.nominatedNodeName;
    if (nominatedName) {
      const i = record.names.indexOf(nominatedName);
      const unresolvable = i >= 0 && isUnresolvableVerdict(record.verdicts[i], tooSmall);
      const node = this.cache.node(nominatedName);
      if (!unresolvable && node)
        for (const p of node.pods)
          if (p.priority < info.priority && terminatingByPreemption(p.pod))
            return { preemption: undefined, notEligible: NOT_ELIGIBLE_TERMINATING };
    }
    const nodes: NodeState[] = record.names.map((n) => this.cache.node(n)!);
    const pdbs = this.pdbs?.cache.list() ?? [];
    const recompute = (): CycleState => preFilter(info, this.cache, this.nsLabels, undefined, this.queue.nominator);
    const { candidate, reasons } = findCandidate(info, nodes, record.verdicts, pdbs, recompute, tooSmall);
    if (!candidate) return { preemption: reasons };
    this.evictVictims(current, candidate);
    return { preemption: null, nominated: candidate.node.name };
  }

  /**
   * `helper.DefaultSelector`: the Services selecting the pod, and its controller if a ReplicaSet or StatefulSet, merged
   * into one selector. (ReplicationControllers are not served by this sandbox yet.)
   */
  private defaultSelector(pod: CachedPod): Selector | undefined {
    const ns = pod.metadata.namespace ?? '';
    const labels = pod.metadata.labels ?? {};
    const matchLabels: Record<string, string> = {};
    for (const svc of this.services?.cache.list() ?? []) {
      const sel = svc.spec?.selector;
      if (svc.metadata.namespace !== ns || !sel || Object.keys(sel).length === 0) continue;
      if (Object.entries(sel).every(([k, v]) => labels[k] === v)) Object.assign(matchLabels, sel);
    }
    const owner = pod.metadata.ownerReferences?.find((o) => o.controller === true);
    let matchExpressions: LabelSelectorRequirement[] = [];
    const informer =
      owner?.apiVersion === 'apps/v1' && owner.kind === 'ReplicaSet'
        ? this.replicaSets
        : owner?.apiVersion === 'apps/v1' && owner.kind === 'StatefulSet'
          ? this.statefulSets
          : undefined;
    const workload = owner && informer?.cache.get(`${ns}/${owner.name}`);
    if (workload) {
      const sel = workload.spec?.selector;
      Object.assign(matchLabels, sel?.matchLabels ?? {});
      matchExpressions = [...(sel?.matchExpressions ?? [])];
    }
    try {
      return labelSelectorFromObject({ matchLabels, matchExpressions });
    } catch {
      return undefined;
    }
  }

  private evictVictims(preemptor: CachedPod, c: Candidate): void {
    const schedulerName = preemptor.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME;
    for (const v of c.victims) {
      const ns = v.pod.metadata?.namespace ?? '';
      const name = v.pod.metadata?.name ?? '';
      const live = this.ctx.api.tryGet('pods', ns, name);
      if (!live || live.metadata.uid !== v.uid) continue;
      try {
        const status = withPreemptionCondition(live, this.ctx.clock.now(), schedulerName);
        if (status) this.ctx.api.updateStatus({ ...live, status });
        this.ctx.api.delete('pods', ns, name);
      } catch (e) {
        if (!isApiError(e, 404) && !isApiError(e, 409)) throw e;
        continue;
      }
      this.recorder.event(
        live,
        'Normal',
        'Preempted',
        `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${c.node.name}`,
      );
    }
  }

  private bind(qp: QueuedPod, info: PodInfo, record: CycleRecord, nodeName: string): void {
    this.cache.assume(info, nodeName);
    let bound: CachedPod;
    try {
      bound = this.measure('bind', () => bindPod(this.ctx.api, qp.pod, nodeName));
    } catch (e) {
      this.cache.forget(info.key);
      if (!isApiError(e)) throw e;
      return this.bindingFailed(qp, record, `running Bind plugin "DefaultBinder": ${e.message}`);
    }
    this.queue.done(qp);
    this.remember(qp, record, 'Scheduled');
    const ref = `${bound.metadata.namespace}/${bound.metadata.name}`;
    this.measure('event', () =>
      this.recorder.event(bound, 'Normal', 'Scheduled', `Successfully assigned ${ref} to ${nodeName}`),
    );
  }

  /**
   * VolumeBinding's PreBind: the unbound WaitForFirstConsumer claims are annotated with the chosen node (the
   * PersistentVolume controller then binds or provisions), and the pod is bound once every claim is Bound — polled
   * every second up to the bind timeout, the pod staying assumed on its node meanwhile.
   */
  private preBindVolumes(qp: QueuedPod, info: PodInfo, record: CycleRecord, nodeName: string, plan: VolumePlan): void {
    this.cache.assume(info, nodeName);
    const ns = qp.pod.metadata.namespace ?? 'default';
    try {
      for (const name of plan.delayed) {
        const pvc = this.volumes!.claim(ns, name);
        if (!pvc || pvc.metadata?.annotations?.[ANN_SELECTED_NODE] === nodeName) continue;
        this.ctx.api.update({
          ...pvc,
          metadata: { ...pvc.metadata, annotations: { ...pvc.metadata?.annotations, [ANN_SELECTED_NODE]: nodeName } },
        });
      }
    } catch (e) {
      this.cache.forget(info.key);
      if (!isApiError(e)) throw e;
      return this.bindingFailed(qp, record, `running PreBind plugin "VolumeBinding": binding volumes: ${e.message}`);
    }
    const deadline = this.ctx.clock.now() + BIND_TIMEOUT_MS;
    const check = (): void => {
      if (!this.running) return;
      if (claimsBound(ns, plan.claims, this.volumes!)) {
        this.cache.forget(info.key);
        return this.bind(qp, info, record, nodeName);
      }
      if (this.ctx.clock.now() >= deadline) {
        this.cache.forget(info.key);
        return this.bindingFailed(
          qp,
          record,
          'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded',
        );
      }
      const t = this.ctx.clock.setTimer(BIND_POLL_MS, () => {
        this.volumeWaits.delete(t);
        check();
      });
      this.volumeWaits.add(t);
    };
    check();
  }

  private bindingFailed(qp: QueuedPod, record: CycleRecord, message: string): void {
    const current = this.pods?.cache.get(qp.key);
    if (!current || current.spec?.nodeName || current.metadata?.deletionTimestamp) {
      // Bound or deleted by someone else meanwhile: nothing left to schedule.
      this.queue.done(qp);
      this.recorder.logOnly(qp.pod, 'Normal', 'SchedulingAborted', message);
      return;
    }
    this.remember(qp, record, 'BindingFailed', message);
    this.recorder.event(qp.pod, 'Warning', 'FailedScheduling', message);
    this.writeCondition(qp, 'SchedulerError', message);
    this.queue.retry(qp);
  }

  private unschedulable(
    qp: QueuedPod,
    record: CycleRecord,
    message: string,
    rejected: number,
    nominated?: string,
  ): void {
    this.remember(qp, record, 'Unschedulable', message);
    this.measure('event', () => this.recorder.event(qp.pod, 'Warning', 'FailedScheduling', message));
    this.writeCondition(qp, 'Unschedulable', message, nominated);
    // A pod that preempted waits for its victims to go (ASSIGNED_POD_GONE concerns every plugin preemption helps).
    this.queue.unschedulable(qp, rejected);
  }

  private writeCondition(qp: QueuedPod, reason: string, message: string, nominated?: string): void {
    const current = this.pods?.cache.get(qp.key);
    if (!current) return;
    this.measure('status', () => setPodScheduledFalse(this.ctx.api, current, reason, message, nominated));
  }

  private remember(qp: QueuedPod, record: CycleRecord, outcome: SchedulingOutcome, message?: string): void {
    const decision = {
      uid: qp.pod.metadata.uid ?? '',
      time: formatTimestamp(this.ctx.clock.now()),
      attempts: qp.attempts,
      outcome,
      record,
    };
    this.explanations.record(qp.key, message === undefined ? decision : { ...decision, message });
  }
}
