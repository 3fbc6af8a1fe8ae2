/**
 * The Recreate strategy (recreate.go): scale every old ReplicaSet to zero,
 * wait until none of their pods is left running (and none reports
 * replicas), and only then create or scale up the new one.
 */
import type { ReplicaSet } from './objects';
import { isPodTerminal } from '../util/pods';
import { cleanupDeployment } from './cleanup';
import { getAllReplicaSetsAndSyncRevision } from './newReplicaSet';
import { syncRolloutStatus } from './progress';
import { activeReplicaSets, deploymentReplicas, sumStatus } from './replicaSets';
import { latest, latestOne } from './rolling';
import { scaleReplicaSetAndRecordEvent } from './scaleReplicaSet';
import { deploymentComplete } from './status';
import type { SyncContext } from './syncContext';

export function rolloutRecreate(ctx: SyncContext): void {
  // No new RS yet: creating it now would scale up before the old pods are gone.
  let { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, false);
  const all = (): (ReplicaSet | undefined)[] => [...latest(ctx, oldRSs), newRS && latestOne(ctx, newRS)];
  let scaledDown = false;
  for (const rs of activeReplicaSets(oldRSs))
    scaledDown = scaleReplicaSetAndRecordEvent(ctx, rs, 0).scaled || scaledDown;
  if (scaledDown || oldPodsRunning(ctx, newRS, latest(ctx, oldRSs))) return syncRolloutStatus(ctx, all(), newRS);
  if (!newRS) ({ newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, true));
  scaleReplicaSetAndRecordEvent(ctx, latestOne(ctx, newRS!), deploymentReplicas(ctx.d));
  if (deploymentComplete(ctx.d, ctx.d.status ?? {})) cleanupDeployment(ctx, latest(ctx, oldRSs));
  syncRolloutStatus(ctx, all(), newRS && latestOne(ctx, newRS));
}

/** An old RS still reports replicas, or an old RS's pod is not yet Succeeded or Failed. */
function oldPodsRunning(ctx: SyncContext, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): boolean {
  if (sumStatus(oldRSs, 'replicas') > 0) return true;
  const uids = new Set(ctx.rsList.map((rs) => rs.metadata!.uid!));
  for (const [uid, pods] of ctx.podsByOwner(ctx.d.metadata!.namespace ?? '', uids)) {
    if (newRS && uid === newRS.metadata?.uid) continue;
    if (pods.some((p) => !isPodTerminal(p))) return true;
  }
  return false;
}
