/**
 * Cache look-ups the Deployment controller's handlers and syncs share:
 * which Deployments a ReplicaSet concerns, and a Deployment's pods by their
 * ReplicaSet.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ObjectsByResource } from '../../api/resourceObjects';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { ObjectCache } from '../../client/cache';
import { controllerRefOf } from '../util/owners';
import type { Deployment, ReplicaSet } from './objects';

export interface Caches {
  deployments: ObjectCache<Deployment>;
  replicaSets: ObjectCache<ReplicaSet>;
  pods: ObjectCache<ObjectsByResource['pods']>;
}

/**
 * The Deployment controlling `rs` (`resolveControllerRef`); for an orphan,
 * when `orphanMatches`, every Deployment of its namespace whose non-empty
 * selector matches its labels (`getDeploymentsForReplicaSet`).
 */
export function ownersOfReplicaSet(caches: Caches, rs: ReplicaSet, orphanMatches: boolean): Deployment[] {
  const ns = rs.metadata?.namespace ?? '';
  const ref = controllerRefOf(rs);
  if (ref) {
    if (ref.kind !== 'Deployment') return [];
    // `ns/name` by its parts (a namespaced kind: no key is `/name`).
    const d = ns ? caches.deployments.getByName(ns, ref.name) : undefined;
    return d && d.metadata.uid === ref.uid ? [d] : [];
  }
  if (!orphanMatches) return [];
  const labels = rs.metadata?.labels;
  if (!labels || Object.keys(labels).length === 0) return [];
  return caches.deployments.list(ns).filter((d) => {
    const selector = labelSelectorFromObject(d.spec?.selector);
    return !selector.empty && selector.matches(labels);
  });
}

/** Pods of `namespace` controlled by one of `rsUids`, grouped by that uid. */
export function podsByOwner(caches: Caches, namespace: string, rsUids: ReadonlySet<string>): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const p of caches.pods.list(namespace)) {
    const uid = controllerRefOf(p)?.uid;
    if (uid === undefined || !rsUids.has(uid)) continue;
    let list = out.get(uid);
    if (!list) out.set(uid, (list = []));
    list.push(p);
  }
  return out;
}
