/**
 * Deployment status (`calculateStatus` in sync.go) and the rollout
 * predicates of deployment_util.go that read it.
 */
import type { Deployment, DeploymentStatus, ReplicaSet } from 'kubernetes-types/apps/v1';
import { formatTimestamp, parseTimestamp } from '../../clock/clock';
import { REASON, getCondition, newCondition, setCondition } from './conditions';
import { maxUnavailable } from './fenceposts';
import { deploymentReplicas, sumSpec, sumStatus } from './replicaSets';

const MAX_INT32 = 2147483647;

/** A deadline is set and is not the "never" value MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== MAX_INT32;
}

/** A history limit is set and is not the "keep all" value MaxInt32. */
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const n = d.spec?.revisionHistoryLimit;
  return n !== undefined && n !== MAX_INT32;
}

/**
 * The status the ReplicaSets imply: counts summed over them, the previous
 * conditions carried over, and `Available` set from `replicas − maxUnavailable`.
 */
export function calculateStatus(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): DeploymentStatus {
  const available = sumStatus(allRSs, 'availableReplicas');
  // Zero counts are omitted, as Go's `omitempty` serializes them (members in this order).
  const status: DeploymentStatus = {};
  setNonZero(status, 'observedGeneration', d.metadata?.generation ?? 0);
  setNonZero(status, 'replicas', sumStatus(allRSs, 'replicas'));
  setNonZero(status, 'updatedReplicas', sumStatus([newRS], 'replicas'));
  setNonZero(status, 'readyReplicas', sumStatus(allRSs, 'readyReplicas'));
  setNonZero(status, 'availableReplicas', available);
  setNonZero(status, 'unavailableReplicas', Math.max(0, sumSpec(allRSs) - available));
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (d.status?.conditions?.length) status.conditions = d.status.conditions.map((c) => ({ ...c }));
  const stamp = formatTimestamp(now);
  if (available >= deploymentReplicas(d) - maxUnavailable(d)) {
    setCondition(
      status,
      newCondition('Available', 'True', REASON.minimumReplicasAvailable, 'Deployment has minimum availability.', stamp),
    );
  } else {
    setCondition(
      status,
      newCondition(
        'Available',
        'False',
        REASON.minimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        stamp,
      ),
    );
  }
  return status;
}

type StatusCount =
  | 'observedGeneration'
  | 'replicas'
  | 'updatedReplicas'
  | 'readyReplicas'
  | 'availableReplicas'
  | 'unavailableReplicas';

/** Sets a count unless it is zero (Go's `omitempty`). */
function setNonZero(status: DeploymentStatus, key: StatusCount, value: number): void {
  if (value !== 0) status[key] = value;
}

/** Upstream `DeploymentComplete`: every desired replica updated and available, the spec observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const replicas = deploymentReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === replicas &&
    (s.replicas ?? 0) === replicas &&
    (s.availableReplicas ?? 0) === replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** Upstream `DeploymentProgressing`: more updated, fewer old, more ready or more available than before. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** When the Progressing condition's last progress plus the deadline runs out (ms), if it can. */
export function progressDeadlineAt(d: Deployment, s: DeploymentStatus): number | undefined {
  const cond = getCondition(s, 'Progressing');
  if (!hasProgressDeadline(d) || !cond?.lastUpdateTime) return undefined;
  return parseTimestamp(cond.lastUpdateTime) + d.spec!.progressDeadlineSeconds! * 1000;
}

/**
 * Upstream `DeploymentTimedOut`: already reported, or no progress since
 * `lastUpdateTime + progressDeadlineSeconds` (strictly before `now`).
 * A completed rollout never times out.
 */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now: number): boolean {
  const cond = getCondition(s, 'Progressing');
  if (!hasProgressDeadline(d) || !cond) return false;
  if (cond.reason === REASON.newRSAvailable) return false;
  if (cond.reason === REASON.timedOut) return true;
  const deadline = progressDeadlineAt(d, s);
  return deadline !== undefined && deadline < now;
}
