/**
 * Deployment conditions: the upstream reasons and the set/remove rules
 * (pkg/controller/deployment/util/deployment_util.go).
 */
import type { DeploymentCondition, DeploymentStatus, ReplicaSetCondition } from 'kubernetes-types/apps/v1';

export const REASON = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

export type ConditionType = 'Available' | 'Progressing' | 'ReplicaFailure';

/** A condition stamped with `now` (an RFC 3339 timestamp) as both update and transition time. */
export function newCondition(
  type: ConditionType,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: string,
): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

export function getCondition(
  status: DeploymentStatus | undefined,
  type: ConditionType,
): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * Upstream `SetDeploymentCondition`: nothing changes when a condition of that
 * type already has the same status and reason; a same-status replacement
 * keeps the old `lastTransitionTime`; the condition goes last.
 */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type as ConditionType);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next =
    current && current.status === condition.status
      ? { ...condition, lastTransitionTime: current.lastTransitionTime }
      : condition;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: ConditionType): void {
  const rest = (status.conditions ?? []).filter((c) => c.type !== type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

/** Upstream `ReplicaSetToDeploymentCondition`: the RS's transition time serves as both times. */
export function fromReplicaSetCondition(c: ReplicaSetCondition): DeploymentCondition {
  return {
    type: c.type,
    status: c.status,
    lastTransitionTime: c.lastTransitionTime,
    lastUpdateTime: c.lastTransitionTime,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.message !== undefined ? { message: c.message } : {}),
  };
}
