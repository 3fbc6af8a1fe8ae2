/** HPA status conditions (upstream: horizontal.go `setCondition` / `setConditionInList`). */
import type { HorizontalPodAutoscalerCondition } from 'kubernetes-types/autoscaling/v2';
import { formatTimestamp } from '../../clock/clock';

export type HpaConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';

/**
 * Sets a condition in place: a type not yet present is appended (so the order is the order of first setting), the
 * transition time changes only when the status does.
 */
export function setCondition(
  conditions: HorizontalPodAutoscalerCondition[],
  type: HpaConditionType,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): void {
  let existing = conditions.find((c) => c.type === type);
  if (!existing) {
    existing = { type, status: '' };
    conditions.push(existing);
  }
  if (existing.status !== status) existing.lastTransitionTime = formatTimestamp(now);
  existing.status = status;
  existing.reason = reason;
  existing.message = message;
}
