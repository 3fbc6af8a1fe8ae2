/**
 * The garbage collector's writes: deleting an object (with its uid as a
 * precondition), removing owner references from a dependent, and removing
 * a finalizer from an owner. Each tolerates the object having gone.
 */
import type { ApiServer, ResourceRef } from '../../apiserver/apiServer';
import type { PropagationPolicy } from '../../apiserver/options';
import { isApiError } from '../../api/errors';
import type { KubeObject } from '../../api/types';

/** DELETE with a uid precondition; false when it was already gone or replaced. */
export function deleteObject(api: ApiServer, r: ResourceRef, obj: KubeObject, policy: PropagationPolicy): boolean {
  try {
    api.delete(r, obj.metadata.namespace, obj.metadata.name!, {
      propagationPolicy: policy,
      preconditions: { uid: obj.metadata.uid },
    });
    return true;
  } catch (e) {
    if (isApiError(e, 404) || isApiError(e, 409)) return false;
    throw e;
  }
}

/**
 * Removes the references to `ownerUids` from `obj` (a JSON patch guarded by `test`s); false when gone or nothing to
 * remove.
 */
export function removeOwnerReferences(
  api: ApiServer,
  r: ResourceRef,
  obj: KubeObject,
  ownerUids: ReadonlySet<string>,
): boolean {
  const refs = obj.metadata.ownerReferences ?? [];
  const drop = refs.map((ref, i) => (ownerUids.has(ref.uid) ? i : -1)).filter((i) => i >= 0);
  if (drop.length === 0) return false;
  const ops: unknown[] = [{ op: 'test', path: '/metadata/uid', value: obj.metadata.uid }];
  for (const i of drop) ops.push({ op: 'test', path: `/metadata/ownerReferences/${i}/uid`, value: refs[i].uid });
  if (drop.length === refs.length) ops.push({ op: 'remove', path: '/metadata/ownerReferences' });
  else for (const i of [...drop].reverse()) ops.push({ op: 'remove', path: `/metadata/ownerReferences/${i}` });
  try {
    api.patch(r, obj.metadata.namespace, obj.metadata.name!, 'json', ops);
    return true;
  } catch (e) {
    if (isApiError(e, 404)) return false;
    throw e;
  }
}

/** Removes `finalizer` from the live object, retrying on conflict; false when gone or absent. */
export function removeFinalizer(api: ApiServer, r: ResourceRef, obj: KubeObject, finalizer: string): boolean {
  for (let attempt = 0; attempt < 5; attempt++) {
    const live = api.tryGet(r, obj.metadata.namespace, obj.metadata.name!);
    if (!live || live.metadata.uid !== obj.metadata.uid) return false;
    const finalizers = live.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return false;
    const rest = finalizers.filter((f) => f !== finalizer);
    const metadata = { ...live.metadata, finalizers: rest };
    if (rest.length === 0) delete (metadata as { finalizers?: string[] }).finalizers;
    try {
      api.update({ ...live, metadata });
      return true;
    } catch (e) {
      if (isApiError(e, 404)) return false;
      if (!isApiError(e, 409)) throw e;
    }
  }
  throw new Error(`could not remove finalizer ${finalizer} from ${obj.kind} ${obj.metadata.name}: too many conflicts`);
}
