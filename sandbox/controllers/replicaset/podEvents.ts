/**
 * How pod changes wake ReplicaSets (`addPod`, `updatePod`, `deletePod` in
 * pkg/controller/replicaset/replica_set.go): the owner by controller
 * reference, with expectations observed; for orphans, every ReplicaSet whose
 * selector matches, so it can adopt. A pod that gets a deletionTimestamp
 * counts as deleted at once.
 */
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { OwnerReference, Typed } from '../../api/types';
import { objectKey } from '../../client/cache';
import { jsonEqual } from '../../util/json';
import type { Expectations } from '../framework/expectations';
import type { Enqueue, EventHandler } from '../framework/handlers';
import { controllerRefOf } from '../util/owners';
import { podKey } from './manage';

export interface PodEventTargets {
  expectations: Expectations;
  /** The ReplicaSet a controller reference points to, if cached with that uid. */
  resolve(namespace: string, ref: OwnerReference): Typed<ReplicaSet> | undefined;
  /** ReplicaSets that would adopt this orphan. */
  matching(pod: Pod): Typed<ReplicaSet>[];
}

export function podEventHandlers(t: PodEventTargets): EventHandler<Typed<Pod>> {
  const deleted = (pod: Typed<Pod>, enqueue: Enqueue): void => {
    const ref = controllerRefOf(pod);
    const rs = ref && t.resolve(pod.metadata.namespace ?? '', ref);
    if (!rs) return;
    const key = objectKey(rs);
    t.expectations.deletionObserved(key, podKey(pod));
    enqueue(key);
  };
  const added = (pod: Typed<Pod>, enqueue: Enqueue): void => {
    if (pod.metadata.deletionTimestamp) return deleted(pod, enqueue);
    const ref = controllerRefOf(pod);
    if (ref) {
      const rs = t.resolve(pod.metadata.namespace ?? '', ref);
      if (!rs) return;
      const key = objectKey(rs);
      t.expectations.creationObserved(key);
      enqueue(key);
      return;
    }
    for (const rs of t.matching(pod)) enqueue(objectKey(rs));
  };
  const updated = (oldPod: Typed<Pod>, pod: Typed<Pod>, enqueue: Enqueue): void => {
    if (oldPod.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelChanged = !jsonEqual(oldPod.metadata.labels ?? {}, pod.metadata.labels ?? {});
    if (pod.metadata.deletionTimestamp) {
      deleted(pod, enqueue);
      if (labelChanged) deleted(oldPod, enqueue);
      return;
    }
    const cur = controllerRefOf(pod);
    const old = controllerRefOf(oldPod);
    const refChanged = !jsonEqual(cur ?? null, old ?? null);
    if (refChanged && old) {
      const rs = t.resolve(oldPod.metadata.namespace ?? '', old);
      if (rs) enqueue(objectKey(rs));
    }
    if (cur) {
      const rs = t.resolve(pod.metadata.namespace ?? '', cur);
      if (!rs) return;
      // Upstream also enqueues after minReadySeconds when the pod turns Ready; here the
      // sync itself requeues at the exact instant the pod becomes available.
      enqueue(objectKey(rs));
      return;
    }
    if (labelChanged || refChanged) for (const rs of t.matching(pod)) enqueue(objectKey(rs));
  };
  return { onAdd: added, onUpdate: updated, onDelete: deleted };
}
