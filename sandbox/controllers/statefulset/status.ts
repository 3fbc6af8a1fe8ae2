/**
 * A StatefulSet's status (stateful_set_control.go `computeReplicaStatus`,
 * `updateStatus`, `completeRollingUpdate`; stateful_set_utils.go
 * `inconsistentStatus`; stateful_set_status_updater.go): counts of the pods
 * by readiness and revision, written through `/status` when they changed.
 */
import type { StatefulSetStatus } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import { isPodAvailable, isPodReady } from '../util/pods';
import type { Sts } from './identity';
import { podRevision, replicasOf } from './identity';

/** `isCreated`: the API server has the pod (a pod built but not yet created has no phase). */
export function isCreated(pod: Pod): boolean {
  return (pod.status?.phase ?? '') !== '';
}

export function isTerminating(pod: Pod): boolean {
  return pod.metadata?.deletionTimestamp !== undefined;
}

/** `isRunningAndReady`. */
export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}

/** `isRunningAndAvailable` (`IsPodAvailable`: Ready for `minReadySeconds`). */
export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return isPodAvailable(pod, minReadySeconds, now);
}

/** `isUnavailable`: not created, terminating, or not available. */
export function isUnavailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return !isCreated(pod) || isTerminating(pod) || !isPodAvailable(pod, minReadySeconds, now);
}

/** The counters of `updateStatus`, over the pods given. */
export function countReplicas(
  status: StatefulSetStatus,
  pods: readonly Pod[],
  minReadySeconds: number,
  currentRevision: string,
  updateRevision: string,
  now: number,
): void {
  let replicas = 0;
  let ready = 0;
  let available = 0;
  let current = 0;
  let updated = 0;
  for (const pod of pods) {
    const created = isCreated(pod);
    if (created) replicas++;
    if (isRunningAndReady(pod)) {
      ready++;
      if (isRunningAndAvailable(pod, minReadySeconds, now)) available++;
    }
    if (created && !isTerminating(pod)) {
      const revision = podRevision(pod);
      if (revision === currentRevision) current++;
      if (revision === updateRevision) updated++;
    }
  }
  status.replicas = replicas;
  status.readyReplicas = ready;
  status.availableReplicas = available;
  status.currentReplicas = current;
  status.updatedReplicas = updated;
}

/** `completeRollingUpdate`: every replica updated and ready makes the update revision current. */
export function completeRollingUpdate(set: Sts, status: StatefulSetStatus): void {
  const want = replicasOf(set);
  if (
    set.spec?.updateStrategy?.type === 'RollingUpdate' &&
    status.updatedReplicas === want &&
    status.readyReplicas === want &&
    status.replicas === want
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** `inconsistentStatus`: what upstream compares before writing. */
export function inconsistentStatus(set: Sts, status: StatefulSetStatus): boolean {
  const cur: StatefulSetStatus = set.status ?? { replicas: 0 };
  return (
    (status.observedGeneration ?? 0) > (cur.observedGeneration ?? 0) ||
    status.replicas !== (cur.replicas ?? 0) ||
    (status.currentReplicas ?? 0) !== (cur.currentReplicas ?? 0) ||
    (status.readyReplicas ?? 0) !== (cur.readyReplicas ?? 0) ||
    (status.updatedReplicas ?? 0) !== (cur.updatedReplicas ?? 0) ||
    (status.currentRevision ?? '') !== (cur.currentRevision ?? '') ||
    (status.availableReplicas ?? 0) !== (cur.availableReplicas ?? 0) ||
    (status.updateRevision ?? '') !== (cur.updateRevision ?? '')
  );
}

/**
 * The status as Go encodes `StatefulSetStatus`: `replicas` and `availableReplicas` always, the other counters and
 * revisions when set (omitempty), `collisionCount` (a pointer) whenever known, conditions kept.
 */
export function wireStatus(status: StatefulSetStatus, conditions: StatefulSetStatus['conditions']): StatefulSetStatus {
  const out: StatefulSetStatus = { replicas: status.replicas };
  if (status.observedGeneration) out.observedGeneration = status.observedGeneration;
  if (status.readyReplicas) out.readyReplicas = status.readyReplicas;
  if (status.currentReplicas) out.currentReplicas = status.currentReplicas;
  if (status.updatedReplicas) out.updatedReplicas = status.updatedReplicas;
  if (status.currentRevision) out.currentRevision = status.currentRevision;
  if (status.updateRevision) out.updateRevision = status.updateRevision;
  if (status.collisionCount !== undefined) out.collisionCount = status.collisionCount;
  if (conditions && conditions.length > 0) out.conditions = conditions;
  out.availableReplicas = status.availableReplicas ?? 0;
  return out;
}

/** `updateStatefulSetStatus`: completes a finished rolling update, then writes when inconsistent (with retries). */
export function writeSetStatus(api: ApiServer, set: Sts, status: StatefulSetStatus): void {
  completeRollingUpdate(set, status);
  if (!inconsistentStatus(set, status)) return;
  let current: Sts = set;
  for (let attempt = 0; ; attempt++) {
    try {
      api.updateStatus({ ...current, status: wireStatus(status, current.status?.conditions) });
      return;
    } catch (e) {
      if (attempt >= 4 || !isApiError(e, 409)) throw e;
      current = api.get('statefulsets', set.metadata.namespace, set.metadata.name ?? '');
    }
  }
}
