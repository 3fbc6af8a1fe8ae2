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
import type { Pod, PodCondition, Taint } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { KubeObject } from '../../api/types';
import type { TimerHandle } from '../../clock/clock';
import { formatTimestamp } from '../../clock/clock';
import { objectKey, splitKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { cloneJson, jsonEqual } from '../../util/json';
import { Controller, type Watches } from '../framework/controller';
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

type CachedNode = ObjectsByResource['nodes'];
type CachedPod = ObjectsByResource['pods'];

/** Keys: `node:<name>` (look at every pod on it) or `pod:<namespace>/<name>`. */
const NODE = 'node:';
const POD = 'pod:';

function noExecuteTaints(node: CachedNode | undefined): Taint[] {
  return (node?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
}

export class TaintEvictionController extends Controller {
  private readonly scheduled = new Map<string, Scheduled>();
  private nodes!: Informer<CachedNode>;
  private pods!: Informer<CachedPod>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'taint-eviction-controller' });
  }

  /** Pod keys (`ns/name`) with a pending eviction, and when it is due (epoch ms). */
  pendingEvictions(): { pod: string; at: number }[] {
    return [...this.scheduled]
      .map(([pod, s]) => ({ pod, at: s.fireAt }))
      .sort((a, b) => a.at - b.at || a.pod.localeCompare(b.pod));
  }

  /** A node whose NoExecute taints change, and a pod that lands on a node or changes its tolerations. */
  protected watch(w: Watches): void {
    this.pods = w.informer('pods');
    ensurePodNodeIndex(this.pods.cache);
    this.nodes = w.informer('nodes');
    const node = (n: CachedNode): string => `${NODE}${n.metadata.name}`;
    const pod = (p: CachedPod): string => `${POD}${objectKey(p)}`;
    w.watch(this.nodes, {
      onAdd: (n, enqueue) => enqueue(node(n)),
      onUpdate: (o, n, enqueue) => {
        if (!jsonEqual(noExecuteTaints(o), noExecuteTaints(n))) enqueue(node(n));
      },
      onDelete: (n, enqueue) => enqueue(node(n)),
    });
    w.watch(this.pods, {
      onAdd: (p, enqueue) => enqueue(pod(p)),
      onUpdate: (o, p, enqueue) => {
        const a = o.spec;
        const b = p.spec;
        if (a?.nodeName !== b?.nodeName || !jsonEqual(a?.tolerations ?? [], b?.tolerations ?? [])) enqueue(pod(p));
      },
      onDelete: (p, enqueue) => enqueue(pod(p)),
    });
  }

  protected reconcile(key: string): void {
    if (key.startsWith(NODE)) this.syncNode(key.slice(NODE.length));
    else this.syncPod(key.slice(POD.length));
  }

  protected override onStop(): void {
    for (const s of this.scheduled.values()) this.ctx.clock.clearTimer(s.handle);
    this.scheduled.clear();
  }

  private syncNode(name: string): void {
    const taints = noExecuteTaints(this.nodes.cache.get(name));
    for (const pod of podsOnNode(this.pods.cache, name)) this.processPod(pod, taints);
  }

  private syncPod(key: string): void {
    const pod = this.pods.cache.get(key);
    if (!pod) return this.cancel(key);
    const nodeName = pod.spec?.nodeName ?? '';
    if (nodeName === '') return;
    this.processPod(pod, noExecuteTaints(this.nodes.cache.get(nodeName)));
  }

  /** Upstream `processPodOnNode`: evict now, later, or never. */
  private processPod(pod: CachedPod, taints: readonly Taint[]): void {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (taints.length === 0) return this.cancel(key);
    const used = matchingTolerations(taints, pod.spec?.tolerations ?? []);
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
function withDisruptionTarget(pod: CachedPod, now: number): Pod['status'] | undefined {
  const status = cloneJson(pod.status ?? {});
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
