/**
 * Claiming dependents (`ClaimPods` and `ClaimControllerRevisions` of
 * pkg/controller/controller_ref_manager.go): a controller keeps the objects it
 * owns that still match its selector, adopts matching orphans, releases owned
 * objects that stopped matching, and ignores objects other controllers own.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { KubeObject, OwnerReference } from '../../api/types';
import { controllerRefOf, newControllerRef } from './owners';

export interface ClaimOptions<T> {
  api: ApiServer;
  /** The controller as cached. */
  owner: KubeObject;
  matches: (obj: T) => boolean;
  /** Called after each successful adoption or release, for the log. */
  onChange?: (obj: T, change: 'adopted' | 'released') => void;
}

export interface ClaimResult<T> {
  claimed: T[];
  errors: Error[];
}

interface Dependent {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    deletionTimestamp?: string;
    ownerReferences?: readonly OwnerReference[];
  };
}

/**
 * Claims `pods` for `owner`. Before the first adoption the owner is re-read
 * from the API server: a controller that is gone or being deleted adopts
 * nothing (upstream `RecheckDeletionTimestamp`).
 */
export function claimPods(pods: readonly Pod[], options: ClaimOptions<Pod>): ClaimResult<Pod> {
  return claimDependents('pods', pods, options, controllerRefOf);
}

/** `ClaimControllerRevisions`: the same rules for ControllerRevisions. */
export function claimControllerRevisions<T extends Dependent>(
  revisions: readonly T[],
  options: ClaimOptions<T>,
): ClaimResult<T> {
  return claimDependents('controllerrevisions', revisions, options, controllerRefOf);
}

function claimDependents<T extends Dependent>(
  resource: string,
  objects: readonly T[],
  options: ClaimOptions<T>,
  controllerOf: (obj: T) => OwnerReference | undefined,
): ClaimResult<T> {
  const { api, owner } = options;
  const uid = owner.metadata.uid!;
  const claimed: T[] = [];
  const errors: Error[] = [];
  let canAdopt: Error | null | undefined;
  for (const obj of objects) {
    const ref = controllerOf(obj);
    try {
      if (ref) {
        if (ref.uid !== uid) continue;
        if (options.matches(obj)) claimed.push(obj);
        else if (!owner.metadata.deletionTimestamp && release(api, resource, obj, uid))
          options.onChange?.(obj, 'released');
        continue;
      }
      if (owner.metadata.deletionTimestamp || !options.matches(obj) || obj.metadata?.deletionTimestamp) continue;
      if (obj.metadata?.namespace !== owner.metadata.namespace) continue;
      if (canAdopt === undefined) canAdopt = recheckOwner(api, owner);
      if (canAdopt) throw canAdopt;
      if (adopt(api, resource, obj, newControllerRef(owner))) {
        claimed.push(obj);
        options.onChange?.(obj, 'adopted');
      }
    } catch (e) {
      errors.push(e instanceof Error ? e : new Error(String(e)));
    }
  }
  return { claimed, errors };
}

/** null when the owner may adopt; otherwise why not. */
function recheckOwner(api: ApiServer, owner: KubeObject): Error | null {
  const fresh = api.get(api.resourceOf(owner), owner.metadata.namespace, owner.metadata.name!);
  const ns = owner.metadata.namespace;
  if (fresh.metadata.uid !== owner.metadata.uid) {
    return new Error(
      `original ${owner.kind} ${ns}/${owner.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${owner.metadata.uid}`,
    );
  }
  if (fresh.metadata.deletionTimestamp)
    return new Error(`${ns}/${owner.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  return null;
}

/** Patches the controller reference in; false when the object is already gone. */
function adopt(api: ApiServer, resource: string, obj: Dependent, ref: OwnerReference): boolean {
  const refs = obj.metadata?.ownerReferences;
  const ops = [
    { op: 'test', path: '/metadata/uid', value: obj.metadata?.uid },
    refs && refs.length > 0
      ? { op: 'add', path: '/metadata/ownerReferences/-', value: ref }
      : { op: 'add', path: '/metadata/ownerReferences', value: [ref] },
  ];
  return patchIgnoringNotFound(api, resource, obj, ops);
}

/** Removes the owner's reference; false when the object is already gone. */
function release(api: ApiServer, resource: string, obj: Dependent, ownerUid: string): boolean {
  const refs = obj.metadata?.ownerReferences ?? [];
  const i = refs.findIndex((r) => r.uid === ownerUid);
  if (i < 0) return false;
  const ops: unknown[] = [
    { op: 'test', path: '/metadata/uid', value: obj.metadata?.uid },
    { op: 'test', path: `/metadata/ownerReferences/${i}/uid`, value: ownerUid },
  ];
  ops.push(
    refs.length === 1
      ? { op: 'remove', path: '/metadata/ownerReferences' }
      : { op: 'remove', path: `/metadata/ownerReferences/${i}` },
  );
  return patchIgnoringNotFound(api, resource, obj, ops);
}

function patchIgnoringNotFound(api: ApiServer, resource: string, obj: Dependent, ops: unknown[]): boolean {
  try {
    api.patch(resource, obj.metadata?.namespace, obj.metadata?.name ?? '', 'json', ops);
    return true;
  } catch (e) {
    if (isApiError(e, 404)) return false;
    throw e;
  }
}
