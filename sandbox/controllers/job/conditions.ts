/**
 * Job conditions (pkg/controller/job/job_controller.go, `util.IsJobFinished`):
 * the interim `SuccessCriteriaMet` / `FailureTarget` and the terminal
 * `Complete` / `Failed`, with upstream reasons and messages.
 */
import type { Job, JobCondition } from 'kubernetes-types/batch/v1';
import { formatTimestamp } from '../../clock/clock';

export const REASON_BACKOFF_LIMIT = 'BackoffLimitExceeded';
export const MESSAGE_BACKOFF_LIMIT = 'Job has reached the specified backoff limit';
export const REASON_DEADLINE = 'DeadlineExceeded';
export const MESSAGE_DEADLINE = 'Job was active longer than specified deadline';
export const REASON_POD_FAILURE_POLICY = 'PodFailurePolicy';
export const REASON_MAX_FAILED_INDEXES = 'MaxFailedIndexesExceeded';
export const MESSAGE_MAX_FAILED_INDEXES = 'Job has exceeded the specified maximal number of failed indexes';
export const REASON_FAILED_INDEXES = 'FailedIndexes';
export const MESSAGE_FAILED_INDEXES = 'Job has failed indexes';
export const REASON_SUCCESS_POLICY = 'SuccessPolicy';
export const REASON_COMPLETIONS_REACHED = 'CompletionsReached';
export const MESSAGE_COMPLETIONS_REACHED = 'Reached expected number of succeeded pods';

export function findCondition(job: Job, type: string): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type);
}

/** A Job is finished once it has `Complete` or `Failed` with status True. */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** A condition as upstream `newCondition` builds it (empty reason/message omitted, as Go's omitempty does). */
export function newCondition(
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): JobCondition {
  const time = formatTimestamp(now);
  const c: JobCondition = { type, status, lastProbeTime: time, lastTransitionTime: time };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/**
 * `ensureJobConditionStatus`: sets the condition of `type` to the given
 * status, reason and message (a new timestamp only when one of them changes);
 * a False condition that does not exist yet is not added. Returns whether the
 * list changed.
 */
export function ensureCondition(
  job: Job,
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): boolean {
  const status_ = (job.status ??= {});
  const list = (status_.conditions ??= []);
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i];
    if (c.status === status && (c.reason ?? '') === reason && (c.message ?? '') === message) return false;
    list[i] = newCondition(type, status, reason, message, now);
    return true;
  }
  if (status === 'False') {
    if (list.length === 0) delete status_.conditions;
    return false;
  }
  list.push(newCondition(type, status, reason, message, now));
  return true;
}
