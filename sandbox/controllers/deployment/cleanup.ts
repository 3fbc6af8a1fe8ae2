/**
 * `revisionHistoryLimit` (`cleanupDeployment` in sync.go): delete the old
 * ReplicaSets beyond the limit, lowest revision first — only those that are
 * scaled to zero, have no pods left, have had their spec observed, and are
 * not already being deleted.
 */
import type { ReplicaSet } from './objects';
import { isApiError } from '../../api/errors';
import { byRevision, rsReplicas } from './replicaSets';
import { hasRevisionHistoryLimit } from './status';
import type { SyncContext } from './syncContext';

export function cleanupDeployment(ctx: SyncContext, oldRSs: readonly ReplicaSet[]): void {
  if (!hasRevisionHistoryLimit(ctx.d)) return;
  const cleanable = oldRSs.filter((rs) => !rs.metadata?.deletionTimestamp);
  const diff = cleanable.length - ctx.d.spec!.revisionHistoryLimit!;
  if (diff <= 0) return;
  cleanable.sort(byRevision);
  for (const rs of cleanable.slice(0, diff)) {
    const observed = (rs.metadata?.generation ?? 0) <= (rs.status?.observedGeneration ?? 0);
    if ((rs.status?.replicas ?? 0) !== 0 || rsReplicas(rs) !== 0 || !observed) continue;
    try {
      ctx.api.delete('replicasets', rs.metadata!.namespace, rs.metadata!.name!);
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
}
