/**
 * A StatefulSet pod's PersistentVolumeClaims (stateful_pod_control.go,
 * stateful_set_utils.go): created before the pod and kept across its restarts,
 * and owned as `persistentVolumeClaimRetentionPolicy` says (StatefulSetAutoDeletePVC,
 * GA in 1.32) — by nobody (Retain/Retain), by the set (whenDeleted: Delete), by
 * a pod once it is scaled away (whenScaled: Delete) — so the garbage collector
 * deletes them with their owner. Claims another controller owns, or whose
 * owner reference is stale, are left alone.
 */
import type { StatefulSetPersistentVolumeClaimRetentionPolicy } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { KubeObject, OwnerReference, Typed } from '../../api/types';
import type { Informer } from '../../client/informer';
import { newControllerRef } from '../util/owners';
import type { Sts } from './identity';
import { claimsFor, inOrdinalRange, ordinalOf } from './identity';

export type Claim = Typed<PersistentVolumeClaim>;

/** What the claims' owner references are compared against: the set and the pod (which may not exist yet). */
interface Owner {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; uid?: string };
}

/** `getPersistentVolumeClaimRetentionPolicy`: Retain/Retain when unset. */
export function retentionPolicy(set: Sts): Required<StatefulSetPersistentVolumeClaimRetentionPolicy> {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted ?? 'Retain', whenScaled: p?.whenScaled ?? 'Retain' };
}

/** `matchesRef`: same group/version, kind and name. */
function matchesRef(ref: OwnerReference, owner: Owner): boolean {
  return ref.apiVersion === owner.apiVersion && ref.kind === owner.kind && ref.name === owner.metadata.name;
}

function hasOwnerRef(claim: PersistentVolumeClaim, owner: Owner): boolean {
  return (claim.metadata?.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid);
}

/** `hasStaleOwnerRef`: a reference to an object of the owner's kind and name, but another uid. */
export function hasStaleOwnerRef(claim: PersistentVolumeClaim, owner: Owner): boolean {
  for (const r of claim.metadata?.ownerReferences ?? []) if (matchesRef(r, owner)) return r.uid !== owner.metadata.uid;
  return false;
}

function isRetainRetain(set: Sts): boolean {
  const p = retentionPolicy(set);
  return p.whenDeleted === 'Retain' && p.whenScaled === 'Retain';
}

/** `hasUnexpectedController`: with a Delete policy, a controller other than the set or pod (or a stale one). */
function hasUnexpectedController(claim: PersistentVolumeClaim, set: Sts, pod: Owner): boolean {
  if (isRetainRetain(set)) return false;
  for (const r of claim.metadata?.ownerReferences ?? []) {
    if (matchesRef(r, set)) {
      if (r.uid !== set.metadata.uid) return true;
      continue;
    }
    if (matchesRef(r, pod)) {
      if (r.uid !== pod.metadata.uid) return true;
      continue;
    }
    if (r.controller === true) return true;
  }
  return false;
}

/** `hasNonControllerOwner`: the set or pod owns the claim without being its controller. */
function hasNonControllerOwner(claim: PersistentVolumeClaim, set: Sts, pod: Owner): boolean {
  return (claim.metadata?.ownerReferences ?? []).some(
    (r) => (r.uid === set.metadata.uid || r.uid === pod.metadata.uid) && r.controller !== true,
  );
}

/** `isClaimOwnerUpToDate`: the claim's owner references are what the retention policy asks for. */
export function isClaimOwnerUpToDate(claim: PersistentVolumeClaim, set: Sts, pod: Typed<Pod>): boolean {
  if (hasStaleOwnerRef(claim, set) || hasStaleOwnerRef(claim, pod)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const p = retentionPolicy(set);
  const bySet = hasOwnerRef(claim, set);
  const byPod = hasOwnerRef(claim, pod);
  const scaledDown = !inOrdinalRange(pod, set);
  if (p.whenScaled === 'Delete' && p.whenDeleted === 'Delete') return scaledDown !== bySet && scaledDown === byPod;
  if (p.whenScaled === 'Delete') return !bySet && scaledDown === byPod;
  if (p.whenDeleted === 'Delete') return bySet && !byPod;
  return !bySet && !byPod;
}

/** `updateClaimOwnerRefForSetAndPod`: the claim's owner references as the policy wants them. */
export function ownerRefsForPolicy(claim: PersistentVolumeClaim, set: Sts, pod: Typed<Pod>): OwnerReference[] {
  const unexpected = hasUnexpectedController(claim, set, pod);
  const refs = (claim.metadata?.ownerReferences ?? []).filter((r) => !matchesRef(r, set) && !matchesRef(r, pod));
  if (unexpected) return refs;
  const p = retentionPolicy(set);
  const scaledDown = !inOrdinalRange(pod, set);
  const add = (owner: Owner & KubeObject): void => {
    if (!refs.some((r) => r.uid === owner.metadata.uid)) refs.push(newControllerRef(owner));
  };
  if (p.whenScaled === 'Delete' && scaledDown) add(pod);
  if (p.whenDeleted === 'Delete' && !(p.whenScaled === 'Delete' && scaledDown)) add(set);
  return refs;
}

export interface ClaimDeps {
  api: ApiServer;
  claims: Informer<Claim>;
}

function cachedClaim(deps: ClaimDeps, namespace: string | undefined, name: string): Claim | undefined {
  return deps.claims.cache.get(`${namespace}/${name}`);
}

/** `ClaimsMatchRetentionPolicy`: every existing claim of the pod is owned as the policy says. */
export function claimsMatchRetentionPolicy(deps: ClaimDeps, set: Sts, pod: Typed<Pod>): boolean {
  for (const { claim } of claimsFor(set, ordinalOf(pod))) {
    const found = cachedClaim(deps, claim.metadata.namespace, claim.metadata.name ?? '');
    if (found && !isClaimOwnerUpToDate(found, set, pod)) return false;
  }
  return true;
}

/** `UpdatePodClaimForRetentionPolicy`: rewrites the owner references of the pod's claims that are out of date. */
export function updatePodClaimsForRetentionPolicy(deps: ClaimDeps, set: Sts, pod: Typed<Pod>): void {
  for (const { claim } of claimsFor(set, ordinalOf(pod))) {
    const found = cachedClaim(deps, claim.metadata.namespace, claim.metadata.name ?? '');
    if (!found || isClaimOwnerUpToDate(found, set, pod)) continue;
    const refs = ownerRefsForPolicy(found, set, pod);
    const { ownerReferences: _old, ...rest } = found.metadata;
    const metadata = refs.length > 0 ? { ...rest, ownerReferences: refs } : rest;
    try {
      deps.api.update({ ...found, metadata });
    } catch (e) {
      throw new Error(
        `Could not update claim ${found.metadata.name} for delete policy ownerRefs: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
}

/**
 * `PodClaimIsStale`: with `whenScaled: Delete`, a claim still owned by an earlier pod of that name (the garbage
 * collector has yet to delete it) blocks the pod's creation.
 */
export function podClaimIsStale(deps: ClaimDeps, set: Sts, pod: Typed<Pod>): boolean {
  if (retentionPolicy(set).whenScaled === 'Retain') return false;
  for (const { claim } of claimsFor(set, ordinalOf(pod))) {
    const found = cachedClaim(deps, claim.metadata.namespace, claim.metadata.name ?? '');
    if (found && hasStaleOwnerRef(found, pod)) return true;
  }
  return false;
}

/** What happened to one claim, for the set's events (`recordClaimEvent`). */
export type ClaimOutcome = { claim: string; error?: Error };

/**
 * `createPersistentVolumeClaims`: creates the pod's missing claims; a claim being deleted is an error
 * (`pvc www-web-0 is being deleted`). Returns the outcome of each create attempted, and the errors joined.
 */
export function createClaims(deps: ClaimDeps, set: Sts, pod: Typed<Pod>): { outcomes: ClaimOutcome[]; error?: Error } {
  const outcomes: ClaimOutcome[] = [];
  const errors: string[] = [];
  for (const { claim } of claimsFor(set, ordinalOf(pod))) {
    const name = claim.metadata.name ?? '';
    const found = cachedClaim(deps, claim.metadata.namespace, name);
    if (found) {
      if (found.metadata.deletionTimestamp) errors.push(`pvc ${name} is being deleted`);
      continue;
    }
    try {
      deps.api.create(claim);
      outcomes.push({ claim: name });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      errors.push(`failed to create PVC ${name}: ${message}`);
      if (!isApiError(e, 409)) outcomes.push({ claim: name, error: e instanceof Error ? e : new Error(message) });
    }
  }
  return errors.length === 0 ? { outcomes } : { outcomes, error: new Error(aggregate(errors)) };
}

/** `utilerrors.NewAggregate(...).Error()`: one message alone, several as `[a, b]`. */
export function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}
