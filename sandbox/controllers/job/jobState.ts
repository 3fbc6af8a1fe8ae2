/**
 * What one Job sync sees (upstream `syncJobCtx`): the Job's pods and the
 * counts derived from them and from the Job's status.
 */
import type { Job, JobCondition } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import { isPodActive, isPodReady, isPodTerminal } from '../util/pods';
import type { BackoffRecord } from './backoff';
import { completionIndexOf, isIndexedJob, parseIndexes } from './indexed';
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
      if (p.status?.phase === 'Succeeded' && ix >= 0 && ix < completions) succeededIndexes.add(ix);
    }
  }
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
    failed: (status.failed ?? 0) + newFailed.length + uncountedFailed.size,
    prevSucceededIndexes,
    succeededIndexes,
    newBackoff: input.backoff(newSucceeded, newFailed),
    finished: undefined,
  };
}
