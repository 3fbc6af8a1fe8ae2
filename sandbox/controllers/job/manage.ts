/**
 * `manageJob`: runs `min(parallelism, completions − succeeded)` pods —
 * deleting extras (or all of them while suspended), else creating the
 * missing ones in slow-start batches once the failure back-off has passed.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { Expectations } from '../framework/expectations';
import { isNamespaceTerminatingError } from '../util/namespaceTerminating';
import { isPodReady } from '../util/pods';
import { podFinishedTime, remainingBackoff } from './backoff';
import {
  firstPendingIndexes,
  hasBackoffLimitPerIndex,
  indexAbsoluteFailureCount,
  isIndexedJob,
  newIndexFailureCounts,
} from './indexed';
import type { JobState } from './jobState';
import { isPodTerminating, onlyReplaceFailedPods } from './jobState';
import type { PodControl } from './podControl';
import { createJobPod, deleteJobPod } from './podControl';
import { podForJob } from './podTemplate';
import { activePodsForRemoval } from './removal';
import { removeTrackingFinalizer } from './trackingFinalizer';

/** Upstream `MaxPodCreateDeletePerSync`. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
/** Upstream `syncJobBatchPeriod`: the shortest delay of a delayed sync. */
export const SYNC_BATCH_PERIOD_MS = 1000;

export interface ManageDeps extends PodControl {
  expectations: Expectations;
  now: number;
  requeueAfter(ms: number): void;
}

const podKey = (p: Pod): string => `${p.metadata?.namespace}/${p.metadata?.name}`;

/** Adjusts `s.activeCount`, `s.ready` and `s.terminating`; returns the first error. */
export function manageJob(deps: ManageDeps, s: JobState): unknown {
  const job = s.job;
  const active = s.active.length;
  if (job.spec?.suspend) return deleteJobPods(deps, s, activePodsForRemoval(job, s.active, active));
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  let want: number;
  if (completions === undefined || completions === null) want = s.succeeded > 0 ? active : parallelism;
  else want = Math.max(0, Math.min(completions - s.succeeded, parallelism));
  const toDelete = activePodsForRemoval(job, s.active, Math.max(0, active - want)).slice(
    0,
    MAX_POD_CREATE_DELETE_PER_SYNC,
  );
  // Upstream does either deletions or creations in one sync, deletions first.
  if (toDelete.length > 0) return deleteJobPods(deps, s, toDelete);
  let diff = want - (onlyReplaceFailedPods(job) ? s.terminating : 0) - active;
  if (diff <= 0) return undefined;
  const perIndex = hasBackoffLimitPerIndex(job);
  // With backoffLimitPerIndex each index waits out its own back-off (below), not the Job's.
  const wait = perIndex ? 0 : remainingBackoff(s.newBackoff, deps.now);
  if (wait > 0) {
    deps.requeueAfter(Math.max(wait, SYNC_BATCH_PERIOD_MS));
    // upstream: manageJob returns 0 active pods while the back-off delays a replacement.
    s.activeCount = 0;
    return undefined;
  }
  diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
  let indexes: number[] | undefined;
  if (isIndexedJob(job)) {
    const terminating = onlyReplaceFailedPods(job) ? s.pods.filter(isPodTerminating) : [];
    indexes = firstPendingIndexes(
      [s.succeededIndexes, s.failedIndexes],
      [s.active, terminating],
      diff,
      completions ?? 0,
    );
    if (perIndex) {
      const ready = readyIndexes(indexes, s.delayedDeletion, deps.now);
      if (ready.indexes.length === 0 && ready.wait > 0) {
        deps.requeueAfter(Math.max(ready.wait, SYNC_BATCH_PERIOD_MS));
        s.activeCount = 0;
        return undefined;
      }
      indexes = ready.indexes;
    }
    diff = indexes.length;
  }
  return createPods(deps, s, diff, indexes);
}

/**
 * `getPodCreationInfoForIndependentIndexes`: the indexes whose own back-off has passed — counted from the failure
 * count and finish time of the failed pod each replaces — or, when none has, the shortest wait.
 */
function readyIndexes(
  indexes: readonly number[],
  delayed: ReadonlyMap<number, Pod>,
  now: number,
): { indexes: number[]; wait: number } {
  const ready: number[] = [];
  let wait: number | undefined;
  for (const ix of indexes) {
    const last = delayed.get(ix);
    const left = last
      ? remainingBackoff(
          { failuresAfterLastSuccess: indexAbsoluteFailureCount(last) + 1, lastFailureTime: podFinishedTime(last) },
          now,
        )
      : 0;
    if (left === 0) ready.push(ix);
    else if (wait === undefined || left < wait) wait = left;
  }
  return ready.length > 0 ? { indexes: ready, wait: 0 } : { indexes: ready, wait: wait ?? 0 };
}

/** Slow-start creation: batches of 1, 2, 4, …; the first failing batch stops the rest. */
function createPods(deps: ManageDeps, s: JobState, count: number, indexes: number[] | undefined): unknown {
  deps.expectations.expectCreations(s.key, count);
  s.activeCount += count;
  let remaining = count;
  let next = 0;
  let firstError: unknown;
  for (let batch = Math.min(remaining, 1); remaining > 0; batch = Math.min(2 * batch, remaining)) {
    let failed = false;
    for (let i = 0; i < batch; i++) {
      const index = indexes?.[next++];
      try {
        const counts =
          index !== undefined && hasBackoffLimitPerIndex(s.job)
            ? newIndexFailureCounts(s.job, s.delayedDeletion.get(index))
            : undefined;
        createJobPod(deps, s.job, podForJob(s.job, index, counts));
      } catch (e) {
        deps.expectations.lowerCreations(s.key);
        s.activeCount--;
        if (isNamespaceTerminatingError(e)) continue;
        failed = true;
        firstError ??= e;
      }
    }
    remaining -= batch;
    if (failed && remaining > 0) {
      deps.expectations.lowerCreations(s.key, remaining);
      s.activeCount -= remaining;
      break;
    }
  }
  return firstError;
}

/** `deleteJobPods`: removes each pod's tracking finalizer (it is not a failure), then deletes it. */
function deleteJobPods(deps: ManageDeps, s: JobState, pods: Pod[]): unknown {
  if (pods.length === 0) return undefined;
  deps.expectations.expectDeletions(s.key, pods.map(podKey));
  let firstError: unknown;
  for (const pod of pods) {
    try {
      removeTrackingFinalizer(deps.api, pod);
      deleteJobPod(deps, s.job, pod);
    } catch (e) {
      deps.expectations.deletionObserved(s.key, podKey(pod));
      if (!isApiError(e, 404)) {
        firstError ??= e;
        continue;
      }
    }
    s.activeCount--;
    s.terminating++;
    if (isPodReady(pod)) s.ready--;
  }
  return firstError;
}

/** `deleteActivePods` for a Job that is finishing: deletes every active pod, keeping finalizers so each is counted. */
export function deleteActivePods(deps: PodControl, s: JobState): { deleted: number; error: unknown } {
  let deleted = 0;
  let error: unknown;
  for (const pod of s.active) {
    try {
      deleteJobPod(deps, s.job, pod);
    } catch (e) {
      if (!isApiError(e, 404)) {
        error ??= e;
        continue;
      }
    }
    deleted++;
    if (isPodReady(pod)) s.ready--;
  }
  s.activeCount -= deleted;
  s.terminating += deleted;
  return { deleted, error };
}
