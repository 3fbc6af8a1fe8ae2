/**
 * The pod garbage collector's orphan sweep (upstream: pkg/controller/podgc/gc_controller.go, `gcOrphaned`): a pod
 * bound to a node that no longer exists is marked `Failed` with a `DisruptionTarget` condition (reason
 * `DeletionByPodGC`, message `PodGC: node no longer exists`) and force-deleted (grace period 0), once the node has
 * been missing for the quarantine time (40 s, `quarantineTime`) and a fresh read from the API server confirms it is
 * gone (`discoverDeletedNodes`). Upstream records no Event; the reconciliation log says what it deleted.
 *
 * Not modelled (the sandbox says so in this comment): the terminated-pod threshold (`gcTerminated`, 12,500 by
 * default), terminating pods on out-of-service nodes (`gcTerminating`) and unscheduled terminating pods
 * (`gcUnscheduledTerminating`).
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { KubeObject, Typed } from '../../api/types';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { formatTimestamp } from '../../clock/clock';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { enqueueMapped } from '../framework/handlers';

/** upstream: podgc `quarantineTime`. */
export const QUARANTINE_MS = 40_000;
export const PODGC_REASON = 'DeletionByPodGC';
export const PODGC_MESSAGE = 'PodGC: node no longer exists';

export class PodGcController extends Controller {
  private pods!: Informer<ObjectsByResource['pods']>;
  private nodes!: Informer<ObjectsByResource['nodes']>;
  /** When each node was first seen missing while pods were bound to it (the delaying `nodeQueue`). */
  private readonly missingSince = new Map<string, number>();

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'pod-garbage-collector' });
  }

  /** Keys are node names: a pod's node, and a node that was deleted. */
  protected watch(w: Watches): void {
    this.pods = w.watch(
      'pods',
      enqueueMapped((pod: Typed<Pod>) => pod.spec?.nodeName || undefined),
    );
    this.nodes = w.watch(
      'nodes',
      enqueueMapped((node: KubeObject) => node.metadata.name),
    );
  }

  protected reconcile(node: string): ReconcileResult {
    if (this.nodes.cache.get(node)) {
      this.missingSince.delete(node);
      return;
    }
    const bound = this.pods.cache.list().filter((p) => p.spec?.nodeName === node);
    if (bound.length === 0) {
      this.missingSince.delete(node);
      return;
    }
    const now = this.ctx.clock.now();
    const since = this.missingSince.get(node) ?? now;
    this.missingSince.set(node, since);
    if (now - since < QUARANTINE_MS) return { requeueAfter: since + QUARANTINE_MS - now };
    // `discoverDeletedNodes`: the informer may lag; the API server decides.
    if (this.ctx.api.tryGet('nodes', undefined, node)) {
      this.missingSince.delete(node);
      return;
    }
    this.missingSince.delete(node);
    for (const cached of bound) this.markFailedAndDelete(cached);
  }

  /** `markFailedAndDeletePodWithCondition`: Failed with DisruptionTarget unless already terminal, then grace 0. */
  private markFailedAndDelete(cached: Typed<Pod>): void {
    const { namespace, name } = cached.metadata;
    try {
      const pod = this.ctx.api.get('pods', namespace, name!);
      if (pod.metadata.uid !== cached.metadata.uid) return;
      const phase = pod.status?.phase;
      if (phase !== 'Succeeded' && phase !== 'Failed') {
        const condition: PodCondition = {
          type: 'DisruptionTarget',
          status: 'True',
          reason: PODGC_REASON,
          message: PODGC_MESSAGE,
          lastTransitionTime: formatTimestamp(this.ctx.clock.now()),
        };
        const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
        this.ctx.api.updateStatus({
          ...pod,
          status: { ...pod.status, phase: 'Failed', conditions: [...conditions, condition] },
        });
      }
      this.ctx.api.delete('pods', namespace, name!, {
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata.uid! },
      });
      this.recorder.logOnly(pod, 'Normal', 'PodGC', `Forcefully deleted pod ${namespace}/${name}: ${PODGC_MESSAGE}`);
    } catch (e) {
      if (isApiError(e, 404) || isApiError(e, 409)) return;
      throw e;
    }
  }
}
