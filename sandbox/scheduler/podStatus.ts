/**
 * The scheduler's one status write for a pod it could not place: the
 * `PodScheduled=False` condition (`schedule_one.go` `updatePod` with
 * `podutil.UpdatePodCondition`), written only when it changes.
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../apiserver/apiServer';
import { isApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import { formatTimestamp } from '../clock/clock';

/**
 * Sets `PodScheduled=False` with `reason` and `message` unless the pod already says exactly that. Returns whether it
 * wrote.
 */
export function setPodScheduledFalse(api: ApiServer, obj: KubeObject, reason: string, message: string): boolean {
  const pod = obj as unknown as Pod;
  if (pod.spec?.nodeName) return false;
  const conditions = [...(pod.status?.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === 'False' && old.reason === reason && old.message === message) return false;
  const cond = {
    type: 'PodScheduled',
    status: 'False',
    lastProbeTime: null,
    lastTransitionTime:
      old?.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : formatTimestamp(api.clock.now()),
    reason,
    message,
  } as unknown as PodCondition;
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  try {
    api.updateStatus({ ...obj, status: { ...pod.status, conditions } });
    return true;
  } catch (e) {
    // Gone or changed since the cache saw it: the next attempt writes again if still needed.
    if (isApiError(e, 404) || isApiError(e, 409)) return false;
    throw e;
  }
}
