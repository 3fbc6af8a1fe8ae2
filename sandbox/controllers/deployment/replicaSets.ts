/**
 * The ReplicaSet arithmetic of pkg/controller/deployment/util and
 * pkg/controller/controller_utils.go: which RS is new, which are old, how
 * they sort, and the replica sums the status and the strategies use.
 */
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import { parseTimestamp } from '../../clock/clock';
import { jsonEqual } from '../../util/json';
import { DESIRED_REPLICAS_ANNOTATION, revisionOf } from './annotations';

/** The label that tells a Deployment's ReplicaSets (and their pods) apart. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** `spec.replicas`, with the API default of 1. */
export function deploymentReplicas(d: Deployment): number {
  return d.spec?.replicas ?? 1;
}

export function isRollingUpdate(d: Deployment): boolean {
  return d.spec?.strategy?.type === 'RollingUpdate';
}

/** `spec.replicas` of a ReplicaSet, with the API default of 1. */
export function rsReplicas(rs: ReplicaSet): number {
  return rs.spec?.replicas ?? 1;
}

/**
 * A frozen template's last comparison with another frozen template (keyed by the first argument: in a sync, the
 * ReplicaSet's). Frozen means frozen all the way down (`deepFreeze`), so the answer cannot change; a status write
 * keeps the stored spec (the same frozen object), so a ReplicaSet's template is compared with its Deployment's once,
 * not several times per sync on every sync.
 */
const lastCompared = new WeakMap<object, { other: object; equal: boolean }>();

/**
 * Upstream `EqualIgnoreHash`: templates equal once the hash label is dropped from both. Compared in place (no
 * copies): it runs for every owned ReplicaSet on every sync, several times per sync; two frozen (cached, stored)
 * templates are compared once and the answer kept.
 */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || !Object.isFrozen(a) || !Object.isFrozen(b)) return templatesEqual(a, b);
  const last = lastCompared.get(a);
  if (last !== undefined && last.other === b) return last.equal;
  const equal = templatesEqual(a, b);
  lastCompared.set(a, { other: b, equal });
  return equal;
}

function templatesEqual(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const x = (a ?? {}) as Record<string, unknown>;
  const y = (b ?? {}) as Record<string, unknown>;
  if (!equalMembersExcept(x, y, 'metadata')) return false;
  const mx = (x.metadata ?? {}) as Record<string, unknown>;
  const my = (y.metadata ?? {}) as Record<string, unknown>;
  if (!equalMembersExcept(mx, my, 'labels')) return false;
  return equalMembersExcept(
    (mx.labels ?? {}) as Record<string, unknown>,
    (my.labels ?? {}) as Record<string, unknown>,
    POD_TEMPLATE_HASH_LABEL,
  );
}

/** `jsonEqual` of two objects with the member `skip` left out of both (undefined members count as absent). */
function equalMembersExcept(a: Record<string, unknown>, b: Record<string, unknown>, skip: string): boolean {
  let count = 0;
  for (const key of Object.keys(a)) {
    if (key === skip || a[key] === undefined) continue;
    count++;
    if (!jsonEqual(a[key], b[key])) return false;
  }
  for (const key of Object.keys(b)) if (key !== skip && b[key] !== undefined) count--;
  return count === 0;
}

function created(rs: ReplicaSet): number {
  return parseTimestamp(rs.metadata?.creationTimestamp ?? '') || 0;
}

/** `ReplicaSetsByCreationTimestamp`: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  return created(a) - created(b) || compareNames(a, b);
}

/** `ReplicaSetsBySizeOlder`: largest first, then oldest first. */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(b) - rsReplicas(a) || byCreation(a, b);
}

/** `ReplicaSetsBySizeNewer`: largest first, then newest first. */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(b) - rsReplicas(a) || byCreation(b, a);
}

/** `ReplicaSetsByRevision`: lowest revision first; equal or unparsable revisions by creation. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  if (ra === undefined || rb === undefined || ra === rb) return byCreation(a, b);
  return ra - rb;
}

function compareNames(a: ReplicaSet, b: ReplicaSet): number {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Upstream `FindNewReplicaSet`: the oldest RS whose template equals the Deployment's, ignoring the hash. */
export function findNewReplicaSet<R extends ReplicaSet>(d: Deployment, rsList: readonly R[]): R | undefined {
  // The first match in creation order (a stable sort's first): the oldest, the earlier in the list among equals.
  let found: R | undefined;
  for (const rs of rsList)
    if ((!found || byCreation(rs, found) < 0) && equalIgnoreHash(rs.spec?.template, d.spec?.template)) found = rs;
  return found;
}

/** Every owned RS except the new one (upstream `FindOldReplicaSets`' second result). */
export function findOldReplicaSets<R extends ReplicaSet>(rsList: readonly R[], newRS: ReplicaSet | undefined): R[] {
  return rsList.filter((rs) => !newRS || rs.metadata?.uid !== newRS.metadata?.uid);
}

/** RSs that want pods (`FilterActiveReplicaSets`). */
export function activeReplicaSets<R extends ReplicaSet>(list: readonly (R | undefined)[]): R[] {
  return list.filter((rs): rs is R => rs !== undefined && rsReplicas(rs) > 0);
}

/** Σ `spec.replicas`. */
export function sumSpec(list: readonly (ReplicaSet | undefined)[]): number {
  return list.reduce((n, rs) => n + (rs ? rsReplicas(rs) : 0), 0);
}

/** Σ of one `status` count. */
export function sumStatus(
  list: readonly (ReplicaSet | undefined)[],
  field: 'replicas' | 'readyReplicas' | 'availableReplicas',
): number {
  return list.reduce((n, rs) => n + (rs?.status?.[field] ?? 0), 0);
}

/**
 * Upstream `IsSaturated`: the new RS has all the Deployment's replicas, both
 * by spec and by its desired-replicas annotation, and all are available.
 */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = Number.parseInt(rs.metadata?.annotations?.[DESIRED_REPLICAS_ANNOTATION] ?? '', 10);
  const replicas = deploymentReplicas(d);
  return rsReplicas(rs) === replicas && desired === replicas && (rs.status?.availableReplicas ?? 0) === replicas;
}

/**
 * Upstream `FindActiveOrLatest`: the only active RS; with none active, the
 * new RS or else the newest old one; undefined when several are active.
 */
export function findActiveOrLatest<R extends ReplicaSet>(newRS: R | undefined, oldRSs: readonly R[]): R | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}
