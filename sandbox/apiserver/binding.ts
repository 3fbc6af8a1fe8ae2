/**
 * The `pods/binding` subresource (`pkg/registry/core/pod/storage/storage.go`
 * `assignPod`): in one write, sets `spec.nodeName` and the `PodScheduled=True`
 * condition — refusing a pod that is being deleted, already bound, still
 * gated, or not the one the binding names (uid precondition).
 */
import { copyObject } from '../util/sizedCopy';
import { ApiError } from '../api/errors';
import { asResource } from '../api/resourceObjects';
import type { KubeObject, WirePodCondition } from '../api/types';
import { formatTimestamp } from '../clock/clock';

/** 409 on `pods/binding`, worded as upstream's `errors.NewConflict(pods/binding, …)`. */
export function bindingConflict(name: string, why: string): ApiError {
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'Conflict',
    code: 409,
    message: `Operation cannot be fulfilled on pods/binding "${name}": ${why}`,
    details: { name, group: '', kind: 'pods/binding' },
  });
}

/** Throws the upstream 409 when `current` cannot be bound. */
export function checkBindable(current: KubeObject, uid: string | undefined): void {
  const name = current.metadata.name!;
  const pod = asResource('pods', current);
  if (uid && uid !== current.metadata.uid)
    throw bindingConflict(
      name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid}`,
    );
  if (current.metadata.deletionTimestamp)
    throw bindingConflict(name, `pod ${name} is being deleted, cannot be assigned to a host`);
  if (pod.spec?.nodeName) throw bindingConflict(name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
  if ((pod.spec?.schedulingGates ?? []).length > 0)
    throw bindingConflict(name, `pod ${name} has non-empty .spec.schedulingGates`);
}

/** The bound pod: a new object with `nodeName` and `PodScheduled=True` (transition time moves only on change). */
export function boundPod(current: KubeObject, nodeName: string, now: number): KubeObject {
  const pod = asResource('pods', current);
  const status = copyObject(pod.status ?? {}) as Record<string, unknown> & { conditions?: WirePodCondition[] };
  const conditions: WirePodCondition[] = [...(status.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i] : undefined;
  const cond: WirePodCondition = {
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime:
      old?.status === 'True' && old.lastTransitionTime ? old.lastTransitionTime : formatTimestamp(now),
  };
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  // Copies that keep their members in the object (a spread of a frozen object keeps all but four apart: issue 16);
  // each member written over keeps its place, as in the spread `{ ...current, metadata: …, spec: …, status: … }`.
  const bound = copyObject(current);
  bound.metadata = copyObject(current.metadata);
  const spec = copyObject(pod.spec ?? {}) as Record<string, unknown>;
  spec.nodeName = nodeName;
  bound.spec = spec;
  status.conditions = conditions;
  bound.status = status;
  return bound;
}
