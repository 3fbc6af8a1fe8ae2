/**
 * Scaling one ReplicaSet (`scaleReplicaSet` and
 * `scaleReplicaSetAndRecordEvent` in sync.go): a PUT of `spec.replicas`
 * together with the desired/max-replicas annotations, and a
 * `ScalingReplicaSet` event on the Deployment when the size changed.
 */
import type { ReplicaSet } from './objects';
import { cloneJson } from '../../util/json';
import { replicasAnnotationsNeedUpdate, setReplicasAnnotations } from './annotations';
import { maxSurge } from './fenceposts';
import { deploymentReplicas, equalIgnoreHash, rsReplicas } from './replicaSets';
import { rememberReplicaSet, type SyncContext } from './syncContext';

export interface ScaleResult {
  /** The size changed. */
  scaled: boolean;
  /** The ReplicaSet as it now is. */
  rs: ReplicaSet;
}

/** For the causal timeline: why a ReplicaSet's size changed (the template changed, or the replicas). */
function scaleWhy(ctx: SyncContext, rs: ReplicaSet, operation: 'up' | 'down' | ''): string {
  if (operation === '') return 'replicas changed (proportional scaling)';
  const isNew = equalIgnoreHash(rs.spec?.template, ctx.d.spec?.template);
  const othersActive = ctx.rsList.some((x) => x.metadata?.uid !== rs.metadata?.uid && rsReplicas(x) > 0);
  if (isNew) return othersActive ? 'new template: rolling update' : 'replicas changed';
  return 'old template: replaced by the new replica set';
}

/** Scales `rs` to `newScale` when that is a change, naming the direction in the event. */
export function scaleReplicaSetAndRecordEvent(ctx: SyncContext, rs: ReplicaSet, newScale: number): ScaleResult {
  const current = rsReplicas(rs);
  if (current === newScale) return { scaled: false, rs };
  return scaleReplicaSet(ctx, rs, newScale, current < newScale ? 'up' : 'down');
}

/**
 * Writes `newScale` and the replica annotations when either differs. The
 * event says `Scaled <operation> replica set <name> from <old> to <new>`
 * (`operation` is '' when proportional scaling had nothing to add, as upstream).
 */
export function scaleReplicaSet(
  ctx: SyncContext,
  rs: ReplicaSet,
  newScale: number,
  operation: 'up' | 'down' | '',
): ScaleResult {
  const replicas = deploymentReplicas(ctx.d);
  const max = replicas + maxSurge(ctx.d);
  const oldScale = rsReplicas(rs);
  const sizeNeedsUpdate = oldScale !== newScale;
  if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, replicas, max)) return { scaled: false, rs };
  const copy = cloneJson(rs);
  copy.spec = { ...copy.spec!, replicas: newScale };
  setReplicasAnnotations(copy, replicas, max);
  const updated = ctx.api.update(copy);
  rememberReplicaSet(ctx, updated);
  if (sizeNeedsUpdate) {
    ctx.recorder.event(
      ctx.d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled ${operation} replica set ${updated.metadata!.name} from ${oldScale} to ${newScale}`,
      { target: updated, why: scaleWhy(ctx, rs, operation) },
    );
  }
  return { scaled: sizeNeedsUpdate, rs: updated };
}
