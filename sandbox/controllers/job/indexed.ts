/**
 * Indexed completion mode (pkg/controller/job/indexed_job_utils.go): each pod
 * carries its completion index; `status.completedIndexes` lists the
 * succeeded ones as compressed intervals ("1,3-5,7").
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { matchPodFailurePolicy } from './podFailurePolicy';

export const COMPLETION_INDEX_KEY = 'batch.kubernetes.io/job-completion-index';

export function isIndexedJob(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/** The pod's completion index, or -1 when it has none or it is not a plain non-negative integer. */
export function completionIndexOf(pod: Pod): number {
  const v = pod.metadata?.annotations?.[COMPLETION_INDEX_KEY];
  if (v === undefined || !/^(0|[1-9][0-9]*)$/.test(v)) return -1;
  return Number(v);
}

/** Parses `completedIndexes`, ignoring indexes at or above `completions`. */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    if (part === '') continue;
    const [a, b] = part.split('-').map(Number);
    const end = b === undefined ? a : b;
    if (!Number.isInteger(a) || !Number.isInteger(end)) continue;
    for (let i = a; i <= end && i < completions; i++) out.add(i);
  }
  return out;
}

/** Formats indexes in increasing order, runs of three or more as `first-last`. */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    if (j - i >= 2) parts.push(`${sorted[i]}-${sorted[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(sorted[k]));
    i = j + 1;
  }
  return parts.join(',');
}

/**
 * The `count` lowest indexes below `completions` that are not pending elsewhere (`firstPendingIndexes`): not
 * succeeded, not failed, without an active pod — nor a terminating one when only failed pods are replaced.
 */
export function firstPendingIndexes(
  taken: Iterable<ReadonlySet<number> | undefined>,
  pods: Iterable<readonly Pod[]>,
  count: number,
  completions: number,
): number[] {
  const nonPending = new Set<number>();
  for (const set of taken) for (const i of set ?? []) nonPending.add(i);
  for (const list of pods) for (const p of list) nonPending.add(completionIndexOf(p));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!nonPending.has(i)) out.push(i);
  return out;
}

// ---- backoffLimitPerIndex (pkg/controller/job/indexed_job_utils.go) ---------------------------------------------

/** How many counted failures an index has had before this pod (`batch.kubernetes.io/job-index-failure-count`). */
export const INDEX_FAILURE_COUNT_KEY = 'batch.kubernetes.io/job-index-failure-count';
/** How many ignored failures it has had (`batch.kubernetes.io/job-index-ignored-failure-count`). */
export const INDEX_IGNORED_FAILURE_COUNT_KEY = 'batch.kubernetes.io/job-index-ignored-failure-count';

export function hasBackoffLimitPerIndex(job: Job): boolean {
  const limit = job.spec?.backoffLimitPerIndex;
  return limit !== undefined && limit !== null;
}

/** An annotation as a non-negative int32, 0 when absent or not one (`parseInt32`). */
function annotationCount(pod: Pod, key: string): number {
  const v = pod.metadata?.annotations?.[key];
  if (v === undefined || !/^[+-]?[0-9]+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > 2147483647 ? 0 : n;
}

export function indexFailureCount(pod: Pod): number {
  return annotationCount(pod, INDEX_FAILURE_COUNT_KEY);
}

/** Counted and ignored failures together (`getIndexAbsoluteFailureCount`). */
export function indexAbsoluteFailureCount(pod: Pod): number {
  return annotationCount(pod, INDEX_FAILURE_COUNT_KEY) + annotationCount(pod, INDEX_IGNORED_FAILURE_COUNT_KEY);
}

/** The counts a replacement of `replaced` carries (`getNewIndexFailureCounts`): [counted, ignored]. */
export function newIndexFailureCounts(job: Job, replaced: Pod | undefined): [number, number] {
  if (!replaced) return [0, 0];
  let counted = indexFailureCount(replaced);
  let ignored = annotationCount(replaced, INDEX_IGNORED_FAILURE_COUNT_KEY);
  if (matchPodFailurePolicy(job.spec?.podFailurePolicy, replaced).countFailed) counted++;
  else ignored++;
  return [counted, ignored];
}

/**
 * Whether this failed pod fails its index (`isIndexFailed`): a `FailIndex` rule matched, or a counted failure
 * that reached `backoffLimitPerIndex`.
 */
export function isIndexFailed(job: Job, pod: Pod, failed: boolean): boolean {
  if (!failed) return false;
  const m = matchPodFailurePolicy(job.spec?.podFailurePolicy, pod);
  if (m.action === 'FailIndex') return true;
  return m.countFailed && indexFailureCount(pod) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/**
 * Active pods that must go whatever the count (`appendDuplicatedIndexPodsForRemoval`):
 * pods without a valid index, and all but one pod per repeated index.
 */
export function duplicateIndexPods(active: readonly Pod[], completions: number): { remove: Pod[]; keep: Pod[] } {
  const remove: Pod[] = [];
  const keep: Pod[] = [];
  const seen = new Set<number>();
  for (const p of active) {
    const ix = completionIndexOf(p);
    if (ix < 0 || ix >= completions || seen.has(ix)) remove.push(p);
    else {
      seen.add(ix);
      keep.push(p);
    }
  }
  return { remove, keep };
}
