/**
 * Claiming pods (`PodControllerRefManager.ClaimPods` in
 * pkg/controller/controller_ref_manager.go): a controller keeps the pods it
 * owns that still match its selector, adopts matching orphans, releases owned
 * pods that stopped matching, and ignores pods other controllers own.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { KubeObject, OwnerReference } from '../../api/types';
import { newControllerRef } from '../util/owners';
import { podFacts } from '../util/podFacts';

export interface ClaimOptions {
  api: ApiServer;
  /** The controller as cached. */
  owner: KubeObject;
  matches: (pod: Pod) => boolean;
  /** Called after each successful adoption or release, for the log. */
  onChange?: (pod: Pod, change: 'adopted' | 'released') => void;
}

export interface ClaimResult {
  claimed: Pod[];
  errors: Error[];
}

/**
 * Claims `pods` for `owner`. Before the first adoption the owner is re-read
 * from the API server: a controller that is gone or being deleted adopts
 * nothing (upstream `RecheckDeletionTimestamp`).
 */
export function claimPods(pods: readonly Pod[], options: ClaimOptions): ClaimResult {
  const { api, owner } = options;
  const uid = owner.metadata.uid!;
  const claimed: Pod[] = [];
  const errors: Error[] = [];
  let canAdopt: Error | null | undefined;
  for (const pod of pods) {
    const ref = podFacts(pod).controllerRef;
    try {
      if (ref) {
        if (ref.uid !== uid) continue;
        if (options.matches(pod)) claimed.push(pod);
        else if (!owner.metadata.deletionTimestamp && release(api, pod, uid)) options.onChange?.(pod, 'released');
        continue;
      }
      if (owner.metadata.deletionTimestamp || !options.matches(pod) || pod.metadata?.deletionTimestamp) continue;
      if (pod.metadata?.namespace !== owner.metadata.namespace) continue;
      if (canAdopt === undefined) canAdopt = recheckOwner(api, owner);
      if (canAdopt) throw canAdopt;
      if (adopt(api, pod, newControllerRef(owner))) {
        claimed.push(pod);
        options.onChange?.(pod, 'adopted');
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

/** Patches the controller reference in; false when the pod is already gone. */
function adopt(api: ApiServer, pod: Pod, ref: OwnerReference): boolean {
  const refs = pod.metadata?.ownerReferences;
  const ops = [
    { op: 'test', path: '/metadata/uid', value: pod.metadata?.uid },
    refs && refs.length > 0
      ? { op: 'add', path: '/metadata/ownerReferences/-', value: ref }
      : { op: 'add', path: '/metadata/ownerReferences', value: [ref] },
  ];
  return patchIgnoringNotFound(api, pod, ops);
}

/** Removes the owner's reference; false when the pod is already gone. */
function release(api: ApiServer, pod: Pod, ownerUid: string): boolean {
  const refs = pod.metadata?.ownerReferences ?? [];
  const i = refs.findIndex((r) => r.uid === ownerUid);
  if (i < 0) return false;
  const ops: unknown[] = [
    { op: 'test', path: '/metadata/uid', value: pod.metadata?.uid },
    { op: 'test', path: `/metadata/ownerReferences/${i}/uid`, value: ownerUid },
  ];
  ops.push(
    refs.length === 1
      ? { op: 'remove', path: '/metadata/ownerReferences' }
      : { op: 'remove', path: `/metadata/ownerReferences/${i}` },
  );
  return patchIgnoringNotFound(api, pod, ops);
}

function patchIgnoringNotFound(api: ApiServer, pod: Pod, ops: unknown[]): boolean {
  try {
    api.patch('pods', pod.metadata?.namespace, pod.metadata?.name ?? '', 'json', ops);
    return true;
  } catch (e) {
    if (isApiError(e, 404)) return false;
    throw e;
  }
}
