/**
 * The pod-failure back-off (pkg/controller/job/backoff_utils.go): after n
 * consecutive failures since the last success, a replacement pod waits
 * `10s·2^(n−1)` (capped at 10 minutes) from the last failure's finish time.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { parseTimestamp } from '../../clock/clock';
import { podCondition } from '../util/pods';

/** Upstream `DefaultJobPodFailureBackOff`. */
export const POD_FAILURE_BACKOFF_MS = 10_000;
/** Upstream `MaxJobPodFailureBackOff` (the docs say 6 minutes; the code says 10). */
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  /** ms, or undefined when there is no failure since the last success. */
  lastFailureTime: number | undefined;
}

/** When a terminated pod finished (ms): its containers' last finish, else Ready=False, else deletion, else creation. */
export function podFinishedTime(pod: Pod): number {
  const fromContainers = containersFinishedAt(pod);
  if (fromContainers !== undefined) return fromContainers;
  const ready = podCondition(pod, 'Ready');
  if (ready?.status === 'False' && ready.lastTransitionTime) return parseTimestamp(ready.lastTransitionTime);
  if (pod.metadata?.deletionTimestamp)
    return parseTimestamp(pod.metadata.deletionTimestamp) - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return parseTimestamp(pod.metadata?.creationTimestamp ?? '');
}

function containersFinishedAt(pod: Pod): number | undefined {
  let latest: number | undefined;
  const statuses = pod.status?.containerStatuses ?? [];
  if (statuses.length === 0) return undefined;
  for (const s of statuses) {
    const at = s.state?.terminated?.finishedAt;
    if (!at) return undefined;
    const t = parseTimestamp(at);
    if (latest === undefined || t > latest) latest = t;
  }
  return latest;
}

/** Per-Job back-off records, kept in memory as upstream's `backoffStore`. */
export class BackoffStore {
  private readonly records = new Map<string, BackoffRecord>();

  get(key: string): BackoffRecord {
    return this.records.get(key) ?? { failuresAfterLastSuccess: 0, lastFailureTime: undefined };
  }

  set(key: string, record: BackoffRecord): void {
    this.records.set(key, record);
  }

  delete(key: string): void {
    this.records.delete(key);
  }

  /**
   * The record after counting newly finished pods (`newBackoffRecord`): a success resets it, later failures count
   * again.
   */
  next(key: string, newSucceeded: readonly Pod[], newFailed: readonly Pod[]): BackoffRecord {
    const old = this.get(key);
    const failedTimes = newFailed.map(podFinishedTime).sort((a, b) => a - b);
    if (newSucceeded.length === 0) {
      if (failedTimes.length === 0) return { ...old };
      return {
        failuresAfterLastSuccess: old.failuresAfterLastSuccess + failedTimes.length,
        lastFailureTime: failedTimes[failedTimes.length - 1],
      };
    }
    const lastSuccess = Math.max(...newSucceeded.map(podFinishedTime));
    const after = failedTimes.filter((t) => t > lastSuccess);
    return {
      failuresAfterLastSuccess: after.length,
      lastFailureTime: after.length > 0 ? after[after.length - 1] : undefined,
    };
  }
}

/** How long a replacement must still wait (ms, 0 = create now). */
export function remainingBackoff(record: BackoffRecord, now: number): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === undefined) return 0;
  let backoff = POD_FAILURE_BACKOFF_MS;
  for (let i = 1; i < record.failuresAfterLastSuccess; i++) {
    backoff *= 2;
    if (backoff >= MAX_POD_FAILURE_BACKOFF_MS) {
      backoff = MAX_POD_FAILURE_BACKOFF_MS;
      break;
    }
  }
  const elapsed = now - record.lastFailureTime;
  return backoff < elapsed ? 0 : backoff - elapsed;
}
