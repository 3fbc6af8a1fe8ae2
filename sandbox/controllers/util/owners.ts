/** Owner references (controller refs) as the controllers and the garbage collector use them. */
import type { KubeObject, OwnerReference } from '../../api/types';

/** The owner reference with `controller: true`, if any. */
export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
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
