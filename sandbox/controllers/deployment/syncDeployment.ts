/**
 * One reconcile of one Deployment (`syncDeployment` in
 * deployment_controller.go): claim ReplicaSets, then — in upstream's order
 * of precedence — status only while being deleted, the paused condition,
 * scaling (paused, or the size changed), and otherwise a rollout step of the
 * Deployment's strategy.
 */
import type { Deployment, ReplicaSet } from './objects';
import { DESIRED_REPLICAS_ANNOTATION, intAnnotation } from './annotations';
import { cleanupDeployment } from './cleanup';
import { getAllReplicaSetsAndSyncRevision } from './newReplicaSet';
import { checkPausedConditions, syncDeploymentStatus } from './progress';
import { scale } from './proportional';
import { rolloutRecreate } from './recreate';
import { activeReplicaSets, deploymentReplicas } from './replicaSets';
import { rolloutRolling } from './rolling';
import { writeDeploymentStatus, type SyncContext } from './syncContext';

/**
 * Runs one sync. Returns the delay after which the Deployment wants a
 * deadline check, null when it needs none, undefined when this sync did not
 * estimate progress.
 */
export function syncDeployment(ctx: SyncContext): number | null | undefined {
  const d = ctx.d;
  if (selectsEverything(d)) {
    ctx.recorder.event(
      d,
      'Warning',
      'SelectingAll',
      'This deployment is selecting all pods. A non-empty selector is required.',
    );
    if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
      d.status = { ...(d.status ?? {}), observedGeneration: d.metadata!.generation };
      writeDeploymentStatus(ctx);
    }
    return null;
  }
  if (d.metadata?.deletionTimestamp) {
    const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, false);
    syncDeploymentStatus(ctx, [...oldRSs, newRS], newRS);
    return null;
  }
  checkPausedConditions(ctx);
  if (d.spec?.paused) {
    syncScaling(ctx);
    return null;
  }
  if (isScalingEvent(ctx)) {
    syncScaling(ctx);
    return undefined;
  }
  if (d.spec?.strategy?.type === 'Recreate') rolloutRecreate(ctx);
  else if (d.spec?.strategy?.type === 'RollingUpdate') rolloutRolling(ctx);
  else throw new Error(`unexpected deployment strategy type: ${d.spec?.strategy?.type ?? ''}`);
  return ctx.requeueAfter;
}

/** Upstream `sync`: proportional scaling, history clean-up when paused, status without a progress estimate. */
function syncScaling(ctx: SyncContext): void {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, false);
  scale(ctx, newRS, oldRSs);
  const latest = (rs: ReplicaSet): ReplicaSet => ctx.rsList.find((x) => x.metadata?.uid === rs.metadata?.uid) ?? rs;
  const olds = oldRSs.map(latest);
  if (ctx.d.spec?.paused) cleanupDeployment(ctx, olds);
  syncDeploymentStatus(ctx, [...olds, newRS && latest(newRS)], newRS && latest(newRS));
}

/** An active RS was sized for a different `spec.replicas` (its desired-replicas annotation says so). */
function isScalingEvent(ctx: SyncContext): boolean {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, false);
  const replicas = deploymentReplicas(ctx.d);
  return activeReplicaSets([...oldRSs, newRS]).some((rs) => {
    const desired = intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
    return desired !== undefined && desired !== replicas;
  });
}

/** A selector with no requirements selects every pod; upstream refuses to act on it. */
function selectsEverything(d: Deployment): boolean {
  const s = d.spec?.selector;
  return !!s && Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
}
