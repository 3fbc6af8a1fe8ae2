/**
 * The annotations a Deployment keeps on its ReplicaSets (revision, revision
 * history, desired and max replicas) and on itself (revision), as
 * pkg/controller/deployment/util/deployment_util.go sets them.
 */
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';

/** Upstream `maxRevHistoryLengthInChars`. */
export const MAX_REVISION_HISTORY_CHARS = 2000;

const SKIPPED = new Set([
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  DEPRECATED_ROLLBACK_TO,
]);

/** The revision number; 0 when absent; undefined when not an integer. */
export function revisionOf(obj: { metadata?: { annotations?: Record<string, string> } }): number | undefined {
  const v = obj.metadata?.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return /^[+-]?[0-9]+$/.test(v) ? Number(v) : undefined;
}

/** Upstream `MaxRevision`: the highest parsable revision (0 for none). */
export function maxRevision(list: readonly ReplicaSet[]): number {
  let max = 0;
  for (const rs of list) {
    const v = revisionOf(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

function annotationsOf(obj: { metadata?: { annotations?: Record<string, string> } }): Record<string, string> {
  const meta = obj.metadata!;
  meta.annotations ??= {};
  return meta.annotations;
}

/**
 * Upstream `SetNewReplicaSetAnnotations` on a mutable copy of the new RS:
 * copies the Deployment's annotations (not last-applied nor the deployment.
 * kubernetes.io ones), raises the revision to `newRevision` (recording the
 * one it replaces in the revision history), and for an RS about to be
 * created sets the replica annotations. True when anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
  maxSurge: number,
): boolean {
  let changed = copyDeploymentAnnotations(d, rs);
  const annotations = annotationsOf(rs);
  const had = annotations[REVISION_ANNOTATION];
  const old = had === undefined || had === '' ? 0 : revisionOf(rs);
  if (old === undefined) return false;
  if (old < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (had !== undefined) recordRevisionHistory(annotations, had);
  }
  const replicas = d.spec?.replicas ?? 1;
  if (!exists && setReplicasAnnotations(rs, replicas, replicas + maxSurge)) changed = true;
  return changed;
}

/**
 * True when `setNewReplicaSetAnnotations(d, copy, newRevision, true, …)` on a copy of the existing `rs` would change
 * nothing: every annotation of the Deployment it copies is already there, and the revision is not raised. False when
 * it would change something, or when the RS's revision does not parse (then the caller takes the full path, which
 * copies the annotations yet answers false, as upstream does). Reads `rs` without changing it.
 */
export function existingReplicaSetAnnotationsUnchanged(d: Deployment, rs: ReplicaSet, newRevision: number): boolean {
  const annotations: Record<string, string> = rs.metadata?.annotations ?? {};
  const own = d.metadata?.annotations;
  if (own !== undefined)
    for (const [k, v] of Object.entries(own)) if (!SKIPPED.has(k) && annotations[k] !== v) return false;
  const had = annotations[REVISION_ANNOTATION];
  const old = had === undefined || had === '' ? 0 : revisionOf(rs);
  return old !== undefined && old >= newRevision;
}

/** Appends `oldRevision` to the history, dropping the oldest entries beyond the length limit. */
function recordRevisionHistory(annotations: Record<string, string>, oldRevision: string): void {
  const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
  if (history === '') {
    annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
    return;
  }
  const entries = history.split(',');
  let total = history.length + oldRevision.length + 1;
  let start = 0;
  while (total > MAX_REVISION_HISTORY_CHARS && start < entries.length) total -= entries[start++].length + 1;
  if (total <= MAX_REVISION_HISTORY_CHARS)
    annotations[REVISION_HISTORY_ANNOTATION] = [...entries.slice(start), oldRevision].join(',');
}

function copyDeploymentAnnotations(d: Deployment, rs: ReplicaSet): boolean {
  const annotations = annotationsOf(rs);
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (SKIPPED.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  return changed;
}

/** Sets desired-replicas and max-replicas; true when either changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = annotationsOf(rs);
  let changed = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

/** True when desired-replicas or max-replicas differ from these values. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata?.annotations ?? {};
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** An integer annotation (`getIntFromAnnotation`), undefined when absent or not a number. */
export function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata?.annotations?.[key];
  return v !== undefined && /^[+-]?[0-9]+$/.test(v) ? Number(v) : undefined;
}

/** Upstream `SetDeploymentRevision` on a mutable Deployment; true when it changed. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
  const annotations = annotationsOf(d);
  if (annotations[REVISION_ANNOTATION] === revision) return false;
  annotations[REVISION_ANNOTATION] = revision;
  return true;
}
