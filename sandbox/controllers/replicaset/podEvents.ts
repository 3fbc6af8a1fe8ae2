/**
 * How pod changes wake ReplicaSets (`addPod`, `updatePod`, `deletePod` in
 * pkg/controller/replicaset/replica_set.go): the owner by controller
 * reference, with expectations observed; for orphans, every ReplicaSet whose
 * selector matches, so it can adopt. A pod that gets a deletionTimestamp
 * counts as deleted at once.
 */
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { InformerHandlers } from '../../client/informer';
import type { KubeObject, OwnerReference } from '../../api/types';
import { jsonEqual } from '../../util/json';
import type { Expectations } from '../framework/expectations';
import { controllerRefOf } from '../util/owners';
import { podKey } from './manage';

export interface PodEventTargets {
  expectations: Expectations;
  /** The ReplicaSet a controller reference points to, if cached with that uid. */
  resolve(namespace: string, ref: OwnerReference): ReplicaSet | undefined;
  /** ReplicaSets that would adopt this orphan. */
  matching(pod: Pod): ReplicaSet[];
  enqueue(rs: ReplicaSet): void;
}

function ctrlRef(pod: Pod): OwnerReference | undefined {
  return controllerRefOf(pod as unknown as KubeObject);
}

function keyOf(rs: ReplicaSet): string {
  return `${rs.metadata?.namespace}/${rs.metadata?.name}`;
}

export function podEventHandlers(t: PodEventTargets): InformerHandlers<KubeObject> {
  const deleted = (pod: Pod): void => {
    const ref = ctrlRef(pod);
    const rs = ref && t.resolve(pod.metadata?.namespace ?? '', ref);
    if (!rs) return;
    t.expectations.deletionObserved(keyOf(rs), podKey(pod));
    t.enqueue(rs);
  };
  const added = (pod: Pod): void => {
    if (pod.metadata?.deletionTimestamp) return deleted(pod);
    const ref = ctrlRef(pod);
    if (ref) {
      const rs = t.resolve(pod.metadata?.namespace ?? '', ref);
      if (!rs) return;
      t.expectations.creationObserved(keyOf(rs));
      t.enqueue(rs);
      return;
    }
    for (const rs of t.matching(pod)) t.enqueue(rs);
  };
  const updated = (oldPod: Pod, pod: Pod): void => {
    if (oldPod.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    const labelChanged = !jsonEqual(oldPod.metadata?.labels ?? {}, pod.metadata?.labels ?? {});
    if (pod.metadata?.deletionTimestamp) {
      deleted(pod);
      if (labelChanged) deleted(oldPod);
      return;
    }
    const cur = ctrlRef(pod);
    const old = ctrlRef(oldPod);
    const refChanged = !jsonEqual(cur ?? null, old ?? null);
    if (refChanged && old) {
      const rs = t.resolve(oldPod.metadata?.namespace ?? '', old);
      if (rs) t.enqueue(rs);
    }
    if (cur) {
      const rs = t.resolve(pod.metadata?.namespace ?? '', cur);
      if (!rs) return;
      // Upstream also enqueues after minReadySeconds when the pod turns Ready; here the
      // sync itself requeues at the exact instant the pod becomes available.
      t.enqueue(rs);
      return;
    }
    if (labelChanged || refChanged) for (const rs of t.matching(pod)) t.enqueue(rs);
  };
  return {
    onAdd: (obj) => added(obj as unknown as Pod),
    onUpdate: (o, n) => updated(o as unknown as Pod, n as unknown as Pod),
    onDelete: (obj) => deleted(obj as unknown as Pod),
  };
}
