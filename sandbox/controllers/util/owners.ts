/** Owner references (controller refs) as the controllers and the garbage collector use them. */
import type { KubeObject, OwnerReference } from '../../api/types';

/** The owner reference with `controller: true`, if any (of any object: stored, or a `kubernetes-types` one). */
export function controllerRefOf(obj: {
  metadata?: { ownerReferences?: readonly OwnerReference[] };
}): OwnerReference | undefined {
  // A plain loop: every pod event and controller sync asks, and `find` costs a closure per call.
  const refs = obj.metadata?.ownerReferences;
  if (!refs) return undefined;
  for (let i = 0; i < refs.length; i++) if (refs[i].controller === true) return refs[i];
  return undefined;
}

/** A controller reference pointing at `owner` (what a controller puts on what it creates). */
export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** True when `obj`'s controller is `owner` (same uid). */
export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  return controllerRefOf(obj)?.uid === owner.metadata.uid;
}
