/**
 * The pods nominated to a node by preemption (`status.nominatedNodeName`) while they wait in the queue: upstream's
 * nominator (backend/queue/nominator.go), kept by the scheduling queue. The filters count a node's nominated pods of
 * higher or equal priority as if they ran there (`addGlobalNominatedPods` in framework/runtime), so a pod arriving
 * later cannot take the room preemption freed for the nominee; PodTopologySpread and InterPodAffinity count them too
 * (their PreFilter extensions' `AddPod`).
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { AffinityTerm } from './affinityTerm';
import { compileAffinityTerms } from './affinityTerm';
import type { PodUsage } from './nodeState';
import { usageOf } from './schedulerCache';

export interface NominatedPod {
  readonly key: string;
  readonly uid: string;
  readonly priority: number;
  readonly usage: PodUsage;
  /** What PodTopologySpread and InterPodAffinity count (their PreFilter extensions' AddPod). */
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly requiredAntiAffinity: readonly AffinityTerm[];
}

const NONE: readonly NominatedPod[] = [];

export class Nominator {
  private readonly byNode = new Map<string, Map<string, NominatedPod>>();
  private readonly nodeOf = new Map<string, string>();

  /** Records (or forgets) `pod`'s nomination from its latest object. */
  update(key: string, pod: Pod): void {
    const node = pod.status?.nominatedNodeName ?? '';
    const before = this.nodeOf.get(key);
    if (before !== undefined && before !== node) this.remove(key);
    if (node === '' || pod.spec?.nodeName) return;
    let pods = this.byNode.get(node);
    if (!pods) this.byNode.set(node, (pods = new Map()));
    const namespace = pod.metadata?.namespace ?? '';
    pods.set(key, {
      key,
      uid: pod.metadata?.uid ?? '',
      priority: pod.spec?.priority ?? 0,
      usage: usageOf(pod),
      namespace,
      labels: pod.metadata?.labels ?? {},
      requiredAntiAffinity: compileAffinityTerms(
        pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
        namespace,
      ),
    });
    this.nodeOf.set(key, node);
  }

  /** The pod was bound or is gone (`DeleteNominatedPodIfExists`). */
  remove(key: string): void {
    const node = this.nodeOf.get(key);
    if (node === undefined) return;
    this.nodeOf.delete(key);
    const pods = this.byNode.get(node);
    pods?.delete(key);
    if (pods?.size === 0) this.byNode.delete(node);
  }

  /** The pods nominated to `nodeName` (`NominatedPodsForNode`). */
  on(nodeName: string): readonly NominatedPod[] {
    const pods = this.byNode.get(nodeName);
    return pods ? [...pods.values()] : NONE;
  }

  /** Whether any pod is nominated anywhere (the filters skip the lookup otherwise). */
  get empty(): boolean {
    return this.byNode.size === 0;
  }
}
