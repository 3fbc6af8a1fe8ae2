/**
 * Which active pods go first when a Job has too many or is suspended
 * (`activePodsForRemoval`, ordered by `controller.ActivePods`): unscheduled
 * before scheduled, Pending < Unknown < Running, not-ready before ready,
 * recently ready first, more restarts first, newer first.
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { parseTimestamp } from '../../clock/clock';
import { isPodReady, podCondition, podNodeName } from '../util/pods';
import { duplicateIndexPods, isIndexedJob } from './indexed';

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function restarts(p: Pod): number {
  return Math.max(0, ...(p.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
}

function time(text: string | undefined): number {
  return text ? parseTimestamp(text) : 0;
}

/** Negative when `a` should be removed before `b`. */
export function compareForRemoval(a: Pod, b: Pod): number {
  const assigned = Number(podNodeName(a) !== '') - Number(podNodeName(b) !== '');
  if (assigned !== 0) return assigned;
  const phase = (PHASE_RANK[a.status?.phase ?? 'Pending'] ?? 0) - (PHASE_RANK[b.status?.phase ?? 'Pending'] ?? 0);
  if (phase !== 0) return phase;
  const readyA = isPodReady(a);
  const ready = Number(readyA) - Number(isPodReady(b));
  if (ready !== 0) return ready;
  if (readyA) {
    const since =
      time(podCondition(b, 'Ready')?.lastTransitionTime) - time(podCondition(a, 'Ready')?.lastTransitionTime);
    if (since !== 0) return since;
  }
  const r = restarts(b) - restarts(a);
  if (r !== 0) return r;
  const age = time(b.metadata?.creationTimestamp) - time(a.metadata?.creationTimestamp);
  if (age !== 0) return age;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/** At least `count` active pods to delete (Indexed Jobs also lose duplicate and out-of-range indexes). */
export function activePodsForRemoval(job: Job, active: readonly Pod[], count: number): Pod[] {
  let remove: Pod[] = [];
  let left: Pod[] = [...active];
  if (isIndexedJob(job)) ({ remove, keep: left } = duplicateIndexPods(active, job.spec?.completions ?? 0));
  if (remove.length < count) remove = remove.concat([...left].sort(compareForRemoval).slice(0, count - remove.length));
  return remove;
}
