/**
 * The sandbox's resource metrics pipeline — what metrics-server serves as
 * `metrics.k8s.io` on a real cluster, and what kube-controller-manager's REST
 * metrics client reads for the HorizontalPodAutoscaler
 * (upstream: pkg/controller/podautoscaler/metrics/client.go `resourceMetricsClient.GetResourceMetric`).
 *
 * Decisions (see docs/behaviors.md, "Resource usage and load"):
 * - The pipeline is on by default, as if metrics-server were installed; a
 *   cluster made with `metricsServer: false` answers as a cluster without it
 *   does: "the server could not find the requested resource (get pods.metrics.k8s.io)".
 * - `metrics.k8s.io` is not served over the HTTP API (`kubectl top` answers
 *   "Metrics API not available"); the HPA controller reads this provider directly.
 * - Samples are taken every 15 s (metrics-server's default `--metric-resolution`)
 *   at whole multiples of 15 s of the clock, with a 15 s window. A container is
 *   measured once it has run for a whole window (metrics-server needs two
 *   cAdvisor samples to compute a rate), so a new pod has no metrics for 15–30 s.
 * - A container uses its usage annotation (or idles), plus its pod's share of
 *   any load whose selector matches the pod: the load is split evenly between
 *   the pods that were Running and Ready at the sample time, and goes to each
 *   pod's first container. CPU shares are rounded up to whole millicores
 *   (`MilliValue()` of the nanocores metrics-server reports), memory down to bytes.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import type { Clock } from '../../clock/clock';
import { parseTimestamp } from '../../clock/clock';
import type { LoadTable } from './loadTable';
import type { ContainerUsage } from './usage';
import { containerUsages } from './usage';

/** metrics-server's `--metric-resolution` default, and the window of each sample. */
export const METRIC_RESOLUTION_MS = 15_000;

/** One pod's sample (`metrics.k8s.io/v1beta1` PodMetrics). */
export interface PodMetrics {
  readonly name: string;
  readonly namespace: string;
  /** When the sample was taken (epoch ms). */
  readonly timestamp: number;
  readonly windowMs: number;
  readonly containers: readonly ContainerUsage[];
}

/** The resource metrics API could not be read; the message is what the REST client reports. */
export class MetricsUnavailableError extends Error {}

/** What the HPA controller reads: the PodMetrics of a namespace's pods that match a label selector. */
export interface ResourceMetricsSource {
  /** Throws `MetricsUnavailableError` when there is no metrics API. */
  listPodMetrics(namespace: string, labelSelector: string): PodMetrics[];
}

export interface MetricsServerOptions {
  /** false: the cluster has no metrics-server (default true). */
  enabled?: boolean;
}

/** The 404 a cluster without metrics-server gives for `GET /apis/metrics.k8s.io/v1beta1/namespaces/x/pods`. */
export const NO_METRICS_API = 'the server could not find the requested resource (get pods.metrics.k8s.io)';

export class SimulatedMetricsServer implements ResourceMetricsSource {
  readonly enabled: boolean;

  constructor(
    private readonly api: ApiServer,
    private readonly clock: Clock,
    readonly load: LoadTable,
    options: MetricsServerOptions = {},
  ) {
    this.enabled = options.enabled ?? true;
  }

  /** The time of the latest sample (a multiple of the resolution). */
  sampleTime(now = this.clock.now()): number {
    return Math.floor(now / METRIC_RESOLUTION_MS) * METRIC_RESOLUTION_MS;
  }

  listPodMetrics(namespace: string, labelSelector: string): PodMetrics[] {
    if (!this.enabled) throw new MetricsUnavailableError(NO_METRICS_API);
    const at = this.sampleTime();
    const pods = this.api.list('pods', { namespace, labelSelector }).items;
    const shares = this.loadShares(namespace, at);
    const out: PodMetrics[] = [];
    for (const pod of pods) {
      if (!measurable(pod, at - METRIC_RESOLUTION_MS)) continue;
      const containers = containerUsages(pod);
      const share = shares.get(pod.metadata.name ?? '');
      if (share && containers.length > 0) {
        containers[0] = {
          ...containers[0],
          cpuMilli: containers[0].cpuMilli + share.cpuMilli,
          memoryBytes: containers[0].memoryBytes + share.memoryBytes,
        };
      }
      out.push({
        name: pod.metadata.name ?? '',
        namespace,
        timestamp: at,
        windowMs: METRIC_RESOLUTION_MS,
        containers,
      });
    }
    return out;
  }

  /** Each pod's share of the namespace's loads at `at`, by pod name. */
  private loadShares(namespace: string, at: number): Map<string, { cpuMilli: number; memoryBytes: number }> {
    const shares = new Map<string, { cpuMilli: number; memoryBytes: number }>();
    for (const { selector, usage } of this.load.loadsAt(namespace, at)) {
      const serving = this.api
        .list('pods', { namespace })
        .items.filter((p) => selector.matches(p.metadata.labels) && servingAt(p, at));
      if (serving.length === 0) continue;
      const cpu = Math.ceil(usage.cpuMilli / serving.length);
      const memory = Math.floor(usage.memoryBytes / serving.length);
      for (const p of serving) {
        const name = p.metadata.name ?? '';
        const s = shares.get(name) ?? { cpuMilli: 0, memoryBytes: 0 };
        shares.set(name, { cpuMilli: s.cpuMilli + cpu, memoryBytes: s.memoryBytes + memory });
      }
    }
    return shares;
  }
}

/** Every regular container has been running since `since` or before. */
function measurable(pod: Pod, since: number): boolean {
  if (pod.status?.phase !== 'Running') return false;
  const statuses = pod.status.containerStatuses ?? [];
  for (const c of pod.spec?.containers ?? []) {
    const started = statuses.find((s) => s.name === c.name)?.state?.running?.startedAt;
    if (!started || parseTimestamp(started) > since) return false;
  }
  return true;
}

/** Running, not being deleted, and Ready since `at` or before: it receives traffic. */
function servingAt(pod: Pod, at: number): boolean {
  if (pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Running') return false;
  const ready = pod.status.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' && parseTimestamp(ready.lastTransitionTime ?? '') <= at;
}
