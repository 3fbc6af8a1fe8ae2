/**
 * The horizontal pod autoscaler controller (upstream: pkg/controller/podautoscaler/horizontal.go, Kubernetes 1.32):
 * every 15 s each HorizontalPodAutoscaler reads its target's `/scale`, computes a replica count from each metric
 * (resource metrics from the sandbox's metrics server, `sandbox/client/metrics/`), keeps the largest, stabilizes and
 * limits it, writes `/scale` when it differs, and records its status, conditions and events in upstream's words.
 *
 * Timing: upstream adds every HPA to its queue rate-limited (a fixed 15 s), on creation, on every update and after
 * every sync, so the first sync comes 15 s after the HPA is created and the next ones every 15 s after that. A sync
 * that will be followed by a change (it rescaled, or stabilization or a rate limit holds a change back) schedules
 * the next one as pending work; a sync at rest schedules it in the background, so a quiet cluster settles.
 *
 * Custom, object and external metrics: the sandbox serves no custom or external metrics API, so such metrics fail
 * as they do on a cluster without an adapter (the condition and events say so).
 */
import type {
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerStatus,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
} from 'kubernetes-types/autoscaling/v2';
import type { Pod } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import { Quantity } from '../../api/quantity';
import { parseQuantity } from '../../api/quantity';
import { RESOURCES } from '../../api/registry';
import type { ResourceType } from '../../api/resources';
import { parseLabelSelector } from '../../api/selectors/labelSelector';
import type { KubeObject, Typed } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import { formatTimestamp } from '../../clock/clock';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { MetricsUnavailableError, NO_METRICS_API } from '../../client/metrics/metricsServer';
import type { PodMetrics } from '../../client/metrics/metricsServer';
import { cloneJson, jsonEqual } from '../../util/json';
import { goLabelSelector } from '../disruption/disruptionController';
import { Controller } from '../framework/controller';
import type { ReconcileResult, Watches } from '../framework/controller';
import type { KeyTimers } from '../framework/keyTimers';
import { setCondition } from './conditions';
import type { HpaConditionType } from './conditions';
import { ScaleHistory } from './normalize';
import type { ConditionUpdate } from './normalize';
import { CalculationError, rawResourceReplicas, resourceReplicas } from './replicaCalculator';
import type { ResourceName } from './replicaCalculator';

/** `--horizontal-pod-autoscaler-sync-period`. */
export const HPA_SYNC_PERIOD_MS = 15_000;

type Hpa = Typed<HorizontalPodAutoscaler>;

interface Scale {
  replicas: number;
  statusReplicas: number;
  selector: string;
  resource: ResourceType;
}

/** A metric that could not be computed: the error, and the ScalingActive condition it proposes. */
class MetricError extends Error {
  constructor(
    message: string,
    readonly condition: { reason: string; message: string } | undefined,
  ) {
    super(message);
  }
}

interface MetricProposal {
  replicas: number;
  name: string;
  status: MetricStatus;
}

/** `NewMilliQuantity(v, DecimalSI).String()`. */
function milliQuantity(milli: number): string {
  return new Quantity(BigInt(milli) * 1_000_000n, 'DecimalSI').toString();
}

function quantityMilli(q: string | number | undefined): number {
  return q === undefined ? 0 : (parseQuantity(q)?.milli() ?? 0);
}

export class HorizontalPodAutoscalerController extends Controller {
  private hpas!: Informer<Hpa>;
  private pods!: Informer<Typed<Pod>>;
  private readonly history = new Map<string, ScaleHistory>();
  /** The next sync of an HPA that has work pending. */
  private readonly pendingSyncs: KeyTimers;
  /** The next sync of an HPA at rest. */
  private readonly restingSyncs: KeyTimers;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'horizontal-pod-autoscaler' });
    this.pendingSyncs = this.newTimers((key) => this.queue.add(key), { keep: 'earliest' });
    this.restingSyncs = this.newTimers((key) => this.queue.add(key), { background: true, keep: 'earliest' });
  }

  protected watch(w: Watches): void {
    this.hpas = w.informer('horizontalpodautoscalers');
    this.pods = w.informer('pods');
    // `enqueueHPA` / `updateHPA`: always rate-limited (15 s); a new or changed spec is pending work.
    w.handle(this.hpas, {
      onAdd: (hpa) => this.scheduleSync(objectKey(hpa), true),
      onUpdate: (old, hpa) => this.scheduleSync(objectKey(hpa), !jsonEqual(old.spec, hpa.spec)),
      onDelete: (hpa) => {
        const key = objectKey(hpa);
        this.pendingSyncs.cancel(key);
        this.restingSyncs.cancel(key);
        this.history.delete(key);
      },
    });
  }

  /** `AddRateLimited`: due one sync period from now, unless already due sooner. */
  private scheduleSync(key: string, pending: boolean): void {
    const now = this.ctx.clock.now();
    const due = this.pendingSyncs.dueAt(key) ?? this.restingSyncs.dueAt(key);
    const delay = due !== undefined && due >= now ? due - now : HPA_SYNC_PERIOD_MS;
    if (pending) {
      this.restingSyncs.cancel(key);
      this.pendingSyncs.schedule(key, delay);
    } else if (!this.pendingSyncs.has(key)) {
      this.restingSyncs.schedule(key, delay);
    }
  }

  protected reconcile(key: string): ReconcileResult {
    const hpa = this.hpas.cache.get(key);
    if (!hpa) {
      this.history.delete(key);
      return;
    }
    let pending = false;
    try {
      pending = this.reconcileAutoscaler(hpa, key);
    } catch (e) {
      // Upstream logs the error and syncs again one period later, with no back-off.
      this.recorder.logOnly(hpa, 'Warning', 'SyncError', `sync "${key}" failed: ${(e as Error).message}`);
    }
    if (this.hpas.cache.get(key)) this.scheduleSync(key, pending);
  }

  /** `reconcileAutoscaler`; returns whether a change is still to come (the next sync is pending work). */
  private reconcileAutoscaler(shared: Hpa, key: string): boolean {
    const now = this.ctx.clock.now();
    const hpa = cloneJson(shared) as Hpa;
    const spec = hpa.spec!;
    const original: unknown = cloneJson((shared as KubeObject).status ?? {});
    const status: HorizontalPodAutoscalerStatus = hpa.status ?? { desiredReplicas: 0 };
    const conditions: HorizontalPodAutoscalerCondition[] = (status.conditions ??= []);
    const set = (type: HpaConditionType, s: 'True' | 'False', reason: string, message: string): void =>
      setCondition(conditions, type, s, reason, message, now);
    const writeStatus = (): void =>
      this.updateStatusIfNeeded(
        hpa,
        original,
        wireStatus(
          status,
          status.currentReplicas ?? 0,
          status.desiredReplicas ?? 0,
          status.currentMetrics ?? null,
          conditions,
        ),
      );
    const ref = spec.scaleTargetRef;
    const reference = `${ref.kind}/${hpa.metadata.namespace}/${ref.name}`;

    let scale: Scale;
    try {
      scale = this.getScale(hpa);
    } catch (e) {
      const message = (e as Error).message;
      this.recorder.event(hpa, 'Warning', 'FailedGetScale', message);
      set(
        'AbleToScale',
        'False',
        'FailedGetScale',
        `the HPA controller was unable to get the target's current scale: ${message}`,
      );
      writeStatus();
      throw new Error(`failed to query scale subresource for ${reference}: ${message}`);
    }
    set('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
    const currentReplicas = scale.replicas;
    const history = this.historyOf(key);
    history.recordInitial(currentReplicas, now);

    const minReplicas = spec.minReplicas ?? 1;
    let desiredReplicas = 0;
    let rescaleReason = '';
    let rescale = true;
    let heldBack = false;
    let metricStatuses: MetricStatus[] | null = null;

    if (currentReplicas === 0 && minReplicas !== 0) {
      desiredReplicas = 0;
      rescale = false;
      set(
        'ScalingActive',
        'False',
        'ScalingDisabled',
        'scaling is disabled since the replica count of the target is zero',
      );
    } else if (currentReplicas > spec.maxReplicas) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desiredReplicas = spec.maxReplicas;
    } else if (currentReplicas < minReplicas) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desiredReplicas = minReplicas;
    } else {
      const computed = this.computeReplicasForMetrics(hpa, scale, spec.metrics ?? [], set);
      metricStatuses = computed.statuses;
      if (computed.error !== undefined && computed.replicas === -1) {
        // `setCurrentReplicasAndMetricsInStatus`
        this.updateStatusIfNeeded(
          hpa,
          original,
          wireStatus(status, currentReplicas, status.desiredReplicas ?? 0, metricStatuses, conditions),
        );
        this.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', computed.error);
        throw new Error(
          `failed to compute desired number of replicas based on listed metrics for ${reference}: ${computed.error}`,
        );
      }
      let rescaleMetric = '';
      if (computed.replicas > desiredReplicas) {
        desiredReplicas = computed.replicas;
        rescaleMetric = computed.metric;
      }
      if (desiredReplicas > currentReplicas) rescaleReason = `${rescaleMetric} above target`;
      if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
      const clamped = Math.min(Math.max(desiredReplicas, minReplicas), spec.maxReplicas);
      const normalized = spec.behavior
        ? history.normalizeWithBehavior(
            spec.behavior,
            currentReplicas,
            desiredReplicas,
            minReplicas,
            spec.maxReplicas,
            now,
          )
        : history.normalize(currentReplicas, desiredReplicas, minReplicas, spec.maxReplicas, now);
      for (const c of normalized.conditions) applyCondition(set, c);
      desiredReplicas = normalized.desiredReplicas;
      rescale = desiredReplicas !== currentReplicas;
      heldBack = !rescale && clamped !== currentReplicas;
    }

    if (rescale) {
      try {
        this.updateScale(hpa, scale, desiredReplicas);
      } catch (e) {
        const message = (e as Error).message;
        this.recorder.event(
          hpa,
          'Warning',
          'FailedRescale',
          `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${message}`,
        );
        set(
          'AbleToScale',
          'False',
          'FailedUpdateScale',
          `the HPA controller was unable to update the target scale: ${message}`,
        );
        this.updateStatusIfNeeded(
          hpa,
          original,
          wireStatus(status, currentReplicas, status.desiredReplicas ?? 0, metricStatuses, conditions),
        );
        throw new Error(`failed to rescale ${reference}: ${message}`);
      }
      set(
        'AbleToScale',
        'True',
        'SucceededRescale',
        `the HPA controller was able to update the target scale to ${desiredReplicas}`,
      );
      this.recorder.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
      history.storeScaleEvent(spec.behavior, currentReplicas, desiredReplicas, now);
    } else {
      desiredReplicas = currentReplicas;
    }

    if (rescale) status.lastScaleTime = formatTimestamp(now);
    this.updateStatusIfNeeded(
      hpa,
      original,
      wireStatus(status, currentReplicas, desiredReplicas, metricStatuses, conditions),
    );
    return rescale || heldBack;
  }

  private historyOf(key: string): ScaleHistory {
    let h = this.history.get(key);
    if (!h) {
      h = new ScaleHistory();
      this.history.set(key, h);
    }
    return h;
  }

  /**
   * The target's `/scale`, through the API server's scale verbs. The target's kind is found by group and kind in any
   * served version, as the REST mapper finds it; a kind the server does not serve is upstream's "no matches" error.
   */
  private getScale(hpa: Hpa): Scale {
    const ref = hpa.spec!.scaleTargetRef;
    const { group } = parseApiVersion(ref.apiVersion ?? '');
    const resource =
      RESOURCES.find((r) => r.group === group && r.kind === ref.kind) ?? this.customResource(ref.apiVersion, ref.kind);
    if (!resource) throw new Error(`no matches for kind "${ref.kind}" in group "${group}"`);
    const scale = this.ctx.api.getScale(resource, hpa.metadata.namespace, ref.name);
    const s = scale as { spec?: { replicas?: number }; status?: { replicas?: number; selector?: string } };
    return {
      replicas: s.spec?.replicas ?? 0,
      statusReplicas: s.status?.replicas ?? 0,
      selector: s.status?.selector ?? '',
      resource,
    };
  }

  /** A kind the API server resolves but the built-in table does not list (a custom resource, once served). */
  private customResource(apiVersion: string | undefined, kind: string): ResourceType | undefined {
    if (!apiVersion) return undefined;
    try {
      return this.ctx.api.resourceOf({ apiVersion, kind });
    } catch {
      return undefined;
    }
  }

  /** Writes `spec.replicas` through `/scale`, re-reading once on a conflict (`RetryOnConflict`). */
  private updateScale(hpa: Hpa, scale: Scale, replicas: number): void {
    const { namespace } = hpa.metadata;
    const name = hpa.spec!.scaleTargetRef.name;
    for (let attempt = 0; ; attempt++) {
      const current = this.ctx.api.getScale(scale.resource, namespace, name);
      try {
        this.ctx.api.updateScale(scale.resource, namespace, name, { ...current, spec: { replicas } });
        return;
      } catch (e) {
        if (!isApiError(e, 409) || attempt >= 4) throw e;
      }
    }
  }

  /**
   * `computeReplicasForMetrics`: the largest proposal of the metrics that could be computed. `replicas` is -1 when
   * nothing can be done (every metric failed, or some failed and the rest would scale down).
   */
  private computeReplicasForMetrics(
    hpa: Hpa,
    scale: Scale,
    specs: readonly MetricSpec[],
    set: (type: HpaConditionType, s: 'True' | 'False', reason: string, message: string) => void,
  ): { replicas: number; metric: string; statuses: MetricStatus[] | null; error?: string } {
    if (scale.selector === '') {
      const msg = 'selector is required';
      this.recorder.event(hpa, 'Warning', 'SelectorRequired', msg);
      set('ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector");
      return { replicas: -1, metric: '', statuses: null, error: msg };
    }
    try {
      parseLabelSelector(scale.selector);
    } catch (e) {
      const msg = `couldn't convert selector into a corresponding internal selector object: ${(e as Error).message}`;
      this.recorder.event(hpa, 'Warning', 'InvalidSelector', msg);
      set('ScalingActive', 'False', 'InvalidSelector', msg);
      return { replicas: -1, metric: '', statuses: null, error: msg };
    }
    const namespace = hpa.metadata.namespace ?? 'default';
    const selector = parseLabelSelector(scale.selector);
    const pods = this.pods.cache.list(namespace).filter((p) => selector.matches(p.metadata.labels));
    const statuses: MetricStatus[] = specs.map(() => ({ type: '' }) as MetricStatus);
    let replicas = 0;
    let metric = '';
    let invalid = 0;
    let firstError: MetricError | undefined;
    specs.forEach((spec, i) => {
      try {
        const p = this.computeReplicasForMetric(spec, scale, namespace, pods);
        statuses[i] = p.status;
        if (replicas === 0 || p.replicas > replicas) {
          replicas = p.replicas;
          metric = p.name;
        }
      } catch (e) {
        if (!(e instanceof MetricError)) throw e;
        if (e.condition) this.recorder.event(hpa, 'Warning', e.condition.reason, e.condition.message);
        if (invalid === 0) firstError = e;
        invalid++;
      }
    });
    const error = firstError
      ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError.message}`
      : undefined;
    if (invalid >= specs.length || (invalid > 0 && replicas < scale.replicas)) {
      const c = firstError?.condition;
      if (c) set('ScalingActive', 'False', c.reason, `the HPA was unable to compute the replica count: ${c.message}`);
      return { replicas: -1, metric: '', statuses, error };
    }
    set(
      'ScalingActive',
      'True',
      'ValidMetricFound',
      `the HPA was able to successfully calculate a replica count from ${metric}`,
    );
    return { replicas, metric, statuses, error };
  }

  /** `computeReplicasForMetric`: one metric's proposal, or a `MetricError` with upstream's wording. */
  private computeReplicasForMetric(
    spec: MetricSpec,
    scale: Scale,
    namespace: string,
    pods: readonly Typed<Pod>[],
  ): MetricProposal {
    switch (spec.type) {
      case 'Resource': {
        const source = spec.resource!;
        const fail = (inner: string): MetricError =>
          new MetricError(`failed to get ${source.name} resource metric value: ${inner}`, {
            reason: 'FailedGetResourceMetric',
            message: inner,
          });
        const r = this.resourceMetric(source.name, source.target, '', scale, namespace, pods, fail);
        return { ...r, status: { type: 'Resource', resource: { name: source.name, current: r.current } } };
      }
      case 'ContainerResource': {
        const source = spec.containerResource!;
        const fail = (inner: string): MetricError =>
          new MetricError(`failed to get ${source.container} container metric value: ${inner}`, {
            reason: 'FailedGetContainerResourceMetric',
            message: inner,
          });
        const r = this.resourceMetric(source.name, source.target, source.container, scale, namespace, pods, fail);
        return {
          ...r,
          status: {
            type: 'ContainerResource',
            containerResource: { name: source.name, container: source.container, current: r.current },
          },
        };
      }
      case 'Pods': {
        // upstream: GetRawMetric via the custom metrics API, which the sandbox does not serve (wording unconfirmed).
        const inner = `unable to get metric ${spec.pods!.metric.name}: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered`;
        throw new MetricError(`failed to get pods metric value: ${inner}`, {
          reason: 'FailedGetPodsMetric',
          message: inner,
        });
      }
      case 'Object': {
        const o = spec.object!;
        const inner = `unable to get metric ${o.metric.name}: ${o.describedObject.kind} on ${namespace} ${o.describedObject.name}/unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered`;
        throw new MetricError(`failed to get object metric value: ${inner}`, {
          reason: 'FailedGetObjectMetric',
          message: inner,
        });
      }
      case 'External': {
        const e = spec.external!;
        const inner = `unable to get external metric ${namespace}/${e.metric.name}/${goLabelSelector(e.metric.selector)}: unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${e.metric.name}.external.metrics.k8s.io)`;
        throw new MetricError(`failed to get ${e.metric.name} external metric value: ${inner}`, {
          reason: 'FailedGetExternalMetric',
          message: inner,
        });
      }
      default: {
        const inner = `unknown metric source type "${String(spec.type)}"`;
        throw new MetricError(inner, { reason: 'InvalidMetricSourceType', message: inner });
      }
    }
  }

  /** `computeStatusForResourceMetricGeneric`: a utilization or average-value target on CPU or memory. */
  private resourceMetric(
    name: string,
    target: MetricTarget,
    container: string,
    scale: Scale,
    namespace: string,
    pods: readonly Typed<Pod>[],
    fail: (inner: string) => MetricError,
  ): { replicas: number; name: string; current: MetricValueStatus } {
    const resource = name as ResourceName;
    const now = this.ctx.clock.now();
    const utilizationTarget = target.averageValue === undefined;
    if (utilizationTarget && target.averageUtilization === undefined)
      throw fail(
        'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set',
      );
    const what = utilizationTarget ? 'utilization' : 'usage';
    let raw: PodMetrics[];
    try {
      raw = this.fetchResourceMetrics(resource, namespace, scale.selector);
    } catch (e) {
      throw fail(`failed to get ${name} ${what}: unable to get metrics for resource ${name}: ${(e as Error).message}`);
    }
    try {
      if (!utilizationTarget) {
        const p = rawResourceReplicas(
          scale.replicas,
          quantityMilli(target.averageValue),
          resource,
          pods,
          raw,
          container,
          now,
        );
        return { replicas: p.replicas, name: `${name} resource`, current: { averageValue: milliQuantity(p.usage) } };
      }
      const p = resourceReplicas(scale.replicas, target.averageUtilization!, resource, pods, raw, container, now);
      return {
        replicas: p.replicas,
        name: container
          ? `${name} container resource utilization (percentage of request)`
          : `${name} resource utilization (percentage of request)`,
        current: { averageUtilization: p.utilization, averageValue: milliQuantity(p.rawAverage) },
      };
    } catch (e) {
      if (!(e instanceof CalculationError)) throw e;
      throw fail(`failed to get ${name} ${what}: ${e.message}`);
    }
  }

  /** `resourceMetricsClient.GetResourceMetric`'s fetch: the pods' metrics, or its error text. */
  private fetchResourceMetrics(resource: ResourceName, namespace: string, selector: string): PodMetrics[] {
    if (resource !== 'cpu' && resource !== 'memory') return [];
    const source = this.ctx.metrics;
    let items: PodMetrics[];
    try {
      if (!source) throw new MetricsUnavailableError(NO_METRICS_API);
      items = source.listPodMetrics(namespace, selector);
    } catch (e) {
      if (!(e instanceof MetricsUnavailableError)) throw e;
      throw new Error(`unable to fetch metrics from resource metrics API: ${e.message}`);
    }
    if (items.length === 0) throw new Error('no metrics returned from resource metrics API');
    return items;
  }

  /** `updateStatusIfNeeded`: one status write when something changed. */
  private updateStatusIfNeeded(hpa: Hpa, original: unknown, status: Record<string, unknown>): void {
    if (jsonEqual(original, status)) return;
    try {
      this.ctx.api.updateStatus({ ...(hpa as KubeObject), status });
    } catch (e) {
      this.recorder.event(hpa, 'Warning', 'FailedUpdateStatus', (e as Error).message);
      throw new Error(`failed to update status for ${hpa.metadata.name}: ${(e as Error).message}`);
    }
  }
}

/**
 * `setStatus`: the status as the controller writes it — rebuilt whole (1.32's controller keeps no
 * observedGeneration), `currentReplicas` omitted when 0 and `currentMetrics` null when there are none, as Go's JSON
 * of the v2 type has them.
 */
function wireStatus(
  status: HorizontalPodAutoscalerStatus,
  currentReplicas: number,
  desiredReplicas: number,
  metrics: MetricStatus[] | null,
  conditions: HorizontalPodAutoscalerCondition[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (status.lastScaleTime !== undefined) out.lastScaleTime = status.lastScaleTime;
  if (currentReplicas !== 0) out.currentReplicas = currentReplicas;
  out.desiredReplicas = desiredReplicas;
  out.currentMetrics = metrics === null ? null : cloneJson(metrics);
  if (conditions.length > 0) out.conditions = cloneJson(conditions);
  return out;
}

function applyCondition(
  set: (type: HpaConditionType, s: 'True' | 'False', reason: string, message: string) => void,
  c: ConditionUpdate,
): void {
  set(c.type, c.status, c.reason, c.message);
}
