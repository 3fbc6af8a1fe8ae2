/**
 * ReplicaSet status (`calculateStatus` and `updateReplicaSetStatus` in
 * pkg/controller/replicaset/replica_set_utils.go): counts of the claimed
 * active pods, observedGeneration, and the `ReplicaFailure` condition.
 */
import type { ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { formatTimestamp } from '../../clock/clock';
import { jsonEqual } from '../../util/json';
import { availableAt, isReadyConditionAvailable, readyCondition } from '../util/pods';
import { type PodCounts, hasTemplateLabels } from './podTally';

export const REPLICA_FAILURE = 'ReplicaFailure';

export function rsReplicasOf(rs: ReplicaSet): number {
  return rs.spec?.replicas ?? 1;
}

/** `calculateStatus`'s walk: the counts of `pods` (the active pods the RS claimed) as of `now`. */
export function countPods(rs: ReplicaSet, pods: readonly Pod[], now: number): PodCounts {
  const minReady = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  const template = rs.spec?.template?.metadata?.labels ?? {};
  const templateKeys = Object.keys(template);
  for (const pod of pods) {
    if (hasTemplateLabels(template, templateKeys, pod.metadata?.labels)) fullyLabeled++;
    const condition = readyCondition(pod);
    if (!condition) continue;
    ready++;
    if (isReadyConditionAvailable(condition, minReady, now)) available++;
  }
  return { replicas: pods.length, fullyLabeled, ready, available };
}

/**
 * The status `pods` (the active pods the RS claimed) give, after a manage step that failed with `manageError` or not.
 */
export function calculateStatus(
  rs: ReplicaSet,
  pods: readonly Pod[],
  manageError: Error | undefined,
  now: number,
): ReplicaSetStatus {
  return statusFromCounts(rs, countPods(rs, pods, now), manageError, now);
}

/** `calculateStatus` from the counts of the claimed pods (walked, or kept by a `PodTally`). */
export function statusFromCounts(
  rs: ReplicaSet,
  counts: PodCounts,
  manageError: Error | undefined,
  now: number,
): ReplicaSetStatus {
  const { replicas, fullyLabeled, ready, available } = counts;
  // The stored status without its three counts, then `replicas` (in place when it was there) and the counts that are
  // not zero, last, in this order: zero counts are omitted, as Go's `omitempty` does.
  const status = statusWithoutCounts(rs.status ?? { replicas: 0 });
  status.replicas = replicas;
  if (fullyLabeled > 0) status.fullyLabeledReplicas = fullyLabeled;
  if (ready > 0) status.readyReplicas = ready;
  if (available > 0) status.availableReplicas = available;
  const failure = rs.status?.conditions?.find((c) => c.type === REPLICA_FAILURE);
  if (manageError && !failure) {
    const diff = replicas - rsReplicasOf(rs);
    const cond: ReplicaSetCondition = {
      type: REPLICA_FAILURE,
      status: 'True',
      lastTransitionTime: formatTimestamp(now),
      reason: diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '',
      message: manageError.message,
    };
    status.conditions = [...(rs.status?.conditions ?? []), cond];
  } else if (!manageError && failure) {
    const others = (rs.status?.conditions ?? []).filter((c) => c.type !== REPLICA_FAILURE);
    if (others.length > 0) status.conditions = others;
    else delete status.conditions;
  }
  return status;
}

/**
 * A copy of `stored` without `fullyLabeledReplicas`, `readyReplicas` and `availableReplicas`, its other members in
 * their order: what a rest pattern (`{ fullyLabeledReplicas, readyReplicas, availableReplicas, ...rest }`) gives,
 * member by member rather than through the rest pattern's generic copy. A member named `__proto__` (an own data
 * property of a parsed object) is defined, as the rest pattern defines it, not assigned.
 */
function statusWithoutCounts(stored: ReplicaSetStatus): ReplicaSetStatus {
  const out: Record<string, unknown> = {};
  const from = stored as unknown as Record<string, unknown>;
  for (const key of Object.keys(from)) {
    if (key === 'fullyLabeledReplicas' || key === 'readyReplicas' || key === 'availableReplicas') continue;
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: from[key], writable: true, enumerable: true, configurable: true });
    else out[key] = from[key];
  }
  return out as unknown as ReplicaSetStatus;
}

/**
 * `!statusNeedsUpdate(rs, statusFromCounts(rs, counts, manageError, now))` without building the status: the counts
 * and generation are as stored, and the `ReplicaFailure` condition is neither added (a manage error without one) nor
 * removed (one without a manage error), so the conditions stay as stored. A status write wakes its ReplicaSet, and
 * most syncs then find nothing to write.
 */
export function statusUnchanged(rs: ReplicaSet, counts: PodCounts, manageError: Error | undefined): boolean {
  const cur: ReplicaSetStatus = rs.status ?? { replicas: 0 };
  return (
    (cur.replicas ?? 0) === counts.replicas &&
    (cur.fullyLabeledReplicas ?? 0) === counts.fullyLabeled &&
    (cur.readyReplicas ?? 0) === counts.ready &&
    (cur.availableReplicas ?? 0) === counts.available &&
    (rs.metadata?.generation ?? 0) === (cur.observedGeneration ?? 0) &&
    (manageError !== undefined) === (rs.status?.conditions?.some((c) => c.type === REPLICA_FAILURE) ?? false)
  );
}

/** True when `next` differs from the stored status in what upstream compares (counts, generation, conditions). */
export function statusNeedsUpdate(rs: ReplicaSet, next: ReplicaSetStatus): boolean {
  const cur: ReplicaSetStatus = rs.status ?? { replicas: 0 };
  return (
    (cur.replicas ?? 0) !== (next.replicas ?? 0) ||
    (cur.fullyLabeledReplicas ?? 0) !== (next.fullyLabeledReplicas ?? 0) ||
    (cur.readyReplicas ?? 0) !== (next.readyReplicas ?? 0) ||
    (cur.availableReplicas ?? 0) !== (next.availableReplicas ?? 0) ||
    (rs.metadata?.generation ?? 0) !== (cur.observedGeneration ?? 0) ||
    !jsonEqual(cur.conditions ?? [], next.conditions ?? [])
  );
}

/** Milliseconds until the next Ready pod becomes available under minReadySeconds; undefined when none is waiting. */
export function nextAvailableIn(rs: ReplicaSet, pods: readonly Pod[], now: number): number | undefined {
  const minReady = rs.spec?.minReadySeconds ?? 0;
  if (minReady <= 0) return undefined;
  let next: number | undefined;
  for (const pod of pods) {
    const at = availableAt(pod, minReady);
    if (at !== undefined && at > now && (next === undefined || at < next)) next = at;
  }
  return next === undefined ? undefined : next - now;
}
