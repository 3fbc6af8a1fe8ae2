/**
 * maxSurge / maxUnavailable resolution (`ResolveFenceposts`, `MaxSurge`,
 * `MaxUnavailable` in pkg/controller/deployment/util/deployment_util.go).
 */
import type { Deployment } from 'kubernetes-types/apps/v1';
import { deploymentReplicas, isRollingUpdate } from './replicaSets';

/** An int or an `N%` string (`intstr.IntOrString`). */
type IntOrString = number | string;

/**
 * Upstream `GetScaledValueFromIntOrPercent`: an int as is; `N%` of `total`,
 * rounded up or down. Validation admits nothing else; anything else is 0.
 */
export function valueFromIntOrPercent(value: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !/^[0-9]+%$/.test(value)) return 0;
  const scaled = (Number(value.slice(0, -1)) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * `[maxSurge, maxUnavailable]` for `desired` replicas: the surge percentage
 * rounds up, the unavailable one down, and when both come out 0,
 * maxUnavailable becomes 1 (surge might be blocked by quota).
 */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): [number, number] {
  const surge = valueFromIntOrPercent(maxSurge ?? 0, desired, true);
  let unavailable = valueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

/** The surge a rolling Deployment may take (0 for Recreate). */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, deploymentReplicas(d))[0];
}

/** The unavailability a rolling Deployment may take, at most its replicas (0 for Recreate or 0 replicas). */
export function maxUnavailable(d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  return Math.min(replicas, resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas)[1]);
}
