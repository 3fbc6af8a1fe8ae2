/**
 * The scheduler's one status write for a pod it could not place: the
 * `PodScheduled=False` condition (`schedule_one.go` `updatePod` with
 * `podutil.UpdatePodCondition`), and the node a preemption nominated
 * (`status.nominatedNodeName`), written only when it changes.
 */
import type { ApiServer } from '../apiserver/apiServer';
import { isApiError } from '../api/errors';
import type { ObjectsByResource } from '../api/resourceObjects';
import type { WirePodCondition } from '../api/types';
import { formatTimestamp } from '../clock/clock';

/**
 * Sets `PodScheduled=False` with `reason` and `message` unless the pod already says exactly that. Returns whether it
 * wrote.
 */
export function setPodScheduledFalse(
  api: ApiServer,
  pod: ObjectsByResource['pods'],
  reason: string,
  message: string,
  nominatedNodeName?: string,
): boolean {
  if (pod.spec?.nodeName) return false;
  const nominate = nominatedNodeName !== undefined && pod.status?.nominatedNodeName !== nominatedNodeName;
  const conditions: WirePodCondition[] = [...(pod.status?.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === 'False' && old.reason === reason && old.message === message && !nominate) return false;
  const cond: WirePodCondition = {
    type: 'PodScheduled',
    status: 'False',
    lastProbeTime: null,
    lastTransitionTime:
      old?.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : formatTimestamp(api.clock.now()),
    reason,
    message,
  };
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  try {
    const status = { ...pod.status, conditions, ...(nominate ? { nominatedNodeName } : {}) };
    api.updateStatus({ ...pod, status });
    return true;
  } catch (e) {
    // Gone or changed since the cache saw it: the next attempt writes again if still needed.
    if (isApiError(e, 404) || isApiError(e, 409)) return false;
    throw e;
  }
}
