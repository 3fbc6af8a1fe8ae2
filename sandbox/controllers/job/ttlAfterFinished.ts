/**
 * `ttlSecondsAfterFinished` (pkg/controller/ttlafterfinished): a finished
 * Job is deleted that many seconds after its Complete/Failed condition, with
 * Foreground propagation and a uid precondition, as upstream's TTL
 * controller does. Returns how long to wait when it is not due yet.
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import { finishedAt } from './conditions';

/** Deletes the Job if its TTL has run out; otherwise returns the ms left (undefined when no TTL applies). */
export function expireFinishedJob(api: ApiServer, job: Job, now: number): number | undefined {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata?.deletionTimestamp) return undefined;
  const finished = finishedAt(job);
  if (finished === undefined || !Number.isFinite(finished)) return undefined;
  const left = finished + ttl * 1000 - now;
  if (left > 0) return left;
  try {
    api.delete('jobs', job.metadata!.namespace, job.metadata!.name!, {
      propagationPolicy: 'Foreground',
      preconditions: { uid: job.metadata!.uid! },
    });
  } catch (e) {
    if (!isApiError(e, 404) && !isApiError(e, 409)) throw e;
  }
  return undefined;
}
