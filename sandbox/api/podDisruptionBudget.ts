/**
 * What the eviction subresource and the disruption controller both know about
 * a PodDisruptionBudget's status (k8s.io/component-helpers/apps/poddisruptionbudget
 * and apimachinery's `meta.SetStatusCondition`): the `DisruptionAllowed`
 * condition and its reasons, and when a status is up to date.
 */
import type { Condition } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import { formatTimestamp } from '../clock/clock';

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';
/** The StatusCause type of an eviction refused by a budget (`policyv1.DisruptionBudgetCause`). */
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/**
 * `meta.SetStatusCondition`: adds the condition, or updates the one of its type; `lastTransitionTime` moves only when
 * the status changes. Returns whether anything changed.
 */
export function setStatusCondition(
  conditions: Condition[],
  next: Omit<Condition, 'lastTransitionTime'>,
  now: number,
): boolean {
  const existing = conditions.find((c) => c.type === next.type);
  if (!existing) {
    conditions.push({ ...next, lastTransitionTime: formatTimestamp(now) });
    return true;
  }
  let changed = false;
  if (existing.status !== next.status) {
    existing.status = next.status;
    existing.lastTransitionTime = formatTimestamp(now);
    changed = true;
  }
  if (existing.reason !== next.reason) {
    existing.reason = next.reason;
    changed = true;
  }
  if (existing.message !== next.message) {
    existing.message = next.message;
    changed = true;
  }
  if (existing.observedGeneration !== next.observedGeneration) {
    if (next.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = next.observedGeneration;
    changed = true;
  }
  return changed;
}

/**
 * `UpdateDisruptionAllowedCondition`: True `SufficientPods` while disruptions are allowed, else False
 * `InsufficientPods` (no message). Changes `status` in place.
 */
export function updateDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, now: number): void {
  status.conditions ??= [];
  const allowed = status.disruptionsAllowed > 0;
  const condition: Omit<Condition, 'lastTransitionTime'> = {
    type: DISRUPTION_ALLOWED,
    status: allowed ? 'True' : 'False',
    reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
    message: '',
  };
  if (status.observedGeneration !== undefined) condition.observedGeneration = status.observedGeneration;
  setStatusCondition(status.conditions, condition, now);
}

/** `ConditionsAreUpToDate`: the DisruptionAllowed condition agrees with `disruptionsAllowed` for this generation. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const status = pdb.status;
  const cond = status?.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!status || !cond) return false;
  if ((status.observedGeneration ?? 0) !== (pdb.metadata?.generation ?? 0)) return false;
  if (status.disruptionsAllowed > 0) return cond.status === 'True' && cond.reason === SUFFICIENT_PODS;
  return cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}
