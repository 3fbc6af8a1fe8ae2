/**
 * `trackJobStatusAndRemoveFinalizers`: finished pods are first written to
 * `status.uncountedTerminatedPods`, then lose their tracking finalizer, then
 * move into the `succeeded` / `failed` counters — so each pod is counted
 * once even if the controller stops half-way. The terminal condition is set
 * only when nothing is left uncounted and no pod is still terminating.
 */
import type { Job, JobStatus } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import { cloneJson } from '../../util/json';
import type { BackoffStore } from './backoff';
import { ensureCondition, findCondition, newCondition } from './conditions';
import type { FinalizerExpectations } from './finalizerExpectations';
import { completionIndexOf, formatIndexes, isIndexedJob } from './indexed';
import type { JobState } from './jobState';
import { isPodFailed } from './jobState';
import { matchPodFailurePolicy } from './podFailurePolicy';
import type { PodControl } from './podControl';
import { hasTrackingFinalizer, removeTrackingFinalizer } from './trackingFinalizer';

/** Upstream `MaxUncountedPods`: keeps `uncountedTerminatedPods` small. */
export const MAX_UNCOUNTED_PODS = 500;

export interface TrackDeps extends PodControl {
  backoff: BackoffStore;
  finalizers: FinalizerExpectations;
  now: number;
}

const uidOf = (p: Pod): string => p.metadata?.uid ?? '';

/** Writes the status (as often as the protocol needs) and removes finalizers; throws the first error. */
export function trackStatus(deps: TrackDeps, s: JobState, needsFlush: boolean): void {
  const status = (s.job.status ??= {});
  status.uncountedTerminatedPods ??= {};
  const withFinalizer = new Set(
    s.pods.filter((p) => hasTrackingFinalizer(p) && !s.expectedRmFinalizers.has(uidOf(p))).map(uidOf),
  );
  if (countRemoved(status, withFinalizer)) needsFlush = true;
  const collected = collectFinished(s);
  if (collected.changed) needsFlush = true;
  if (isIndexedJob(s.job)) {
    for (const ix of collected.newSucceededIndexes) s.succeededIndexes.add(ix);
    const text = formatIndexes(s.succeededIndexes);
    if (text !== (status.completedIndexes ?? '')) needsFlush = true;
    status.succeeded = s.succeededIndexes.size;
    status.completedIndexes = text;
    const failedText = s.failedIndexes ? formatIndexes(s.failedIndexes) : undefined;
    if (failedText !== status.failedIndexes) {
      if (failedText === undefined) delete status.failedIndexes;
      else status.failedIndexes = failedText;
      needsFlush = true;
    }
  }
  if (s.finished?.type === 'FailureTarget') {
    (status.conditions ??= []).push(s.finished);
    needsFlush = true;
    s.finished = newCondition('Failed', 'True', s.finished.reason ?? '', s.finished.message ?? '', deps.now);
  }
  if (s.finished?.type === 'SuccessCriteriaMet') {
    if (!findCondition(s.job, 'SuccessCriteriaMet')) {
      (status.conditions ??= []).push(s.finished);
      needsFlush = true;
    }
    s.finished = newCondition('Complete', 'True', s.finished.reason ?? '', s.finished.message ?? '', deps.now);
  }
  const { flushed, error } = flushAndRemoveFinalizers(deps, s, collected.pods, withFinalizer, needsFlush);
  needsFlush = flushed;
  const finished = !collected.capped && enactFinished(deps, s);
  if (finished || needsFlush) s.job = writeStatus(deps, s.job);
  if (finished) recordFinished(deps, s);
  if (error !== undefined) throw error;
}

/** Finished pods whose finalizer may go now, with the uncounted lists extended (upstream's main loop). */
function collectFinished(s: JobState): {
  pods: Pod[];
  newSucceededIndexes: number[];
  changed: boolean;
  capped: boolean;
} {
  const uncounted = s.job.status!.uncountedTerminatedPods!;
  const indexed = isIndexedJob(s.job);
  const completions = s.job.spec?.completions ?? 0;
  const pods: Pod[] = [];
  const newSucceededIndexes: number[] = [];
  let changed = false;
  for (const pod of s.pods) {
    const uid = uidOf(pod);
    if (!hasTrackingFinalizer(pod) || s.expectedRmFinalizers.has(uid)) continue;
    const failed = isPodFailed(pod, s.job);
    if (!canRemoveFinalizer(s, pod, failed)) continue;
    pods.push(pod);
    const ix = completionIndexOf(pod);
    const validIndex = ix >= 0 && ix < completions;
    if (pod.status?.phase === 'Succeeded' && !s.uncountedFailed.has(uid)) {
      if (indexed) {
        if (validIndex && !s.prevSucceededIndexes.has(ix)) {
          newSucceededIndexes.push(ix);
          changed = true;
        }
      } else if (!s.uncountedSucceeded.has(uid)) {
        (uncounted.succeeded ??= []).push(uid);
        changed = true;
      }
    } else if (failed || (s.finished && s.finished.type !== 'SuccessCriteriaMet')) {
      // A Job that is failing counts each pod it still tracks as failed; an `Ignore` rule's pods are not counted.
      if (!s.uncountedFailed.has(uid) && (!indexed || validIndex)) {
        if (matchPodFailurePolicy(s.job.spec?.podFailurePolicy, pod).countFailed) {
          (uncounted.failed ??= []).push(uid);
          changed = true;
        }
      }
    }
    if (
      newSucceededIndexes.length + (uncounted.succeeded?.length ?? 0) + (uncounted.failed?.length ?? 0) >=
      MAX_UNCOUNTED_PODS
    ) {
      return { pods, newSucceededIndexes, changed, capped: true };
    }
  }
  return { pods, newSucceededIndexes, changed, capped: false };
}

/**
 * `canRemoveFinalizer`: a pod is done with once the Job is being deleted or finishing, or the pod succeeded, or it
 * failed — unless, with `backoffLimitPerIndex`, it is the failed pod its index's replacement still needs.
 */
function canRemoveFinalizer(s: JobState, pod: Pod, failed: boolean): boolean {
  if (s.job.metadata?.deletionTimestamp || s.finished || pod.status?.phase === 'Succeeded') return true;
  if (!failed) return false;
  const ix = completionIndexOf(pod);
  return !(ix >= 0 && s.delayedDeletion.get(ix)?.metadata?.uid === uidOf(pod));
}

/** Moves uncounted pods that no longer carry the finalizer into the counters. */
function countRemoved(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  const u = status.uncountedTerminatedPods!;
  let changed = false;
  const keepS = (u.succeeded ?? []).filter((id) => withFinalizer.has(id));
  if (keepS.length !== (u.succeeded ?? []).length) {
    status.succeeded = (status.succeeded ?? 0) + (u.succeeded!.length - keepS.length);
    changed = true;
  }
  const keepF = (u.failed ?? []).filter((id) => withFinalizer.has(id));
  if (keepF.length !== (u.failed ?? []).length) {
    status.failed = (status.failed ?? 0) + (u.failed!.length - keepF.length);
    changed = true;
  }
  if (keepS.length > 0) u.succeeded = keepS;
  else delete u.succeeded;
  if (keepF.length > 0) u.failed = keepF;
  else delete u.failed;
  return changed;
}

function flushAndRemoveFinalizers(
  deps: TrackDeps,
  s: JobState,
  pods: Pod[],
  withFinalizer: Set<string>,
  needsFlush: boolean,
): { flushed: boolean; error: unknown } {
  if (needsFlush) {
    s.job = writeStatus(deps, s.job);
    deps.backoff.set(s.key, s.newBackoff);
    needsFlush = false;
  }
  let error: unknown;
  if (pods.length > 0) {
    deps.finalizers.expectRemoved(s.key, pods.map(uidOf));
    for (const pod of pods) {
      try {
        removeTrackingFinalizer(deps.api, pod);
        withFinalizer.delete(uidOf(pod));
      } catch (e) {
        deps.finalizers.removalObserved(s.key, uidOf(pod));
        error ??= e;
      }
    }
  }
  if (countRemoved(s.job.status!, withFinalizer)) needsFlush = true;
  if (error !== undefined && needsFlush) {
    s.job = writeStatus(deps, s.job);
    needsFlush = false;
  }
  return { flushed: needsFlush, error };
}

/** `enactJobFinished`: sets Complete/Failed once every pod is counted and none is terminating. */
function enactFinished(deps: TrackDeps, s: JobState): boolean {
  const c = s.finished;
  if (!c) return false;
  const u = s.job.status?.uncountedTerminatedPods;
  if ((u?.succeeded?.length ?? 0) + (u?.failed?.length ?? 0) > 0) return false;
  if (s.terminating > 0) return false;
  ensureCondition(s.job, c.type, 'True', c.reason ?? '', c.message ?? '', deps.now);
  if (c.type === 'Complete') s.job.status!.completionTime = findCondition(s.job, 'Complete')!.lastTransitionTime;
  return true;
}

function recordFinished(deps: TrackDeps, s: JobState): void {
  const c = s.finished!;
  if (c.type === 'Complete') {
    const completions = s.job.spec?.completions;
    if (completions !== undefined && completions !== null && (s.job.status?.succeeded ?? 0) > completions) {
      deps.recorder.event(
        s.job,
        'Warning',
        'TooManySucceededPods',
        'Too many succeeded pods running after completion count reached',
      );
    }
    deps.recorder.event(s.job, 'Normal', 'Completed', 'Job completed');
  } else {
    deps.recorder.event(s.job, 'Warning', c.reason ?? '', c.message ?? '');
  }
}

function writeStatus(deps: PodControl, job: Typed<Job>): Typed<Job> {
  return cloneJson(deps.api.updateStatus(job));
}
