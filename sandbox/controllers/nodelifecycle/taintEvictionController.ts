/**
 * The taint eviction controller (upstream pkg/controller/tainteviction):
 * pods on a node with NoExecute taints they do not tolerate are deleted at
 * once; pods that tolerate them for `tolerationSeconds` are deleted when that
 * runs out (a foreground timer: real pending work); the deletion is cancelled
 * when the taint goes, the pod goes, or it comes to tolerate the taint forever.
 *
 * As upstream, the toleration period runs from when this controller first
 * scheduled the pod's eviction — in practice the taint's `timeAdded`.
 */
import type { Node, Pod, PodCondition, Taint } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import type { TimerHandle } from '../../clock/clock';
import { formatTimestamp } from '../../clock/clock';
import { splitKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import { Recorder } from '../../client/component';
import type { Component, ComponentContext } from '../../client/component';
import { cloneJson, jsonEqual } from '../../util/json';
import { WorkQueue } from '../framework/workQueue';
import { ensurePodNodeIndex, podsOnNode } from './podsByNode';
import { matchingTolerations, minTolerationMs } from './tolerations';

export const EVICTION_REASON = 'TaintManagerEviction';
export const DISRUPTION_REASON = 'DeletionByTaintManager';
export const DISRUPTION_MESSAGE = 'Taint manager: deleting due to NoExecute taint';

interface Scheduled {
  createdAt: number;
  fireAt: number;
  handle: TimerHandle;
}

const NODE = 'node:';
const POD = 'pod:';

function noExecuteTaints(node: KubeObject | undefined): Taint[] {
  return ((node as unknown as Node | undefined)?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
}

export class TaintEvictionController implements Component {
  readonly name = 'taint-eviction-controller';
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private readonly scheduled = new Map<string, Scheduled>();
  private nodes: Informer | undefined;
  private pods: Informer | undefined;
  private running = false;

  constructor(private readonly ctx: ComponentContext) {
    this.recorder = new Recorder(ctx, 'taint-eviction-controller');
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) =>
        key.startsWith(NODE) ? this.syncNode(key.slice(NODE.length)) : this.syncPod(key.slice(POD.length)),
      onError: (key, error, retryInMs) =>
        this.recorder.logOnly(
          key,
          'Warning',
          'SyncError',
          `${error instanceof Error ? error.message : String(error)}; retrying in ${retryInMs}ms`,
        ),
    });
  }

  /** Pod keys (`ns/name`) with a pending eviction, and when it is due (epoch ms). */
  pendingEvictions(): { pod: string; at: number }[] {
    return [...this.scheduled]
      .map(([pod, s]) => ({ pod, at: s.fireAt }))
      .sort((a, b) => a.at - b.at || a.pod.localeCompare(b.pod));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.pods = this.ctx.informers.get('pods');
    ensurePodNodeIndex(this.pods.cache);
    this.nodes = this.ctx.informers.get('nodes');
    this.nodes.addHandlers({
      onAdd: (n) => this.enqueueNode(n),
      onUpdate: (o, n) => {
        if (!jsonEqual(noExecuteTaints(o), noExecuteTaints(n))) this.enqueueNode(n);
      },
      onDelete: (n) => this.enqueueNode(n),
    });
    this.pods.addHandlers({
      onAdd: (p) => this.enqueuePod(p),
      onUpdate: (o, p) => {
        const a = o.spec as Pod['spec'];
        const b = p.spec as Pod['spec'];
        if (a?.nodeName !== b?.nodeName || !jsonEqual(a?.tolerations ?? [], b?.tolerations ?? [])) this.enqueuePod(p);
      },
      onDelete: (p) => this.enqueuePod(p),
    });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
    for (const s of this.scheduled.values()) this.ctx.clock.clearTimer(s.handle);
    this.scheduled.clear();
  }

  private enqueueNode(n: KubeObject): void {
    if (this.running) this.queue.add(`${NODE}${n.metadata.name}`);
  }

  private enqueuePod(p: KubeObject): void {
    if (this.running) this.queue.add(`${POD}${p.metadata.namespace}/${p.metadata.name}`);
  }

  private syncNode(name: string): void {
    const taints = noExecuteTaints(this.nodes!.cache.get(name));
    for (const pod of podsOnNode(this.pods!.cache, name)) this.processPod(pod, taints);
  }

  private syncPod(key: string): void {
    const pod = this.pods!.cache.get(key);
    if (!pod) return this.cancel(key);
    const nodeName = (pod.spec as Pod['spec'])?.nodeName ?? '';
    if (nodeName === '') return;
    this.processPod(pod, noExecuteTaints(this.nodes!.cache.get(nodeName)));
  }

  /** Upstream `processPodOnNode`: evict now, later, or never. */
  private processPod(obj: KubeObject, taints: readonly Taint[]): void {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    if (taints.length === 0) return this.cancel(key);
    const used = matchingTolerations(taints, (obj.spec as Pod['spec'])?.tolerations ?? []);
    const now = this.ctx.clock.now();
    if (!used) {
      // Not tolerated at all: whatever was scheduled gives way to deletion now.
      if ((this.scheduled.get(key)?.fireAt ?? now) > now) this.cancel(key);
      return this.schedule(key, now, 0);
    }
    const min = minTolerationMs(used);
    if (min === undefined) return this.cancel(key);
    this.schedule(key, now, min);
  }

  /**
   * An eviction already scheduled keeps its start and due time, as upstream:
   * a taint swapping (unreachable → not-ready) does not restart the clock.
   */
  private schedule(key: string, now: number, afterMs: number): void {
    const existing = this.scheduled.get(key);
    if (existing) {
      if (existing.createdAt < now || existing.fireAt === now + afterMs) return;
      this.ctx.clock.clearTimer(existing.handle);
    }
    const handle = this.ctx.clock.setTimer(afterMs, () => this.evict(key));
    this.scheduled.set(key, { createdAt: now, fireAt: now + afterMs, handle });
  }

  private cancel(key: string): void {
    const existing = this.scheduled.get(key);
    if (!existing) return;
    this.ctx.clock.clearTimer(existing.handle);
    this.scheduled.delete(key);
    const { namespace, name } = splitKey(key);
    this.recorder.event(this.podRef(namespace, name), 'Normal', EVICTION_REASON, `Cancelling deletion of Pod ${key}`);
  }

  private podRef(namespace: string, name: string): KubeObject {
    return (
      this.ctx.api.tryGet('pods', namespace, name) ?? { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }
    );
  }

  /** Marks the pod a disruption target (`DeletionByTaintManager`) and deletes it with its default grace period. */
  private evict(key: string): void {
    this.scheduled.delete(key);
    if (!this.running) return;
    const { namespace, name } = splitKey(key);
    const pod = this.ctx.api.tryGet('pods', namespace, name);
    this.recorder.event(
      pod ?? this.podRef(namespace, name),
      'Normal',
      EVICTION_REASON,
      `Marking for deletion Pod ${key}`,
    );
    if (!pod) return;
    try {
      const status = withDisruptionTarget(pod, this.ctx.clock.now());
      if (status) this.ctx.api.updateStatus({ ...pod, status });
      this.ctx.api.delete('pods', namespace, name);
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
}

/** The pod status with `DisruptionTarget=True` (`UpdatePodCondition`); undefined when it already says so. */
function withDisruptionTarget(pod: KubeObject, now: number): Pod['status'] | undefined {
  const status = cloneJson((pod as unknown as Pod).status ?? {});
  const conditions = status.conditions ?? [];
  const old = conditions.find((c) => c.type === 'DisruptionTarget');
  const next: PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: DISRUPTION_REASON,
    message: DISRUPTION_MESSAGE,
    lastTransitionTime: formatTimestamp(now),
  };
  if (old) {
    if (old.status === next.status) next.lastTransitionTime = old.lastTransitionTime;
    if (old.status === next.status && old.reason === next.reason && old.message === next.message) return undefined;
    Object.assign(old, next);
  } else {
    conditions.push(next);
  }
  status.conditions = conditions;
  return status;
}
