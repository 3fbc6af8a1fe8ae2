/**
 * What one Job sync sees (upstream `syncJobCtx`): the Job's pods and the
 * counts derived from them and from the Job's status.
 */
import type { Job, JobCondition } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import { isPodActive, isPodReady, isPodTerminal } from '../util/pods';
import type { BackoffRecord } from './backoff';
import { podFinishedTime } from './backoff';
import {
  completionIndexOf,
  hasBackoffLimitPerIndex,
  indexAbsoluteFailureCount,
  isIndexFailed,
  isIndexedJob,
  parseIndexes,
} from './indexed';
import { matchPodFailurePolicy } from './podFailurePolicy';
import { hasTrackingFinalizer } from './trackingFinalizer';

export interface JobState {
  key: string;
  /** A private copy; the sync edits its status. */
  job: Typed<Job>;
  pods: Pod[];
  active: Pod[];
  /** Active pods after this sync's creates and deletes. */
  activeCount: number;
  ready: number;
  terminating: number;
  uncountedSucceeded: ReadonlySet<string>;
  uncountedFailed: ReadonlySet<string>;
  expectedRmFinalizers: ReadonlySet<string>;
  newSucceeded: Pod[];
  newFailed: Pod[];
  succeeded: number;
  failed: number;
  prevSucceededIndexes: Set<number>;
  succeededIndexes: Set<number>;
  /** With `backoffLimitPerIndex`: the failed indexes (`status.failedIndexes` and new ones); otherwise undefined. */
  failedIndexes: Set<number> | undefined;
  /**
   * With `backoffLimitPerIndex`: per index waiting for a replacement, the failed pod whose finalizer stays until the
   * replacement exists (it carries the index's failure count and last failure time).
   */
  delayedDeletion: Map<number, Pod>;
  newBackoff: BackoffRecord;
  /** The condition the Job is heading for, if any. */
  finished: JobCondition | undefined;
}

/** Only failed pods are replaced (not terminating ones): `podReplacementPolicy: Failed` or a pod failure policy. */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || job.spec?.podFailurePolicy !== undefined;
}

/** Failed, or (unless only failed pods count) deleted before succeeding. */
export function isPodFailed(pod: Pod, job: Job): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return pod.metadata?.deletionTimestamp !== undefined && pod.status?.phase !== 'Succeeded';
}

/** Being deleted and not yet terminal (`CountTerminatingPods`). */
export function isPodTerminating(pod: Pod): boolean {
  return pod.metadata?.deletionTimestamp !== undefined && !isPodTerminal(pod);
}

interface StateInput {
  key: string;
  job: Typed<Job>;
  pods: Pod[];
  expectedRmFinalizers: ReadonlySet<string>;
  backoff: (newSucceeded: Pod[], newFailed: Pod[]) => BackoffRecord;
}

export function newJobState(input: StateInput): JobState {
  const { job, pods, expectedRmFinalizers } = input;
  const status = (job.status ??= {});
  const uncounted = status.uncountedTerminatedPods ?? {};
  const uncountedSucceeded = new Set(uncounted.succeeded ?? []);
  const uncountedFailed = new Set(uncounted.failed ?? []);
  const active = pods.filter(isPodActive);
  const newSucceeded: Pod[] = [];
  const newFailed: Pod[] = [];
  const indexed = isIndexedJob(job);
  const completions = job.spec?.completions ?? 0;
  for (const p of pods) {
    const uid = p.metadata?.uid ?? '';
    if (!hasTrackingFinalizer(p) || expectedRmFinalizers.has(uid)) continue;
    if (indexed && (completionIndexOf(p) < 0 || completionIndexOf(p) >= completions)) continue;
    if (p.status?.phase === 'Succeeded' && !uncountedSucceeded.has(uid)) newSucceeded.push(p);
    else if (isPodFailed(p, job) && !uncountedFailed.has(uid)) newFailed.push(p);
  }
  const prevSucceededIndexes = indexed ? parseIndexes(status.completedIndexes, completions) : new Set<number>();
  const succeededIndexes = new Set(prevSucceededIndexes);
  if (indexed) {
    for (const p of pods) {
      const ix = completionIndexOf(p);
      if (p.status?.phase === 'Succeeded' && ix >= 0 && ix < completions && hasTrackingFinalizer(p))
        succeededIndexes.add(ix);
    }
  }
  const perIndex = indexed && hasBackoffLimitPerIndex(job);
  const failedIndexes = perIndex ? calculateFailedIndexes(job, pods, completions) : undefined;
  const delayedDeletion = perIndex
    ? podsWithDelayedDeletion(job, pods, active, succeededIndexes, failedIndexes!, expectedRmFinalizers, completions)
    : new Map<number, Pod>();
  const policy = job.spec?.podFailurePolicy;
  const countedNewFailed = policy
    ? newFailed.filter((p) => matchPodFailurePolicy(policy, p).countFailed).length
    : newFailed.length;
  return {
    key: input.key,
    job,
    pods,
    active,
    activeCount: active.length,
    ready: active.filter(isPodReady).length,
    terminating: pods.filter(isPodTerminating).length,
    uncountedSucceeded,
    uncountedFailed,
    expectedRmFinalizers,
    newSucceeded,
    newFailed,
    succeeded: indexed
      ? succeededIndexes.size
      : (status.succeeded ?? 0) + newSucceeded.length + uncountedSucceeded.size,
    failed: (status.failed ?? 0) + countedNewFailed + uncountedFailed.size,
    prevSucceededIndexes,
    succeededIndexes,
    failedIndexes,
    delayedDeletion,
    newBackoff: input.backoff(newSucceeded, newFailed),
    finished: undefined,
  };
}

/** `status.failedIndexes` and the indexes whose tracked pods failed them since (`calculateFailedIndexes`). */
function calculateFailedIndexes(job: Job, pods: readonly Pod[], completions: number): Set<number> {
  const out = job.status?.failedIndexes ? parseIndexes(job.status.failedIndexes, completions) : new Set<number>();
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (ix >= 0 && ix < completions && hasTrackingFinalizer(p) && isIndexFailed(job, p, isPodFailed(p, job)))
      out.add(ix);
  }
  return out;
}

/**
 * `getPodsWithDelayedDeletionPerIndex`: for each index with neither success, failure nor an active pod, the failed pod
 * with the highest failure count (the latest to finish among equals), whose finalizer waits for its replacement.
 */
function podsWithDelayedDeletion(
  job: Job,
  pods: readonly Pod[],
  active: readonly Pod[],
  succeeded: ReadonlySet<number>,
  failed: ReadonlySet<number>,
  expectedRmFinalizers: ReadonlySet<string>,
  completions: number,
): Map<number, Pod> {
  const activeIndexes = new Set(active.map(completionIndexOf));
  const out = new Map<number, Pod>();
  for (const p of pods) {
    if (!hasTrackingFinalizer(p) || expectedRmFinalizers.has(p.metadata?.uid ?? '') || !isPodFailed(p, job)) continue;
    const ix = completionIndexOf(p);
    if (ix < 0 || ix >= completions || succeeded.has(ix) || failed.has(ix) || activeIndexes.has(ix)) continue;
    const last = out.get(ix);
    if (
      !last ||
      (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) && podFinishedTime(p) >= podFinishedTime(last))
    )
      out.set(ix, p);
  }
  return out;
}
