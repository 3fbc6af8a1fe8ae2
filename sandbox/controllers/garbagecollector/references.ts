/**
 * How the garbage collector judges an object's owner references against the
 * live API (`classifyReferences` and `isDangling` in
 * pkg/controller/garbagecollector/garbagecollector.go): an owner that is
 * missing, or present with another uid, is dangling; one being deleted in
 * the foreground is waiting for its dependents; anything else is solid.
 */
import type { ApiServer } from '../../apiserver/apiServer';
import { FINALIZER_FOREGROUND } from '../../apiserver/apiServer';
import { resourceFor } from '../../api/resources';
import type { KubeObject, OwnerReference } from '../../api/types';

export interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waitingForDependentsDeletion: OwnerReference[];
  /** References the collector cannot resolve (unknown kind, namespaced owner of a cluster-scoped object). */
  unresolvable: { ref: OwnerReference; why: string }[];
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}

/** Being deleted with `foregroundDeletion`: its dependents go first. */
export function isDeletingDependents(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && hasFinalizer(obj, FINALIZER_FOREGROUND);
}

/** The live owner a reference points to, if it exists with that uid. Throws a description when unresolvable. */
export function liveOwner(api: ApiServer, dependent: KubeObject, ref: OwnerReference): KubeObject | undefined {
  const r = resourceFor(ref.apiVersion, ref.kind);
  if (!r) throw new UnresolvableReference(`the server does not serve ${ref.kind} in ${ref.apiVersion}`);
  const ns = dependent.metadata.namespace ?? '';
  if (r.namespaced && ns === '')
    throw new UnresolvableReference(
      `cluster-scoped ${dependent.kind} ${dependent.metadata.name} refers to a namespaced owner ${ref.kind} ${ref.name}`,
    );
  const owner = api.tryGet(r, r.namespaced ? ns : undefined, ref.name);
  return owner && owner.metadata.uid === ref.uid ? owner : undefined;
}

export class UnresolvableReference extends Error {}

export function classifyReferences(api: ApiServer, dependent: KubeObject): Classified {
  const out: Classified = { solid: [], dangling: [], waitingForDependentsDeletion: [], unresolvable: [] };
  for (const ref of dependent.metadata.ownerReferences ?? []) {
    let owner: KubeObject | undefined;
    try {
      owner = liveOwner(api, dependent, ref);
    } catch (e) {
      if (!(e instanceof UnresolvableReference)) throw e;
      out.unresolvable.push({ ref, why: e.message });
      continue;
    }
    if (!owner) out.dangling.push(ref);
    else if (isDeletingDependents(owner)) out.waitingForDependentsDeletion.push(ref);
    else out.solid.push(ref);
  }
  return out;
}
