/**
 * Scaling a Deployment whose size changed (`scale` in sync.go): one active
 * RS takes the whole size; a saturated new RS retires the old ones; during a
 * rolling update the difference is shared among the active RSs in
 * proportion to their size, the leftover going to the largest.
 */
import type { Deployment, ReplicaSet as ApiReplicaSet } from 'kubernetes-types/apps/v1';
import type { ReplicaSet } from './objects';
import { MAX_REPLICAS_ANNOTATION, intAnnotation } from './annotations';
import { maxSurge } from './fenceposts';
import {
  activeReplicaSets,
  bySizeNewer,
  bySizeOlder,
  deploymentReplicas,
  findActiveOrLatest,
  isRollingUpdate,
  isSaturated,
  rsReplicas,
  sumSpec,
} from './replicaSets';
import { scaleReplicaSet, scaleReplicaSetAndRecordEvent } from './scaleReplicaSet';
import type { SyncContext } from './syncContext';

/** One step of a scale: set `rs` to `replicas`. */
export interface ScaleStep<R extends ApiReplicaSet = ReplicaSet> {
  rs: R;
  replicas: number;
  /** How the event words it; undefined means "up" or "down" by comparison. */
  operation?: 'up' | 'down' | '';
}

/** The scale steps for `d` (pure; `scale` carries them out in order). */
export function planScale<R extends ApiReplicaSet>(
  d: Deployment,
  newRS: R | undefined,
  oldRSs: readonly R[],
): ScaleStep<R>[] {
  const replicas = deploymentReplicas(d);
  const only = findActiveOrLatest(newRS, oldRSs);
  if (only) return rsReplicas(only) === replicas ? [] : [{ rs: only, replicas }];
  if (isSaturated(d, newRS)) return activeReplicaSets(oldRSs).map((rs) => ({ rs, replicas: 0 }));
  if (!isRollingUpdate(d)) return [];
  return proportionalSteps(d, activeReplicaSets([...oldRSs, newRS]));
}

function proportionalSteps<R extends ApiReplicaSet>(d: Deployment, active: R[]): ScaleStep<R>[] {
  const replicas = deploymentReplicas(d);
  const allowed = replicas > 0 ? replicas + maxSurge(d) : 0;
  const toAdd = allowed - sumSpec(active);
  let operation: 'up' | 'down' | '' = '';
  if (toAdd > 0) {
    active.sort(bySizeNewer);
    operation = 'up';
  } else if (toAdd < 0) {
    active.sort(bySizeOlder);
    operation = 'down';
  }
  let added = 0;
  const sizes = active.map((rs) => {
    if (toAdd === 0) return rsReplicas(rs);
    const p = proportion(rs, d, toAdd, added);
    added += p;
    return rsReplicas(rs) + p;
  });
  if (toAdd !== 0 && sizes.length > 0) sizes[0] = Math.max(0, sizes[0] + toAdd - added);
  return active.map((rs, i) => ({ rs, replicas: sizes[i], operation }));
}

/** Upstream `GetProportion`: this RS's share of `toAdd`, never beyond what is left to add or remove. */
function proportion(rs: ApiReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

function replicaSetFraction(rs: ApiReplicaSet, d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (replicas === 0) return -rsReplicas(rs);
  const deploymentMax = replicas + maxSurge(d);
  const annotated = intAnnotation(rs, MAX_REPLICAS_ANNOTATION) ?? d.status?.replicas ?? 0;
  // Upstream never scales proportionally from zero; guard the division anyway.
  if (annotated <= 0) return 0;
  return roundHalfAway((rsReplicas(rs) * deploymentMax) / annotated) - rsReplicas(rs);
}

/** Go's `math.Round` (what `integer.RoundToInt32` uses): halves away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** Carries out `planScale`; stops at the first failed write (the Deployment is requeued). */
export function scale(ctx: SyncContext, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): void {
  for (const step of planScale(ctx.d, newRS, oldRSs)) {
    if (step.operation === undefined) scaleReplicaSetAndRecordEvent(ctx, step.rs, step.replicas);
    else scaleReplicaSet(ctx, step.rs, step.replicas, step.operation);
  }
}
