/**
 * The `pods/binding` subresource, done with the API server's existing verbs
 * (`pkg/registry/core/pod/storage/storage.go` `assignPod`): refuses a pod
 * that is being deleted, already bound or still gated, then sets
 * `spec.nodeName` and the `PodScheduled=True` condition.
 *
 * Two writes, spec first: `update` cannot change a pod's status, and a pod
 * whose `nodeName` is set but whose condition is not yet True is a state the
 * kubelet already handles (it only looks at `nodeName`). Upstream does both
 * in one storage transaction; moving this into the API server as a real
 * subresource would make it one write.
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../apiserver/apiServer';
import { ApiError, isApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import { formatTimestamp } from '../clock/clock';

/** 409 on `pods/binding`, worded as upstream's `errors.NewConflict(pods/binding, …)`. */
function bindingConflict(name: string, why: string): ApiError {
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

/**
 * Binds `pod` (by namespace/name; its uid, when set, is a precondition) to
 * `nodeName`. Returns the pod as stored after both writes. Throws an
 * `ApiError`: 404 when the pod is gone, 409 when it is being deleted, already
 * assigned (`pod web-x is already assigned to node "node-1"`), gated, or was
 * replaced by another pod of the same name.
 */
export function bindPod(api: ApiServer, pod: KubeObject, nodeName: string): KubeObject {
  const ns = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name ?? '';
  const current = api.get('pods', ns, name) as unknown as Pod;
  const meta = current.metadata!;
  if (pod.metadata.uid && pod.metadata.uid !== meta.uid) {
    throw bindingConflict(name, `Precondition failed: UID in precondition: ${pod.metadata.uid}, UID in object meta: ${meta.uid}`);
  }
  if (meta.deletionTimestamp) throw bindingConflict(name, `pod ${name} is being deleted, cannot be assigned to a host`);
  if (current.spec?.nodeName) throw bindingConflict(name, `pod ${name} is already assigned to node "${current.spec.nodeName}"`);
  if ((current.spec?.schedulingGates ?? []).length > 0) throw bindingConflict(name, `pod ${name} has non-empty .spec.schedulingGates`);
  let bound: KubeObject;
  try {
    bound = api.update({ ...(current as unknown as KubeObject), spec: { ...current.spec, nodeName } });
  } catch (e) {
    // Someone changed the pod between our read and write: report it as the binding registry would.
    if (isApiError(e, 409)) throw bindingConflict(name, 'the object has been modified; please apply your changes to the latest version and try again');
    throw e;
  }
  return api.updateStatus({ ...bound, status: withScheduledCondition(bound, api.clock.now()) });
}

/** The pod's status with `PodScheduled=True` (`podutil.UpdatePodCondition`: the transition time moves only when the status changes). */
function withScheduledCondition(pod: KubeObject, now: number): Pod['status'] {
  const status = { ...((pod as unknown as Pod).status ?? {}) };
  const conditions = [...(status.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i] : undefined;
  const cond = {
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: old?.status === 'True' && old.lastTransitionTime ? old.lastTransitionTime : formatTimestamp(now),
  } as unknown as PodCondition;
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  status.conditions = conditions;
  return status;
}
