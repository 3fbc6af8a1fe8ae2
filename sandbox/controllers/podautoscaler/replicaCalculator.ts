/**
 * The HPA's replica arithmetic (upstream: pkg/controller/podautoscaler/replica_calculator.go and
 * metrics/utilization.go), on the pods of the target and the resource metrics of the sandbox's metrics server.
 *
 * Numbers are kept as upstream keeps them: CPU in millicores, memory in milli-bytes (`MilliValue()`), the
 * utilization as a truncated integer percentage from which the ratio is computed, `ceil(ratio × pods)` replicas.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../api/quantity';
import { parseTimestamp } from '../../clock/clock';
import type { PodMetrics } from '../../client/metrics/metricsServer';
import { podCondition } from '../util/pods';

/** `--horizontal-pod-autoscaler-tolerance`. */
export const TOLERANCE = 0.1;
/** `--horizontal-pod-autoscaler-cpu-initialization-period`. */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** `--horizontal-pod-autoscaler-initial-readiness-delay`. */
export const DELAY_OF_INITIAL_READINESS_STATUS_MS = 30_000;

/** `PodMetric`: one pod's value (milli-units), when it was sampled and over which window. */
export interface PodMetric {
  value: number;
  timestamp: number;
  windowMs: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

export type ResourceName = 'cpu' | 'memory';

/** A failure whose message is upstream's. */
export class CalculationError extends Error {}

function milliOf(resource: ResourceName, usage: { cpuMilli: number; memoryBytes: number }): number {
  return resource === 'cpu' ? usage.cpuMilli : usage.memoryBytes * 1000;
}

/**
 * `getPodMetrics` / `getContainerMetrics`: the sum over a pod's containers (or one container's value). A pod that
 * lacks the named container is left out (it counts as missing).
 */
export function podMetricsInfo(raw: readonly PodMetrics[], resource: ResourceName, container = ''): PodMetricsInfo {
  const out: PodMetricsInfo = new Map();
  for (const m of raw) {
    if (container !== '') {
      const c = m.containers.find((x) => x.name === container);
      if (c) out.set(m.name, { value: milliOf(resource, c), timestamp: m.timestamp, windowMs: m.windowMs });
      continue;
    }
    if (m.containers.length === 0) continue;
    let sum = 0;
    for (const c of m.containers) sum += milliOf(resource, c);
    out.set(m.name, { value: sum, timestamp: m.timestamp, windowMs: m.windowMs });
  }
  return out;
}

export interface PodGroups {
  readyPodCount: number;
  unreadyPods: Set<string>;
  missingPods: Set<string>;
  ignoredPods: Set<string>;
}

/** `groupPods`: deleted and finished pods ignored; Pending ones unready; no metric, missing; CPU readiness rules. */
export function groupPods(
  pods: readonly Pod[],
  metrics: PodMetricsInfo,
  resource: ResourceName,
  now: number,
): PodGroups {
  const groups: PodGroups = {
    readyPodCount: 0,
    unreadyPods: new Set(),
    missingPods: new Set(),
    ignoredPods: new Set(),
  };
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const phase = pod.status?.phase;
    if (pod.metadata?.deletionTimestamp || phase === 'Succeeded' || phase === 'Failed') {
      groups.ignoredPods.add(name);
      continue;
    }
    if (phase === 'Pending') {
      groups.unreadyPods.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      groups.missingPods.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = podCondition(pod, 'Ready');
      const startTime = pod.status?.startTime;
      let unready: boolean;
      if (!ready || !startTime) unready = true;
      else {
        const start = parseTimestamp(startTime);
        const transition = parseTimestamp(ready.lastTransitionTime ?? '');
        if (start + CPU_INITIALIZATION_PERIOD_MS > now) {
          // Within the initialisation period: unready, or no whole metric window since the last transition.
          unready = ready.status === 'False' || metric.timestamp < transition + metric.windowMs;
        } else {
          // Afterwards: unready only if it has never been ready.
          unready = ready.status === 'False' && start + DELAY_OF_INITIAL_READINESS_STATUS_MS > transition;
        }
      }
      if (unready) {
        groups.unreadyPods.add(name);
        continue;
      }
    }
    groups.readyPodCount++;
  }
  return groups;
}

/** `Quantity.MilliValue()` of a request (CPU millicores, memory milli-bytes). */
function requestMilli(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const q = parseQuantity(value);
  return q === undefined ? undefined : q.milli();
}

/**
 * `calculatePodRequestsFromContainers`: each pod's request of the resource (milli-units), summed over its containers
 * and sidecars (restartable init containers), or of one container.
 */
export function podRequests(pods: readonly Pod[], resource: ResourceName, container = ''): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const containers = [
      ...(pod.spec?.containers ?? []),
      ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
    ];
    let request = 0;
    let found = false;
    for (const c of containers) {
      if (container !== '' && c.name !== container) continue;
      const value = requestMilli(c.resources?.requests?.[resource]);
      if (value === undefined)
        throw new CalculationError(`missing request for ${resource} in container ${c.name} of Pod ${name}`);
      request += value;
      if (container === c.name) {
        found = true;
        break;
      }
    }
    if (container !== '' && !found) throw new CalculationError(`container ${container} not found in Pod ${name}`);
    out.set(name, request);
  }
  return out;
}

/** `GetResourceUtilizationRatio`: usage over request of the pods that have both, as a truncated percentage. */
export function utilizationRatio(
  metrics: PodMetricsInfo,
  requests: ReadonlyMap<string, number>,
  targetUtilization: number,
): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, m] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new CalculationError('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

/** `GetMetricUsageRatio`: the average over the pods with metrics, against the target. */
export function usageRatio(metrics: PodMetricsInfo, targetUsage: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}

const withinTolerance = (ratio: number): boolean => Math.abs(1.0 - ratio) <= TOLERANCE;

function removePods(metrics: PodMetricsInfo, pods: ReadonlySet<string>): void {
  for (const p of pods) metrics.delete(p);
}

export interface ResourceProposal {
  replicas: number;
  utilization: number;
  /** The average usage, milli-units. */
  rawAverage: number;
  timestamp: number;
}

/**
 * The common start of `GetResourceReplicas` and `calcPlainMetricReplicas`: the pods' metrics without the ignored and
 * unready pods, and the pods grouped as upstream's `groupPods` does.
 */
function readyMetrics(
  pods: readonly Pod[],
  raw: readonly PodMetrics[],
  resource: ResourceName,
  container: string,
  now: number,
) {
  const metrics = podMetricsInfo(raw, resource, container);
  const timestamp = raw[0].timestamp;
  if (pods.length === 0) throw new CalculationError('no pods returned by selector while calculating replica count');
  const { readyPodCount, unreadyPods, missingPods, ignoredPods } = groupPods(pods, metrics, resource, now);
  removePods(metrics, ignoredPods);
  removePods(metrics, unreadyPods);
  if (metrics.size === 0)
    throw new CalculationError('did not receive metrics for targeted pods (pods might be unready)');
  return { metrics, timestamp, readyPodCount, unreadyPods, missingPods };
}

/** `GetResourceReplicas`: the replica count for a target utilization (percentage of request). */
export function resourceReplicas(
  currentReplicas: number,
  targetUtilization: number,
  resource: ResourceName,
  pods: readonly Pod[],
  raw: readonly PodMetrics[],
  container: string,
  now: number,
): ResourceProposal {
  const { metrics, timestamp, readyPodCount, unreadyPods, missingPods } = readyMetrics(
    pods,
    raw,
    resource,
    container,
    now,
  );
  const requests = podRequests(pods, resource, container);
  const first = utilizationRatio(metrics, requests, targetUtilization);
  const { utilization, rawAverage } = first;
  const ratio = first.ratio;
  const result = (replicas: number): ResourceProposal => ({ replicas, utilization, rawAverage, timestamp });

  const scaleUpWithUnready = unreadyPods.size > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missingPods.size === 0) {
    if (withinTolerance(ratio)) return result(currentReplicas);
    return result(Math.ceil(ratio * readyPodCount));
  }
  if (missingPods.size > 0) {
    if (ratio < 1.0) {
      // On a scale-down missing pods count as using 100% of their request (or the target, when it is higher).
      const fallback = Math.max(100, targetUtilization);
      for (const name of missingPods)
        metrics.set(name, { value: Math.trunc(((requests.get(name) ?? 0) * fallback) / 100), timestamp, windowMs: 0 });
    } else if (ratio > 1.0) {
      for (const name of missingPods) metrics.set(name, { value: 0, timestamp, windowMs: 0 });
    }
  }
  if (scaleUpWithUnready) for (const name of unreadyPods) metrics.set(name, { value: 0, timestamp, windowMs: 0 });

  const newRatio = utilizationRatio(metrics, requests, targetUtilization).ratio;
  if (withinTolerance(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0))
    return result(currentReplicas);
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1.0 && newReplicas > currentReplicas) || (newRatio > 1.0 && newReplicas < currentReplicas))
    return result(currentReplicas);
  return result(newReplicas);
}

export interface PlainProposal {
  replicas: number;
  /** The average usage, milli-units. */
  usage: number;
  timestamp: number;
}

/** `GetRawResourceReplicas` → `calcPlainMetricReplicas`: the replica count for a target average value. */
export function rawResourceReplicas(
  currentReplicas: number,
  targetUsage: number,
  resource: ResourceName,
  pods: readonly Pod[],
  raw: readonly PodMetrics[],
  container: string,
  now: number,
): PlainProposal {
  const { metrics, timestamp, readyPodCount, unreadyPods, missingPods } = readyMetrics(
    pods,
    raw,
    resource,
    container,
    now,
  );
  const { ratio, usage } = usageRatio(metrics, targetUsage);
  const result = (replicas: number): PlainProposal => ({ replicas, usage, timestamp });

  const scaleUpWithUnready = unreadyPods.size > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missingPods.size === 0) {
    if (withinTolerance(ratio)) return result(currentReplicas);
    return result(Math.ceil(ratio * readyPodCount));
  }
  if (missingPods.size > 0) {
    // On a scale-down missing pods count as using exactly the target; on a scale-up, nothing.
    if (ratio < 1.0) for (const name of missingPods) metrics.set(name, { value: targetUsage, timestamp, windowMs: 0 });
    else if (ratio > 1.0) for (const name of missingPods) metrics.set(name, { value: 0, timestamp, windowMs: 0 });
  }
  if (scaleUpWithUnready) for (const name of unreadyPods) metrics.set(name, { value: 0, timestamp, windowMs: 0 });
  const newRatio = usageRatio(metrics, targetUsage).ratio;
  if (withinTolerance(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0))
    return result(currentReplicas);
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1.0 && newReplicas > currentReplicas) || (newRatio > 1.0 && newReplicas < currentReplicas))
    return result(currentReplicas);
  return result(newReplicas);
}
