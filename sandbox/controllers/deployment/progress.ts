/**
 * Writing the Deployment's status (`syncDeploymentStatus` in sync.go,
 * `syncRolloutStatus` and `requeueStuckDeployment` in progress.go, and
 * `checkPausedConditions`): the Progressing condition's reasons, the
 * ReplicaFailure condition copied from the ReplicaSets, and the revisit at
 * the progress deadline while a rollout is under way.
 */
import type { DeploymentCondition, DeploymentStatus } from 'kubernetes-types/apps/v1';
import type { ReplicaSet } from './objects';
import { formatTimestamp } from '../../clock/clock';
import { jsonEqual } from '../../util/json';
import {
  REASON,
  fromReplicaSetCondition,
  getCondition,
  newCondition,
  removeCondition,
  setCondition,
} from './conditions';
import {
  calculateStatus,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  hasProgressDeadline,
  progressDeadlineAt,
} from './status';
import { writeDeploymentStatus, type SyncContext } from './syncContext';

/** Writes the computed status when it differs (used when scaling or paused: no progress estimate). */
export function syncDeploymentStatus(
  ctx: SyncContext,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): void {
  commit(ctx, calculateStatus(allRSs, newRS, ctx.d, ctx.clock.now()));
}

/** The status during a rollout, with the Progressing estimate; schedules the deadline check when nothing changed. */
export function syncRolloutStatus(
  ctx: SyncContext,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): void {
  const d = ctx.d;
  const now = ctx.clock.now();
  const status = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
  const current = getCondition(d.status, 'Progressing');
  const complete = status.replicas === status.updatedReplicas && current?.reason === REASON.newRSAvailable;
  if (hasProgressDeadline(d) && !complete) estimateProgress(ctx, status, newRS, current, now);
  const failure = replicaFailure(allRSs, newRS);
  if (failure) setCondition(status, failure);
  else removeCondition(status, 'ReplicaFailure');
  if (jsonEqual(d.status ?? {}, status)) {
    ctx.requeueAfter = requeueForDeadline(ctx, status);
    return;
  }
  commit(ctx, status);
}

function estimateProgress(
  ctx: SyncContext,
  status: DeploymentStatus,
  newRS: ReplicaSet | undefined,
  current: DeploymentCondition | undefined,
  now: number,
): void {
  const d = ctx.d;
  const stamp = formatTimestamp(now);
  const subject = newRS ? `ReplicaSet "${newRS.metadata!.name}"` : `Deployment "${d.metadata!.name}"`;
  if (deploymentComplete(d, status)) {
    setCondition(
      status,
      newCondition('Progressing', 'True', REASON.newRSAvailable, `${subject} has successfully progressed.`, stamp),
    );
  } else if (deploymentProgressing(d, status)) {
    // Progress refreshes lastUpdateTime even when the reason stays, which setCondition alone would not do.
    const condition = newCondition(
      'Progressing',
      'True',
      REASON.replicaSetUpdated,
      `${subject} is progressing.`,
      stamp,
    );
    if (current) {
      if (current.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
      removeCondition(status, 'Progressing');
    }
    setCondition(status, condition);
  } else if (deploymentTimedOut(d, status, now)) {
    setCondition(
      status,
      newCondition('Progressing', 'False', REASON.timedOut, `${subject} has timed out progressing.`, stamp),
    );
  }
}

/** The new RS's ReplicaFailure condition, else the first old one's. */
function replicaFailure(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): DeploymentCondition | undefined {
  for (const rs of [newRS, ...allRSs]) {
    const c = rs?.status?.conditions?.find((x) => x.type === 'ReplicaFailure');
    if (c) return fromReplicaSetCondition(c);
  }
  return undefined;
}

/**
 * Upstream `requeueStuckDeployment`: while a rollout with a deadline is
 * neither complete nor timed out, look again one second after the deadline
 * (upstream's margin against clock skew), so that it times out on time.
 */
function requeueForDeadline(ctx: SyncContext, status: DeploymentStatus): number | null {
  const d = ctx.d;
  const current = getCondition(d.status, 'Progressing');
  if (!hasProgressDeadline(d) || !current) return null;
  if (deploymentComplete(d, status) || current.reason === REASON.timedOut) return null;
  const deadline = progressDeadlineAt(d, d.status!);
  if (deadline === undefined) return null;
  return Math.max(0, deadline - ctx.clock.now()) + 1000;
}

/**
 * Upstream `checkPausedConditions`: Progressing becomes Unknown
 * `DeploymentPaused` while paused and `DeploymentResumed` after, unless the
 * rollout has already timed out.
 */
export function checkPausedConditions(ctx: SyncContext): void {
  const d = ctx.d;
  if (!hasProgressDeadline(d)) return;
  const cond = getCondition(d.status, 'Progressing');
  if (cond?.reason === REASON.timedOut) return;
  const pausedCondExists = cond?.reason === REASON.paused;
  const stamp = formatTimestamp(ctx.clock.now());
  let condition: DeploymentCondition | undefined;
  if (d.spec?.paused && !pausedCondExists)
    condition = newCondition('Progressing', 'Unknown', REASON.paused, 'Deployment is paused', stamp);
  else if (!d.spec?.paused && pausedCondExists)
    condition = newCondition('Progressing', 'Unknown', REASON.resumed, 'Deployment is resumed', stamp);
  if (!condition) return;
  d.status ??= {};
  setCondition(d.status, condition);
  writeDeploymentStatus(ctx);
}

function commit(ctx: SyncContext, status: DeploymentStatus): void {
  if (jsonEqual(ctx.d.status ?? {}, status)) return;
  ctx.d.status = status;
  writeDeploymentStatus(ctx);
}
