/**
 * How a DELETE proceeds (upstream `rest.BeforeDelete`, pod `CheckGracefulDelete`,
 * garbage-collection finalizers): either the object goes now, or it gets a
 * deletionTimestamp and waits for finalizers or the kubelet.
 */
import { asResource } from '../api/resourceObjects';
import type { ResourceType } from '../api/resources';
import type { KubeObject } from '../api/types';
import type { DeleteOptions, PropagationPolicy } from './options';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** Orphan for batch/v1 Job (and ReplicationController) as upstream; Background otherwise. */
export function defaultPropagation(r: ResourceType): PropagationPolicy {
  if ((r.group === 'batch' && r.kind === 'Job') || (r.group === '' && r.kind === 'ReplicationController'))
    return 'Orphan';
  return 'Background';
}

/** Seconds a pod gets to stop: the request's, else its spec's (default 30); 0 when it never ran or already finished. */
export function podGracePeriod(pod: KubeObject, opts: DeleteOptions): number {
  const p = asResource('pods', pod);
  const phase = p.status?.phase;
  if (!p.spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
  const requested = opts.gracePeriodSeconds ?? p.spec.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, Math.floor(requested));
}

/**
 * Finalizers after a DELETE with `policy` (upstream
 * `deletionFinalizersForGarbageCollection`): Orphan adds `orphan`, Foreground
 * adds `foregroundDeletion`, and each policy drops the other's finalizer.
 */
export function finalizersFor(existing: readonly string[], policy: PropagationPolicy): string[] {
  const out = existing.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (policy === 'Orphan') out.push(FINALIZER_ORPHAN);
  if (policy === 'Foreground') out.push(FINALIZER_FOREGROUND);
  return out;
}
