/**
 * The `batch.kubernetes.io/job-tracking` finalizer: the Job controller puts
 * it on every pod it creates and removes it only once the pod's outcome is
 * counted in the Job's status, so a finished pod deleted early (by a user,
 * the pod GC, a node failure) is still counted exactly once.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

export function hasTrackingFinalizer(pod: Pod): boolean {
  return (pod.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/**
 * Removes the finalizer with a JSON patch that first tests it is where the
 * cached pod has it (a stale cache fails the patch instead of dropping
 * another finalizer). A pod that is already gone counts as done.
 */
export function removeTrackingFinalizer(api: ApiServer, pod: Pod): void {
  const finalizers = pod.metadata?.finalizers ?? [];
  const i = finalizers.indexOf(JOB_TRACKING_FINALIZER);
  if (i < 0) return;
  // The last finalizer takes the list with it, as an empty list is omitted upstream.
  const path = finalizers.length === 1 ? '/metadata/finalizers' : `/metadata/finalizers/${i}`;
  const value = finalizers.length === 1 ? [JOB_TRACKING_FINALIZER] : JOB_TRACKING_FINALIZER;
  try {
    api.patch('pods', pod.metadata?.namespace, pod.metadata!.name!, 'json', [
      { op: 'test', path, value },
      { op: 'remove', path },
    ]);
  } catch (e) {
    if (!isApiError(e, 404)) throw e;
  }
}
