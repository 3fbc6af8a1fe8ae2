/**
 * From a raw recommendation to the replica count the HPA writes
 * (upstream: pkg/controller/podautoscaler/horizontal.go `normalizeDesiredReplicas`,
 * `normalizeDesiredReplicasWithBehaviors`, `stabilizeRecommendation*`, `convertDesiredReplicas*`,
 * `calculateScale{Up,Down}Limit*`, `storeScaleEvent`).
 *
 * The controller keeps, per HPA, its recent unstabilized recommendations and (with `behavior`) its recent scale
 * events; both live in memory only, as upstream's do (a restarted controller starts with none). Times are compared
 * exactly as upstream compares them (`Before` / `After` are strict), which matters on a virtual clock where syncs
 * fall exactly 15 s apart.
 */
import type { HPAScalingPolicy, HorizontalPodAutoscalerBehavior } from 'kubernetes-types/autoscaling/v2';

/** `--horizontal-pod-autoscaler-downscale-stabilization`. */
export const DOWNSCALE_STABILIZATION_WINDOW_MS = 5 * 60_000;
const SCALE_UP_LIMIT_FACTOR = 2.0;
const SCALE_UP_LIMIT_MINIMUM = 4.0;

interface Recommendation {
  recommendation: number;
  timestamp: number;
}

interface ScaleEvent {
  replicaChange: number;
  timestamp: number;
  outdated: boolean;
}

/** A condition the normalization wants set: `setCondition(type, status, reason, message)`. */
export interface ConditionUpdate {
  type: 'AbleToScale' | 'ScalingLimited';
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface Normalized {
  desiredReplicas: number;
  conditions: ConditionUpdate[];
}

/** The scaling rules with upstream's defaults filled in (`GenerateHPAScale{Up,Down}Rules`), and the 300 s window. */
export interface ScalingRules {
  stabilizationWindowSeconds: number;
  selectPolicy: string;
  policies: readonly HPAScalingPolicy[];
}

export interface EffectiveBehavior {
  scaleUp: ScalingRules;
  scaleDown: ScalingRules;
}

export function effectiveBehavior(behavior: HorizontalPodAutoscalerBehavior): EffectiveBehavior {
  const up = behavior.scaleUp ?? {};
  const down = behavior.scaleDown ?? {};
  return {
    scaleUp: {
      stabilizationWindowSeconds: up.stabilizationWindowSeconds ?? 0,
      selectPolicy: up.selectPolicy ?? 'Max',
      policies: up.policies ?? [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    },
    scaleDown: {
      // `maybeInitScaleDownStabilizationWindow`: the controller's flag when the spec leaves it unset.
      stabilizationWindowSeconds: down.stabilizationWindowSeconds ?? DOWNSCALE_STABILIZATION_WINDOW_MS / 1000,
      selectPolicy: down.selectPolicy ?? 'Max',
      policies: down.policies ?? [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    },
  };
}

export class ScaleHistory {
  private recommendations: Recommendation[] = [];
  private readonly scaleUpEvents: ScaleEvent[] = [];
  private readonly scaleDownEvents: ScaleEvent[] = [];

  /** `recordInitialRecommendation`: the first sync remembers the current count. */
  recordInitial(currentReplicas: number, now: number): void {
    if (this.recommendations.length === 0) this.recommendations = [{ recommendation: currentReplicas, timestamp: now }];
  }

  /** `normalizeDesiredReplicas` (no `behavior`): the highest recommendation of the last 5 minutes, then the limits. */
  normalize(current: number, prenormalized: number, min: number, max: number, now: number): Normalized {
    const stabilized = this.stabilize(prenormalized, now);
    const conditions: ConditionUpdate[] = [
      stabilized !== prenormalized
        ? {
            type: 'AbleToScale',
            status: 'True',
            reason: 'ScaleDownStabilized',
            message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
          }
        : {
            type: 'AbleToScale',
            status: 'True',
            reason: 'ReadyForNewScale',
            message: 'recommended size matches current size',
          },
    ];
    const { desired, reason, message } = convertDesiredReplicasWithRules(current, stabilized, min, max);
    conditions.push({
      type: 'ScalingLimited',
      status: desired === stabilized ? 'False' : 'True',
      reason,
      message,
    });
    return { desiredReplicas: desired, conditions };
  }

  /** `normalizeDesiredReplicasWithBehaviors`: stabilization windows, then the policies' rate limits. */
  normalizeWithBehavior(
    behavior: HorizontalPodAutoscalerBehavior,
    current: number,
    prenormalized: number,
    min: number,
    max: number,
    now: number,
  ): Normalized {
    const rules = effectiveBehavior(behavior);
    const { recommendation, reason, message } = this.stabilizeWithBehaviors(rules, current, prenormalized, now);
    const conditions: ConditionUpdate[] = [
      recommendation !== prenormalized
        ? { type: 'AbleToScale', status: 'True', reason, message }
        : {
            type: 'AbleToScale',
            status: 'True',
            reason: 'ReadyForNewScale',
            message: 'recommended size matches current size',
          },
    ];
    const limited = this.convertWithBehaviorRate(rules, current, recommendation, min, max, now);
    conditions.push({
      type: 'ScalingLimited',
      status: limited.desired === recommendation ? 'False' : 'True',
      reason: limited.reason,
      message: limited.message,
    });
    return { desiredReplicas: limited.desired, conditions };
  }

  /** `storeScaleEvent`: remembered only with `behavior` (the policies' periods need them). */
  storeScaleEvent(
    behavior: HorizontalPodAutoscalerBehavior | undefined,
    prev: number,
    next: number,
    now: number,
  ): void {
    if (!behavior) return;
    const rules = effectiveBehavior(behavior);
    const up = next > prev;
    const events = up ? this.scaleUpEvents : this.scaleDownEvents;
    const longest = longestPolicyPeriod(up ? rules.scaleUp.policies : rules.scaleDown.policies);
    const cutoff = now - longest * 1000;
    for (const e of events) if (e.timestamp < cutoff) e.outdated = true;
    const event: ScaleEvent = { replicaChange: up ? next - prev : prev - next, timestamp: now, outdated: false };
    let oldIndex = -1;
    events.forEach((e, i) => {
      if (e.outdated) oldIndex = i;
    });
    if (oldIndex >= 0) events[oldIndex] = event;
    else events.push(event);
  }

  /** `stabilizeRecommendation`: replaces one sample older than the window (or appends), returns the highest. */
  private stabilize(prenormalized: number, now: number): number {
    let max = prenormalized;
    let oldIndex = -1;
    const cutoff = now - DOWNSCALE_STABILIZATION_WINDOW_MS;
    this.recommendations.forEach((r, i) => {
      if (r.timestamp < cutoff) oldIndex = i;
      else if (r.recommendation > max) max = r.recommendation;
    });
    const sample = { recommendation: prenormalized, timestamp: now };
    if (oldIndex >= 0) this.recommendations[oldIndex] = sample;
    else this.recommendations.push(sample);
    return max;
  }

  private stabilizeWithBehaviors(
    rules: EffectiveBehavior,
    current: number,
    desired: number,
    now: number,
  ): { recommendation: number; reason: string; message: string } {
    let upRecommendation = desired;
    let downRecommendation = desired;
    const upCutoff = now - rules.scaleUp.stabilizationWindowSeconds * 1000;
    const downCutoff = now - rules.scaleDown.stabilizationWindowSeconds * 1000;
    let oldIndex = -1;
    this.recommendations.forEach((r, i) => {
      if (r.timestamp > upCutoff) upRecommendation = Math.min(r.recommendation, upRecommendation);
      if (r.timestamp > downCutoff) downRecommendation = Math.max(r.recommendation, downRecommendation);
      if (r.timestamp < upCutoff && r.timestamp < downCutoff) oldIndex = i;
    });
    let recommendation = current;
    if (recommendation < upRecommendation) recommendation = upRecommendation;
    if (recommendation > downRecommendation) recommendation = downRecommendation;
    const sample = { recommendation: desired, timestamp: now };
    if (oldIndex >= 0) this.recommendations[oldIndex] = sample;
    else this.recommendations.push(sample);
    return desired >= current
      ? {
          recommendation,
          reason: 'ScaleUpStabilized',
          message: 'recent recommendations were lower than current one, applying the lowest recent recommendation',
        }
      : {
          recommendation,
          reason: 'ScaleDownStabilized',
          message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
        };
  }

  /** `convertDesiredReplicasWithBehaviorRate`. */
  private convertWithBehaviorRate(
    rules: EffectiveBehavior,
    current: number,
    desired: number,
    min: number,
    max: number,
    now: number,
  ): { desired: number; reason: string; message: string } {
    if (desired > current) {
      let limit = scaleUpLimit(current, this.scaleUpEvents, this.scaleDownEvents, rules.scaleUp, now);
      if (limit < current) limit = current;
      let allowed = max;
      let reason = 'TooManyReplicas';
      let message = 'the desired replica count is more than the maximum replica count';
      if (allowed > limit) {
        allowed = limit;
        reason = 'ScaleUpLimit';
        message = 'the desired replica count is increasing faster than the maximum scale rate';
      }
      if (desired > allowed) return { desired: allowed, reason, message };
    } else if (desired < current) {
      let limit = scaleDownLimit(current, this.scaleUpEvents, this.scaleDownEvents, rules.scaleDown, now);
      if (limit > current) limit = current;
      let allowed = min;
      let reason = 'TooFewReplicas';
      let message = 'the desired replica count is less than the minimum replica count';
      if (allowed < limit) {
        allowed = limit;
        reason = 'ScaleDownLimit';
        message = 'the desired replica count is decreasing faster than the maximum scale rate';
      }
      if (desired < allowed) return { desired: allowed, reason, message };
    }
    return { desired, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
  }
}

/** `convertDesiredReplicasWithRules`: [min, max], and at most max(2 × current, 4) in one step. */
export function convertDesiredReplicasWithRules(
  current: number,
  desired: number,
  min: number,
  max: number,
): { desired: number; reason: string; message: string } {
  const upLimit = Math.trunc(Math.max(SCALE_UP_LIMIT_FACTOR * current, SCALE_UP_LIMIT_MINIMUM));
  let maximum: number;
  let reason: string;
  let message: string;
  if (max > upLimit) {
    maximum = upLimit;
    reason = 'ScaleUpLimit';
    message = 'the desired replica count is increasing faster than the maximum scale rate';
  } else {
    maximum = max;
    reason = 'TooManyReplicas';
    message = 'the desired replica count is more than the maximum replica count';
  }
  if (desired < min)
    return {
      desired: min,
      reason: 'TooFewReplicas',
      message: 'the desired replica count is less than the minimum replica count',
    };
  if (desired > maximum) return { desired: maximum, reason, message };
  return { desired, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

function longestPolicyPeriod(policies: readonly HPAScalingPolicy[]): number {
  let longest = 0;
  for (const p of policies) if (p.periodSeconds > longest) longest = p.periodSeconds;
  return longest;
}

/** `getReplicasChangePerPeriod`: changes strictly within the last `periodSeconds`. */
function changeInPeriod(periodSeconds: number, events: readonly ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  let replicas = 0;
  for (const e of events) if (e.timestamp > cutoff) replicas += e.replicaChange;
  return replicas;
}

/** `calculateScaleUpLimitWithScalingRules`. */
function scaleUpLimit(
  current: number,
  upEvents: readonly ScaleEvent[],
  downEvents: readonly ScaleEvent[],
  rules: ScalingRules,
  now: number,
): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? 2 ** 31 - 1 : -(2 ** 31);
  for (const policy of rules.policies) {
    const start =
      current -
      changeInPeriod(policy.periodSeconds, upEvents, now) +
      changeInPeriod(policy.periodSeconds, downEvents, now);
    let proposed = 0;
    if (policy.type === 'Pods') proposed = start + policy.value;
    else if (policy.type === 'Percent') proposed = Math.ceil(start * (1 + policy.value / 100));
    result = useMin ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** `calculateScaleDownLimitWithBehaviors`. */
function scaleDownLimit(
  current: number,
  upEvents: readonly ScaleEvent[],
  downEvents: readonly ScaleEvent[],
  rules: ScalingRules,
  now: number,
): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? -(2 ** 31) : 2 ** 31 - 1;
  for (const policy of rules.policies) {
    const start =
      current -
      changeInPeriod(policy.periodSeconds, upEvents, now) +
      changeInPeriod(policy.periodSeconds, downEvents, now);
    let proposed = 0;
    if (policy.type === 'Pods') proposed = start - policy.value;
    else if (policy.type === 'Percent') proposed = Math.trunc(start * (1 - policy.value / 100));
    result = useMin ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}
