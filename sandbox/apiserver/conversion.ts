/**
 * Conversion between the versions of a built-in kind served from one store: `autoscaling/v1`
 * HorizontalPodAutoscalers are stored as `autoscaling/v2` (the storage version since 1.23) and converted on
 * every read and write, as kube-apiserver does through its internal version.
 *
 * upstream: pkg/apis/autoscaling/v1/conversion.go (`Convert_autoscaling_HorizontalPodAutoscaler_To_v1_…` and
 * back): the CPU utilization target is `targetCPUUtilizationPercentage` in v1 and a Resource metric in v2; what
 * v1 cannot express — other metrics, `behavior`, conditions, current metrics — travels in the
 * `autoscaling.alpha.kubernetes.io/*` annotations, so a round trip through v1 loses nothing.
 */
import type { ResourceType } from '../api/resources';
import { apiVersionOf } from '../api/resources';
import type { KubeObject } from '../api/types';
import type { Json } from './hpaV1Metrics';
import {
  behaviorFromAnnotation,
  behaviorToAnnotation,
  metricSpecFromV1,
  metricSpecToV1,
  metricStatusFromV1,
  metricStatusToV1,
  obj,
} from './hpaV1Metrics';

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';
const ROUND_TRIP = [METRICS, BEHAVIOR, CONDITIONS, CURRENT_METRICS];

/** autoscaling.DefaultCPUUtilization: what a v1 HPA without a CPU target aims at. */
const DEFAULT_CPU_UTILIZATION = 80;

function list(v: unknown): Json[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

/** A CPU Resource metric with an averageUtilization target: v1's targetCPUUtilizationPercentage. */
function isCpuUtilization(m: Json): boolean {
  const res = obj(m.resource);
  return m.type === 'Resource' && res.name === 'cpu' && typeof obj(res.target).averageUtilization === 'number';
}

/** The annotations without the round-trip keys (`DropRoundTripHorizontalPodAutoscalerAnnotations`). */
function withoutRoundTrip(annotations: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = { ...(annotations ?? {}) };
  for (const k of ROUND_TRIP) Reflect.deleteProperty(out, k);
  return out;
}

function condition(c: Json): Json {
  const out: Json = { type: c.type, status: c.status };
  if (c.lastTransitionTime !== undefined) out.lastTransitionTime = c.lastTransitionTime;
  if (c.reason !== undefined) out.reason = c.reason;
  if (c.message !== undefined) out.message = c.message;
  return out;
}

/** upstream: Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler (with its spec and status). */
function hpaToV1(o: KubeObject): KubeObject {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const annotations = withoutRoundTrip(o.metadata.annotations);
  const metrics = list(spec.metrics);
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => !isCpuUtilization(m));
  if (others.length > 0) annotations[METRICS] = JSON.stringify(others.map(metricSpecToV1));
  // The whole status is kept, CPU included: the annotation carries the raw value v1's field cannot.
  const current = list(status.currentMetrics);
  if (current.length > 0) annotations[CURRENT_METRICS] = JSON.stringify(current.map(metricStatusToV1));
  if (spec.behavior !== undefined && spec.behavior !== null)
    annotations[BEHAVIOR] = behaviorToAnnotation(spec.behavior);
  const conditions = list(status.conditions);
  if (conditions.length > 0) annotations[CONDITIONS] = JSON.stringify(conditions.map(condition));
  const v1Spec: Json = { scaleTargetRef: spec.scaleTargetRef };
  if (spec.minReplicas !== undefined) v1Spec.minReplicas = spec.minReplicas;
  v1Spec.maxReplicas = spec.maxReplicas;
  if (cpu !== undefined) v1Spec.targetCPUUtilizationPercentage = obj(obj(cpu.resource).target).averageUtilization;
  const v1Status: Json = {};
  for (const k of ['observedGeneration', 'lastScaleTime']) if (status[k] !== undefined) v1Status[k] = status[k];
  v1Status.currentReplicas = status.currentReplicas ?? 0;
  v1Status.desiredReplicas = status.desiredReplicas ?? 0;
  const currentCpu = current.find((m) => m.type === 'Resource' && obj(m.resource).name === 'cpu');
  const currentUtilization = obj(obj(currentCpu?.resource).current).averageUtilization;
  if (typeof currentUtilization === 'number') v1Status.currentCPUUtilizationPercentage = currentUtilization;
  const metadata = { ...o.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  return { apiVersion: 'autoscaling/v1', kind: o.kind, metadata, spec: v1Spec, status: v1Status };
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * upstream: Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler — the annotation's metrics
 * first and the CPU target last, 80% CPU when neither is there, the annotations' status replacing the fields', the
 * round-trip annotations dropped; a malformed annotation is ignored.
 */
export function hpaToV2(o: KubeObject): KubeObject {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const annotations = o.metadata.annotations ?? {};
  const metrics: Json[] = [];
  const others = parse(annotations[METRICS]);
  if (Array.isArray(others)) metrics.push(...others.map((m) => metricSpecFromV1(obj(m))));
  const cpuTarget = spec.targetCPUUtilizationPercentage;
  if (typeof cpuTarget === 'number' || metrics.length === 0)
    metrics.push({
      type: 'Resource',
      resource: {
        name: 'cpu',
        target: {
          type: 'Utilization',
          averageUtilization: typeof cpuTarget === 'number' ? cpuTarget : DEFAULT_CPU_UTILIZATION,
        },
      },
    });
  const v2Spec: Json = { scaleTargetRef: spec.scaleTargetRef };
  if (spec.minReplicas !== undefined) v2Spec.minReplicas = spec.minReplicas;
  v2Spec.maxReplicas = spec.maxReplicas;
  v2Spec.metrics = metrics;
  const behavior = behaviorFromAnnotation(annotations[BEHAVIOR]);
  if (behavior !== undefined) v2Spec.behavior = behavior;
  const metadata = { ...o.metadata };
  const kept = withoutRoundTrip(annotations);
  if (Object.keys(kept).length > 0) metadata.annotations = kept;
  else delete metadata.annotations;
  let v2Status: Json | undefined;
  if (o.status !== undefined) {
    v2Status = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas'])
      if (status[k] !== undefined) v2Status[k] = status[k];
    const currentV1 = parse(annotations[CURRENT_METRICS]);
    if (Array.isArray(currentV1)) v2Status.currentMetrics = currentV1.map((m) => metricStatusFromV1(obj(m)));
    else if (typeof status.currentCPUUtilizationPercentage === 'number')
      v2Status.currentMetrics = [
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
        },
      ];
    const conditions = parse(annotations[CONDITIONS]);
    if (Array.isArray(conditions)) v2Status.conditions = conditions.map((c) => condition(obj(c)));
  }
  return {
    apiVersion: 'autoscaling/v2',
    kind: o.kind,
    metadata,
    spec: v2Spec,
    ...(v2Status !== undefined ? { status: v2Status } : {}),
  };
}

/** `obj` as the version of `target` (same group and kind); kinds without conversions only change apiVersion. */
export function convertBuiltIn(o: KubeObject, target: ResourceType): KubeObject {
  const to = apiVersionOf(target);
  if (o.apiVersion === to) return o;
  if (target.group === 'autoscaling' && target.kind === 'HorizontalPodAutoscaler') {
    if (to === 'autoscaling/v1') return hpaToV1(o);
    if (to === 'autoscaling/v2') return hpaToV2(o);
  }
  return { ...o, apiVersion: to };
}
