/**
 * ControllerRefManager semantics for a Deployment's ReplicaSets
 * (pkg/controller/controller_ref_manager.go `ClaimReplicaSets`): keep the
 * owned ones that match the selector, release owned ones that no longer
 * match, adopt orphans that match — after a live read confirms the
 * Deployment is still there and not being deleted. RSs with another
 * controller are left alone.
 */
import type { Deployment, ReplicaSet } from './objects';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import { controllerRefOf, newControllerRef } from '../util/owners';

/**
 * A claim's answer: the ReplicaSets `d` controls after claiming, and whether it tried to write (adopt or release). A
 * claim that did not is a function of `candidates`, the selector, the uid and whether `d` is being deleted alone,
 * which a caller may reuse while they stay.
 */
export interface Claim {
  claimed: ReplicaSet[];
  wrote: boolean;
}

/** Claims the ReplicaSets of `candidates` (the RSs of the Deployment's namespace) for `d`. */
export function claimReplicaSets(api: ApiServer, d: Deployment, candidates: readonly ReplicaSet[]): Claim {
  const selector = labelSelectorFromObject(d.spec?.selector);
  const uid = d.metadata!.uid!;
  const deleting = d.metadata?.deletionTimestamp !== undefined;
  const claimed: ReplicaSet[] = [];
  const errors: unknown[] = [];
  let adoptable: boolean | undefined;
  let wrote = false;
  for (const rs of candidates) {
    const ref = controllerRefOf(rs);
    const matches = selector.matches(rs.metadata?.labels);
    try {
      if (ref) {
        if (ref.uid !== uid) continue;
        if (matches) claimed.push(rs);
        else if (!deleting) {
          wrote = true;
          release(api, rs, uid);
        }
        continue;
      }
      if (deleting || !matches || rs.metadata?.deletionTimestamp) continue;
      wrote = true;
      adoptable ??= canAdopt(api, d);
      const adopted = adopt(api, d, rs);
      if (adopted) claimed.push(adopted);
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length > 0) throw errors[0];
  return { claimed, wrote };
}

/** Upstream `RecheckDeletionTimestamp`: a fresh read, same uid, not being deleted. */
function canAdopt(api: ApiServer, d: Deployment): true {
  const fresh = api.tryGet('deployments', d.metadata!.namespace, d.metadata!.name!);
  if (!fresh || fresh.metadata.uid !== d.metadata!.uid) {
    throw new Error(
      `original Deployment ${d.metadata!.namespace}/${d.metadata!.name} is gone: got uid ${fresh?.metadata.uid ?? ''}, wanted ${d.metadata!.uid}`,
    );
  }
  if (fresh.metadata.deletionTimestamp)
    throw new Error(
      `${d.metadata!.namespace}/${d.metadata!.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`,
    );
  return true;
}

function adopt(api: ApiServer, d: Deployment, rs: ReplicaSet): ReplicaSet | undefined {
  const refs = [...(rs.metadata?.ownerReferences ?? []), newControllerRef(d)];
  try {
    return api.patch('replicasets', rs.metadata!.namespace, rs.metadata!.name!, 'merge', {
      metadata: { ownerReferences: refs, uid: rs.metadata!.uid, resourceVersion: rs.metadata!.resourceVersion },
    });
  } catch (e) {
    if (isApiError(e, 404)) return undefined;
    throw e;
  }
}

function release(api: ApiServer, rs: ReplicaSet, ownerUid: string): void {
  const refs = (rs.metadata?.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
  try {
    api.patch('replicasets', rs.metadata!.namespace, rs.metadata!.name!, 'merge', {
      metadata: {
        ownerReferences: refs.length > 0 ? refs : null,
        uid: rs.metadata!.uid,
        resourceVersion: rs.metadata!.resourceVersion,
      },
    });
  } catch (e) {
    // Gone already, or replaced by another object of that name: nothing left to release.
    if (isApiError(e, 404) || (isApiError(e, 409) && e.message.includes('Precondition failed: UID'))) return;
    throw e;
  }
}
