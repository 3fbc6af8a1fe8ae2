/**
 * Finished-Job history (`cleanupFinishedJobs`): keeps the newest
 * `successfulJobsHistoryLimit` Complete and `failedJobsHistoryLimit` Failed
 * Jobs and deletes the older ones (Background propagation).
 */
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { Typed } from '../../api/types';
import { parseTimestamp } from '../../clock/clock';
import type { Recorder } from '../../client/component';

export function finishedType(job: Job): 'Complete' | 'Failed' | undefined {
  const c = (job.status?.conditions ?? []).find(
    (x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True',
  );
  return c?.type as 'Complete' | 'Failed' | undefined;
}

/** Oldest first: by start time (Jobs never started last), then name (`byJobStartTime`). */
function byStartTime(a: Job, b: Job): number {
  const sa = a.status?.startTime;
  const sb = b.status?.startTime;
  if (sa && sb && sa !== sb) return parseTimestamp(sa) - parseTimestamp(sb);
  if (!sa !== !sb) return sa ? -1 : 1;
  return (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}

/** Deletes a CronJob's Job with Background propagation and the upstream events; returns whether it is gone. */
export function deleteJob(api: ApiServer, recorder: Recorder, cj: Typed<CronJob>, job: Job): boolean {
  try {
    api.delete('jobs', job.metadata!.namespace, job.metadata!.name!, { propagationPolicy: 'Background' });
  } catch (e) {
    if (isApiError(e, 404)) return true;
    recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
  recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata!.name}`);
  return true;
}

/** Returns the names of the Jobs it deleted. */
export function cleanupFinishedJobs(
  api: ApiServer,
  recorder: Recorder,
  cj: Typed<CronJob>,
  jobs: readonly Job[],
): string[] {
  const okLimit = cj.spec?.successfulJobsHistoryLimit;
  const failedLimit = cj.spec?.failedJobsHistoryLimit;
  const deleted: string[] = [];
  const trim = (kind: 'Complete' | 'Failed', limit: number | undefined): void => {
    if (limit === undefined || limit === null) return;
    const finished = jobs.filter((j) => finishedType(j) === kind && !j.metadata?.deletionTimestamp).sort(byStartTime);
    for (const j of finished.slice(0, Math.max(0, finished.length - limit)))
      if (deleteJob(api, recorder, cj, j)) deleted.push(j.metadata!.name!);
  };
  trim('Complete', okLimit);
  trim('Failed', failedLimit);
  return deleted;
}
