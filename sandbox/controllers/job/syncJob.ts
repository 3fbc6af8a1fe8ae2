/**
 * One level-triggered pass over a Job (`syncJob`): count its pods, decide
 * whether it has failed (pod failure policy, back-off limit, deadline, failed
 * indexes) or succeeded (completions, success policy), run or stop pods, and
 * record the outcome in its status.
 */
import type { Job, JobCondition } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import { formatTimestamp, parseTimestamp } from '../../clock/clock';
import type { Expectations } from '../framework/expectations';
import type { BackoffStore } from './backoff';
import {
  MESSAGE_BACKOFF_LIMIT,
  MESSAGE_COMPLETIONS_REACHED,
  MESSAGE_DEADLINE,
  MESSAGE_FAILED_INDEXES,
  MESSAGE_MAX_FAILED_INDEXES,
  REASON_BACKOFF_LIMIT,
  REASON_COMPLETIONS_REACHED,
  REASON_DEADLINE,
  REASON_FAILED_INDEXES,
  REASON_MAX_FAILED_INDEXES,
  REASON_POD_FAILURE_POLICY,
  REASON_SUCCESS_POLICY,
  ensureCondition,
  findCondition,
  newCondition,
} from './conditions';
import { isIndexedJob } from './indexed';
import { failJobMessage } from './podFailurePolicy';
import { matchSuccessPolicy } from './successPolicy';
import type { FinalizerExpectations } from './finalizerExpectations';
import type { JobState } from './jobState';
import { isPodFailed, newJobState } from './jobState';
import { deleteActivePods, manageJob } from './manage';
import type { PodControl } from './podControl';
import { trackStatus } from './tracking';

export interface SyncDeps extends PodControl {
  expectations: Expectations;
  finalizers: FinalizerExpectations;
  backoff: BackoffStore;
  now: number;
  requeueAfter(ms: number): void;
}

/** Syncs an unfinished Job (a private copy) given its controlled pods; throws the first error. */
export function syncJob(deps: SyncDeps, key: string, job: Typed<Job>, pods: Pod[]): void {
  const satisfied = deps.expectations.satisfied(key);
  const s = newJobState({
    key,
    job,
    pods,
    expectedRmFinalizers: deps.finalizers.expected(key),
    backoff: (ok, failed) => deps.backoff.next(key, ok, failed),
  });
  const status = job.status!;
  const suspended = job.spec?.suspend === true;
  const startTimeBefore = status.startTime;
  if (!status.startTime && !suspended) status.startTime = formatTimestamp(deps.now);
  s.finished = finishedCondition(deps, s);
  let manageError: unknown;
  let suspendChanged = false;
  if (s.finished) {
    const { deleted, error } = deleteActivePods(deps, s);
    // Not finished yet while pods may be missing from the cache or were not all deleted.
    if (deleted !== s.active.length || !satisfied) s.finished = undefined;
    manageError = error;
  } else {
    const manageCalled = satisfied && !job.metadata?.deletionTimestamp;
    if (manageCalled) manageError = manageJob(deps, s);
    const completions = job.spec?.completions;
    const complete =
      completions === undefined || completions === null
        ? s.succeeded > 0 && s.activeCount === 0
        : s.succeeded >= completions && s.activeCount === 0;
    if (complete)
      s.finished = newCondition(
        'SuccessCriteriaMet',
        'True',
        REASON_COMPLETIONS_REACHED,
        MESSAGE_COMPLETIONS_REACHED,
        deps.now,
      );
    else if (manageCalled) suspendChanged = updateSuspended(deps, s);
  }
  const needsFlush =
    suspendChanged ||
    s.activeCount !== (status.active ?? 0) ||
    s.ready !== status.ready ||
    s.terminating !== status.terminating ||
    status.startTime !== startTimeBefore;
  s.job.status!.active = s.activeCount;
  s.job.status!.ready = s.ready;
  s.job.status!.terminating = s.terminating;
  trackStatus(deps, s, needsFlush);
  if (manageError !== undefined) throw manageError;
}

/**
 * The condition the Job is heading for, if any, in upstream's order: an earlier `SuccessCriteriaMet` or
 * `FailureTarget`; a `FailJob` rule of the pod failure policy; the back-off limit; the active deadline; for Indexed
 * Jobs with `backoffLimitPerIndex`, too many failed indexes or every index finished with some failed; then the
 * success policy.
 */
function finishedCondition(deps: SyncDeps, s: JobState): JobCondition | undefined {
  const job = s.job;
  const met = findCondition(job, 'SuccessCriteriaMet');
  if (met?.status === 'True') return met;
  const target = findCondition(job, 'FailureTarget');
  if (target?.status === 'True')
    return newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', deps.now);
  const message = failJobMessage(
    job,
    s.pods.filter((p) => isPodFailed(p, job)),
  );
  if (message !== undefined) return newCondition('FailureTarget', 'True', REASON_POD_FAILURE_POLICY, message, deps.now);
  const failure = limitOrDeadline(deps, s);
  if (failure) return failure;
  if (!isIndexedJob(job)) return undefined;
  const completions = job.spec?.completions ?? 0;
  if (s.failedIndexes) {
    const failed = s.failedIndexes.size;
    const max = job.spec?.maxFailedIndexes;
    if (max !== undefined && max !== null && failed > max)
      return newCondition('FailureTarget', 'True', REASON_MAX_FAILED_INDEXES, MESSAGE_MAX_FAILED_INDEXES, deps.now);
    if (failed > 0 && failed + s.succeededIndexes.size >= completions)
      return newCondition('FailureTarget', 'True', REASON_FAILED_INDEXES, MESSAGE_FAILED_INDEXES, deps.now);
  }
  const success = matchSuccessPolicy(job.spec?.successPolicy, completions, s.succeededIndexes);
  if (success !== undefined)
    return newCondition('SuccessCriteriaMet', 'True', REASON_SUCCESS_POLICY, success, deps.now);
  return undefined;
}

/** The back-off limit or the active deadline; schedules a sync for the deadline when it is still ahead. */
function limitOrDeadline(deps: SyncDeps, s: JobState): JobCondition | undefined {
  const job = s.job;
  if (s.failed > (job.spec?.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, s.pods)) {
    return newCondition('FailureTarget', 'True', REASON_BACKOFF_LIMIT, MESSAGE_BACKOFF_LIMIT, deps.now);
  }
  const deadline = job.spec?.activeDeadlineSeconds;
  if (deadline === undefined || deadline === null || job.spec?.suspend === true || !job.status?.startTime)
    return undefined;
  const left = deadline * 1000 - (deps.now - parseTimestamp(job.status.startTime));
  if (left <= 0) return newCondition('FailureTarget', 'True', REASON_DEADLINE, MESSAGE_DEADLINE, deps.now);
  deps.requeueAfter(left);
  return undefined;
}

/** Under `restartPolicy: OnFailure`, container restarts of running pods count against the back-off limit. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const c of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])])
      restarts += c.restartCount ?? 0;
  }
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** The `Suspended` condition and its events; resuming restarts the active-deadline clock. */
function updateSuspended(deps: SyncDeps, s: JobState): boolean {
  const job = s.job;
  if (job.spec?.suspend) {
    if (!ensureCondition(job, 'Suspended', 'True', 'JobSuspended', 'Job suspended', deps.now)) return false;
    deps.recorder.event(job, 'Normal', 'Suspended', 'Job suspended');
    return true;
  }
  if (!ensureCondition(job, 'Suspended', 'False', 'JobResumed', 'Job resumed', deps.now)) return false;
  deps.recorder.event(job, 'Normal', 'Resumed', 'Job resumed');
  job.status!.startTime = formatTimestamp(deps.now);
  return true;
}
