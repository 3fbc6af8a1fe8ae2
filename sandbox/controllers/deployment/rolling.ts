/**
 * The RollingUpdate strategy (rolling.go): grow the new ReplicaSet within
 * `replicas + maxSurge`, then shrink old ones while at least
 * `replicas − maxUnavailable` pods stay available — unhealthy old replicas
 * first, since removing them costs no availability.
 */
import type { ReplicaSet } from './objects';
import { cleanupDeployment } from './cleanup';
import { maxUnavailable } from './fenceposts';
import { getAllReplicaSetsAndSyncRevision, newRSNewReplicas } from './newReplicaSet';
import { syncRolloutStatus } from './progress';
import { activeReplicaSets, byCreation, deploymentReplicas, rsReplicas, sumSpec, sumStatus } from './replicaSets';
import { scaleReplicaSetAndRecordEvent } from './scaleReplicaSet';
import { deploymentComplete } from './status';
import type { SyncContext } from './syncContext';

export function rolloutRolling(ctx: SyncContext): void {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, true);
  const created = newRS!;
  const status = (): void => syncRolloutStatus(ctx, latest(ctx, [...oldRSs, created]), latestOne(ctx, created));
  if (reconcileNewReplicaSet(ctx, [...oldRSs, created], created)) return status();
  const olds = latest(ctx, oldRSs);
  const fresh = latestOne(ctx, created);
  if (reconcileOldReplicaSets(ctx, [...olds, fresh], activeReplicaSets(olds), fresh)) return status();
  if (deploymentComplete(ctx.d, ctx.d.status ?? {})) cleanupDeployment(ctx, latest(ctx, oldRSs));
  status();
}

/** The copies of these RSs as this sync last wrote them. */
export function latest(ctx: SyncContext, list: readonly ReplicaSet[]): ReplicaSet[] {
  return list.map((rs) => latestOne(ctx, rs));
}

export function latestOne(ctx: SyncContext, rs: ReplicaSet): ReplicaSet {
  return ctx.rsList.find((x) => x.metadata?.uid === rs.metadata?.uid) ?? rs;
}

/** Scales the new RS toward `replicas` (or back down to it); true when it scaled. */
function reconcileNewReplicaSet(ctx: SyncContext, allRSs: ReplicaSet[], newRS: ReplicaSet): boolean {
  const replicas = deploymentReplicas(ctx.d);
  if (rsReplicas(newRS) === replicas) return false;
  if (rsReplicas(newRS) > replicas) return scaleReplicaSetAndRecordEvent(ctx, newRS, replicas).scaled;
  return scaleReplicaSetAndRecordEvent(ctx, newRS, newRSNewReplicas(ctx.d, allRSs, newRS)).scaled;
}

/**
 * Scales old RSs down by at most `Σspec − minAvailable − unavailable(new)`:
 * the new RS's unavailable pods count against the budget so that a broken
 * new template never costs old, working pods. True when anything scaled.
 */
function reconcileOldReplicaSets(
  ctx: SyncContext,
  allRSs: ReplicaSet[],
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
): boolean {
  if (sumSpec(oldRSs) === 0) return false;
  const minAvailable = deploymentReplicas(ctx.d) - maxUnavailable(ctx.d);
  const newUnavailable = rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = sumSpec(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  // Upstream ignores write errors here (the next sync retries); so do we.
  try {
    const cleaned = cleanupUnhealthyReplicas(ctx, oldRSs, maxScaledDown);
    const scaledDown = scaleDownOldReplicaSets(ctx, [...cleaned.oldRSs, newRS], cleaned.oldRSs);
    return cleaned.count + scaledDown > 0;
  } catch {
    return false;
  }
}

/** Removes old RSs' unavailable replicas, oldest RS first, up to `maxCleanup`. */
function cleanupUnhealthyReplicas(
  ctx: SyncContext,
  oldRSs: ReplicaSet[],
  maxCleanup: number,
): { oldRSs: ReplicaSet[]; count: number } {
  const sorted = [...oldRSs].sort(byCreation);
  let total = 0;
  for (let i = 0; i < sorted.length && total < maxCleanup; i++) {
    const rs = sorted[i];
    const spec = rsReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (spec === 0 || spec === available) continue;
    const down = Math.min(maxCleanup - total, spec - available);
    sorted[i] = scaleReplicaSetAndRecordEvent(ctx, rs, spec - down).rs;
    total += down;
  }
  return { oldRSs: sorted, count: total };
}

/** Scales old RSs down, oldest first, by `Σavailable − minAvailable`. */
function scaleDownOldReplicaSets(ctx: SyncContext, allRSs: ReplicaSet[], oldRSs: ReplicaSet[]): number {
  const minAvailable = deploymentReplicas(ctx.d) - maxUnavailable(ctx.d);
  const available = sumStatus(allRSs, 'availableReplicas');
  if (available <= minAvailable) return 0;
  const budget = available - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= budget) break;
    const spec = rsReplicas(rs);
    if (spec === 0) continue;
    const down = Math.min(spec, budget - total);
    scaleReplicaSetAndRecordEvent(ctx, rs, spec - down);
    total += down;
  }
  return total;
}
