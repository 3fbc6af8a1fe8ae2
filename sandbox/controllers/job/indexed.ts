/**
 * Indexed completion mode (pkg/controller/job/indexed_job_utils.go): each pod
 * carries its completion index; `status.completedIndexes` lists the
 * succeeded ones as compressed intervals ("1,3-5,7").
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';

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

/** The `count` lowest indexes below `completions` that neither succeeded nor have an active pod. */
export function firstPendingIndexes(
  succeeded: ReadonlySet<number>,
  active: readonly Pod[],
  count: number,
  completions: number,
): number[] {
  const taken = new Set(succeeded);
  for (const p of active) taken.add(completionIndexOf(p));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i)) out.push(i);
  return out;
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
