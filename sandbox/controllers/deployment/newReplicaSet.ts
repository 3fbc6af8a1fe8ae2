/**
 * Finding or creating the Deployment's new ReplicaSet and keeping revisions
 * in step (`getAllReplicaSetsAndSyncRevision`, `getNewReplicaSet` in sync.go).
 */
import type { Deployment, ReplicaSet } from './objects';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { isApiError } from '../../api/errors';
import { formatTimestamp } from '../../clock/clock';
import { cloneJson } from '../../util/json';
import { controllerRefOf, newControllerRef } from '../util/owners';
import {
  REVISION_ANNOTATION,
  existingReplicaSetAnnotationsUnchanged,
  maxRevision,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
} from './annotations';
import { REASON, getCondition, newCondition, setCondition } from './conditions';
import { maxSurge, valueFromIntOrPercent } from './fenceposts';
import { computeHash } from './hash';
import {
  POD_TEMPLATE_HASH_LABEL,
  deploymentReplicas,
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  rsReplicas,
  sumSpec,
} from './replicaSets';
import { hasProgressDeadline } from './status';
import { rememberReplicaSet, writeDeploymentStatus, type SyncContext } from './syncContext';

export interface NewAndOld {
  newRS: ReplicaSet | undefined;
  oldRSs: ReplicaSet[];
}

/**
 * The new RS (created when `createIfNotExisted` and missing) and all old
 * ones, with the new RS's revision raised above every old one and mirrored
 * on the Deployment.
 */
export function getAllReplicaSetsAndSyncRevision(ctx: SyncContext, createIfNotExisted: boolean): NewAndOld {
  const existing = findNewReplicaSet(ctx.d, ctx.rsList);
  const oldRSs = findOldReplicaSets(ctx.rsList, existing);
  const newRS = getNewReplicaSet(ctx, existing, oldRSs, createIfNotExisted);
  return { newRS, oldRSs };
}

/**
 * Upstream `NewRSNewReplicas`: RollingUpdate grows the new RS up to
 * `replicas + maxSurge` pods in all, never past `replicas`; Recreate wants
 * all replicas at once.
 */
export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  const replicas = deploymentReplicas(d);
  if (d.spec?.strategy?.type === 'Recreate') return replicas;
  const surge = valueFromIntOrPercent(d.spec?.strategy?.rollingUpdate?.maxSurge ?? 0, replicas, true);
  const current = sumSpec(allRSs);
  const maxTotal = replicas + surge;
  if (current >= maxTotal) return rsReplicas(newRS);
  return rsReplicas(newRS) + Math.min(maxTotal - current, replicas - rsReplicas(newRS));
}

/** `existing`: the new RS found in `ctx.rsList` (upstream's `FindNewReplicaSet`, looked up once per call). */
function getNewReplicaSet(
  ctx: SyncContext,
  existing: ReplicaSet | undefined,
  oldRSs: ReplicaSet[],
  create: boolean,
): ReplicaSet | undefined {
  const newRevision = maxRevision(oldRSs) + 1;
  if (existing) return syncExisting(ctx, existing, newRevision);
  if (!create) return undefined;
  return createNew(ctx, oldRSs, newRevision);
}

function syncExisting(ctx: SyncContext, existing: ReplicaSet, newRevision: number): ReplicaSet {
  const d = ctx.d;
  const minReady = d.spec?.minReadySeconds ?? 0;
  // Most syncs find the new RS as it should be: then it is read as it is, not copied (the copy would be equal to it and
  // go nowhere). Otherwise the annotations are all this changes in place (the spec is replaced, not edited): copied
  // down to them only.
  let revision: string;
  if (
    (existing.spec?.minReadySeconds ?? 0) === minReady &&
    existingReplicaSetAnnotationsUnchanged(d, existing, newRevision)
  ) {
    revision = existing.metadata?.annotations?.[REVISION_ANNOTATION] ?? '';
  } else {
    const meta = existing.metadata!;
    const copy: ReplicaSet = {
      ...existing,
      metadata: meta.annotations ? { ...meta, annotations: { ...meta.annotations } } : { ...meta },
    };
    const annotationsUpdated = setNewReplicaSetAnnotations(d, copy, newRevision, true, maxSurge(d));
    if (annotationsUpdated || (copy.spec?.minReadySeconds ?? 0) !== minReady) {
      copy.spec = { ...copy.spec!, minReadySeconds: minReady || undefined };
      const updated = ctx.api.update(copy);
      rememberReplicaSet(ctx, updated);
      return updated;
    }
    revision = copy.metadata?.annotations?.[REVISION_ANNOTATION] ?? '';
  }
  let needsUpdate = setDeploymentRevision(d, revision);
  if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
    d.status ??= {};
    setCondition(
      d.status,
      newCondition(
        'Progressing',
        'True',
        REASON.foundNewRS,
        `Found new replica set "${existing.metadata!.name}"`,
        now(ctx),
      ),
    );
    needsUpdate = true;
  }
  if (needsUpdate) writeDeploymentStatus(ctx);
  return existing;
}

function now(ctx: SyncContext): string {
  return formatTimestamp(ctx.clock.now());
}

/** The RS that `d`'s current template asks for, named `<deployment>-<hash>`. */
export function buildNewReplicaSet(d: Deployment): ReplicaSet {
  const template = cloneJson(d.spec!.template);
  const hash = computeHash(template, d.status?.collisionCount);
  template.metadata = {
    ...(template.metadata ?? {}),
    labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash },
  };
  const selector: LabelSelector = cloneJson(d.spec!.selector);
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  const minReady = d.spec?.minReadySeconds ?? 0;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata!.name}-${hash}`,
      namespace: d.metadata!.namespace,
      labels: { ...template.metadata.labels },
      ownerReferences: [newControllerRef(d)],
    },
    spec: { replicas: 0, ...(minReady ? { minReadySeconds: minReady } : {}), selector, template },
  };
}

function createNew(ctx: SyncContext, oldRSs: ReplicaSet[], newRevision: number): ReplicaSet {
  const d = ctx.d;
  const newRS = buildNewReplicaSet(d);
  const count = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
  newRS.spec!.replicas = count;
  setNewReplicaSetAnnotations(d, newRS, newRevision, false, maxSurge(d));
  const name = newRS.metadata!.name!;
  let created: ReplicaSet;
  let alreadyExists = false;
  try {
    created = ctx.api.create(newRS);
  } catch (e) {
    if (!isApiError(e, 409) || e.reason !== 'AlreadyExists') throw reportCreateFailure(ctx, name, e);
    created = adoptExistingOrCollide(ctx, name, e);
    alreadyExists = true;
  }
  rememberReplicaSet(ctx, created);
  if (!alreadyExists && count > 0) {
    ctx.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} from 0 to ${count}`, {
      target: created,
      why: oldRSs.length > 0 ? 'new template' : 'new Deployment',
    });
  }
  let needsUpdate = setDeploymentRevision(d, String(newRevision));
  if (!alreadyExists && hasProgressDeadline(d)) {
    d.status ??= {};
    setCondition(
      d.status,
      newCondition('Progressing', 'True', REASON.newReplicaSet, `Created new replica set "${name}"`, now(ctx)),
    );
    needsUpdate = true;
  }
  if (needsUpdate) writeDeploymentStatus(ctx);
  return created;
}

/**
 * An RS with the new RS's name exists. If it is ours with this template it
 * is the new RS; otherwise the hash collided: count the collision (the next
 * sync hashes with the new count) and fail this sync.
 */
function adoptExistingOrCollide(ctx: SyncContext, name: string, error: Error): ReplicaSet {
  const d = ctx.d;
  const rs = ctx.api.tryGet('replicasets', d.metadata!.namespace, name);
  if (!rs) throw error;
  if (controllerRefOf(rs)?.uid === d.metadata!.uid && equalIgnoreHash(d.spec!.template, rs.spec?.template)) return rs;
  d.status ??= {};
  d.status.collisionCount = (d.status.collisionCount ?? 0) + 1;
  try {
    writeDeploymentStatus(ctx);
  } catch {
    // The original error requeues the Deployment; the count is retried then.
  }
  throw error;
}

/** Upstream reports a failed create as Progressing=False `ReplicaSetCreateError` and a Warning event. */
function reportCreateFailure(ctx: SyncContext, name: string, error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (isApiError(error, 403) && message.includes('because it is being terminated')) return error;
  const msg = `Failed to create new replica set "${name}": ${message}`;
  if (hasProgressDeadline(ctx.d)) {
    ctx.d.status ??= {};
    setCondition(ctx.d.status, newCondition('Progressing', 'False', REASON.failedRSCreate, msg, now(ctx)));
    try {
      writeDeploymentStatus(ctx);
    } catch {
      // The create error is the one worth reporting.
    }
  }
  ctx.recorder.event(ctx.d, 'Warning', REASON.failedRSCreate, msg);
  return error;
}
