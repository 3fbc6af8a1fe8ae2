/**
 * Binding a pod to a node through the API server's `pods/binding`
 * subresource (one write: `spec.nodeName` and `PodScheduled=True`).
 */
import type { ApiServer } from '../apiserver/apiServer';
import type { ObjectsByResource } from '../api/resourceObjects';
import type { KubeObject } from '../api/types';

/**
 * Binds `pod` (by namespace/name; its uid, when set, is a precondition) to
 * `nodeName`. Returns the pod as stored. Throws an
 * `ApiError`: 404 when the pod is gone, 409 when it is being deleted, already
 * assigned (`pod web-x is already assigned to node "node-1"`), gated, or was
 * replaced by another pod of the same name.
 */
export function bindPod(api: ApiServer, pod: KubeObject, nodeName: string): ObjectsByResource['pods'] {
  return api.bind(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '', nodeName, { uid: pod.metadata.uid });
}
