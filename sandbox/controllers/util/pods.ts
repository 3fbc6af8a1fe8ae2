/**
 * Pod predicates the controllers share (pkg/controller/controller_utils.go,
 * pkg/api/v1/pod/util.go). Typed against `kubernetes-types`.
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { parseTimestamp } from '../../clock/clock';

/** Not Succeeded, not Failed, not being deleted (`FilterActivePods`). */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

// A plain loop: these run for every pod on every controller sync, and `find` costs a closure per call.
export function podCondition(pod: Pod, type: string): PodCondition | undefined {
  const conditions = pod.status?.conditions;
  if (!conditions) return undefined;
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return conditions[i];
  return undefined;
}

/** The Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/**
 * The Ready condition when its status is True, else undefined: upstream's `GetPodReadyCondition` checked as
 * `IsPodReady` does (pkg/api/v1/pod/util.go). Computed on every call, as `isPodActive` and `controllerRefOf` are: a
 * memo per stored pod version (a `WeakMap`) cost more heap than the few member reads it saved (issue 16).
 */
export function readyCondition(pod: Pod): PodCondition | undefined {
  const ready = podCondition(pod, 'Ready');
  return ready?.status === 'True' ? ready : undefined;
}

/** `isPodAvailable` for a pod whose Ready condition (True) is already at hand. */
export function isReadyConditionAvailable(ready: PodCondition, minReadySeconds: number, now: number): boolean {
  if (minReadySeconds <= 0) return true;
  const since = ready.lastTransitionTime ? parseTimestamp(ready.lastTransitionTime) : Number.NaN;
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now;
}

/** Ready for at least `minReadySeconds` as of `now` (ms): `IsPodAvailable`. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = podCondition(pod, 'Ready');
  return ready?.status === 'True' && isReadyConditionAvailable(ready, minReadySeconds, now);
}

/** When a Ready pod will count as available (ms), for requeueing; undefined if not Ready. */
export function availableAt(pod: Pod, minReadySeconds: number): number | undefined {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True' || !ready.lastTransitionTime) return undefined;
  return parseTimestamp(ready.lastTransitionTime) + minReadySeconds * 1000;
}

/** The node a pod is bound to ('' when unscheduled). */
export function podNodeName(pod: Pod): string {
  return pod.spec?.nodeName ?? '';
}
