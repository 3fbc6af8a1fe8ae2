/**
 * Which pods a ReplicaSet deletes first when it scales down
 * (`getPodsToDelete` and `ActivePodsWithRanks.Less` in
 * pkg/controller/controller_utils.go), with LogarithmicScaleDown on.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { parseTimestamp } from '../../clock/clock';
import { isPodActive, isPodReady, podCondition, podNodeName } from '../util/pods';

export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/** A pod with its rank: how many active related pods share its node. */
export interface RankedPod {
  pod: Pod;
  rank: number;
}

/** The annotation as an int32; absent or invalid → 0, as upstream. */
export function podDeletionCost(pod: Pod): number {
  const text = pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (text === undefined || !/^[+-]?\d+$/.test(text.trim())) return 0;
  const n = Number(text.trim());
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

function readyTime(pod: Pod): number | undefined {
  const t = podCondition(pod, 'Ready')?.lastTransitionTime;
  return t ? parseTimestamp(t) : undefined;
}

function maxRestarts(pod: Pod): [regular: number, sidecar: number] {
  let regular = 0;
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, c.restartCount ?? 0);
  const sidecars = new Set(
    (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  let sidecar = 0;
  for (const c of pod.status?.initContainerStatuses ?? [])
    if (sidecars.has(c.name)) sidecar = Math.max(sidecar, c.restartCount ?? 0);
  return [regular, sidecar];
}

/** floor(log2(age in ns)), or -1 for no age: the bucket LogarithmicScaleDown compares. */
function logBucket(time: number, now: number): number {
  const ns = (now - time) * 1e6;
  return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
}

/** Negative when `a` should be deleted before `b` by time (newer first, log2 buckets, then uid). */
function compareTimes(a: number | undefined, b: number | undefined, uidA: string, uidB: string, now: number): number {
  if (a === b) return 0;
  // Zero times count as newest ("afterOrZero").
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  const diff = logBucket(a, now) - logBucket(b, now);
  if (diff !== 0) return diff;
  return uidA < uidB ? -1 : uidA > uidB ? 1 : 0;
}

/** Negative when `a` should be deleted before `b`; 0 when no rule tells them apart. */
export function compareForDeletion(a: RankedPod, b: RankedPod, now: number): number {
  const pa = a.pod;
  const pb = b.pod;
  const na = podNodeName(pa);
  const nb = podNodeName(pb);
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const phaseA = PHASE_ORDINAL[pa.status?.phase ?? ''] ?? 0;
  const phaseB = PHASE_ORDINAL[pb.status?.phase ?? ''] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isPodReady(pa);
  const readyB = isPodReady(pb);
  if (readyA !== readyB) return readyA ? 1 : -1;
  const costA = podDeletionCost(pa);
  const costB = podDeletionCost(pb);
  if (costA !== costB) return costA - costB;
  if (a.rank !== b.rank) return b.rank - a.rank;
  const uidA = pa.metadata?.uid ?? '';
  const uidB = pb.metadata?.uid ?? '';
  if (readyA && readyB) {
    const byReady = compareTimes(readyTime(pa), readyTime(pb), uidA, uidB, now);
    if (byReady !== 0) return byReady;
  }
  const [regA, sideA] = maxRestarts(pa);
  const [regB, sideB] = maxRestarts(pb);
  if (regA !== regB) return regB - regA;
  if (sideA !== sideB) return sideB - sideA;
  const createdA = pa.metadata?.creationTimestamp ? parseTimestamp(pa.metadata.creationTimestamp) : undefined;
  const createdB = pb.metadata?.creationTimestamp ? parseTimestamp(pb.metadata.creationTimestamp) : undefined;
  return compareTimes(createdA, createdB, uidA, uidB, now);
}

/**
 * The `diff` pods to delete from `pods`, ranking each by the active pods of
 * `related` (pods of ReplicaSets with the same controller) on its node.
 * The sort is stable, so pods no rule separates keep their given order.
 */
export function podsToDelete(pods: readonly Pod[], related: readonly Pod[], diff: number, now: number): Pod[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(podNodeName(p), (onNode.get(podNodeName(p)) ?? 0) + 1);
  const ranked: RankedPod[] = pods.map((pod) => ({ pod, rank: onNode.get(podNodeName(pod)) ?? 0 }));
  ranked.sort((a, b) => compareForDeletion(a, b, now));
  return ranked.slice(0, diff).map((r) => r.pod);
}
