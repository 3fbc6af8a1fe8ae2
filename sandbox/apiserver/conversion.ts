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
import { isPlainObject } from '../util/json';

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return isPlainObject(v) ? (v as Json) : {};
}

function isCpuUtilization(m: Json): boolean {
  const res = obj(m.resource);
  return m.type === 'Resource' && res.name === 'cpu' && obj(res.target).type === 'Utilization';
}

function hpaToV1(o: KubeObject): KubeObject {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const annotations: Record<string, string> = { ...(o.metadata.annotations ?? {}) };
  const metrics = Array.isArray(spec.metrics) ? (spec.metrics as Json[]) : [];
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  if (others.length > 0) annotations[METRICS] = JSON.stringify(others);
  if (spec.behavior !== undefined) annotations[BEHAVIOR] = JSON.stringify(spec.behavior);
  const current = Array.isArray(status.currentMetrics) ? (status.currentMetrics as Json[]) : [];
  const currentCpu = current.find((m) => m.type === 'Resource' && obj(m.resource).name === 'cpu');
  const otherCurrent = current.filter((m) => m !== currentCpu);
  if (otherCurrent.length > 0) annotations[CURRENT_METRICS] = JSON.stringify(otherCurrent);
  if (Array.isArray(status.conditions) && status.conditions.length > 0)
    annotations[CONDITIONS] = JSON.stringify(status.conditions);
  const v1Spec: Json = { scaleTargetRef: spec.scaleTargetRef };
  if (spec.minReplicas !== undefined) v1Spec.minReplicas = spec.minReplicas;
  v1Spec.maxReplicas = spec.maxReplicas;
  const target = obj(obj(cpu?.resource).target).averageUtilization;
  if (typeof target === 'number') v1Spec.targetCPUUtilizationPercentage = target;
  const v1Status: Json = {};
  for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas'])
    if (status[k] !== undefined) v1Status[k] = status[k];
  const currentUtilization = obj(obj(currentCpu?.resource).current).averageUtilization;
  if (typeof currentUtilization === 'number') v1Status.currentCPUUtilizationPercentage = currentUtilization;
  const metadata = { ...o.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return {
    apiVersion: 'autoscaling/v1',
    kind: o.kind,
    metadata,
    spec: v1Spec,
    ...(o.status !== undefined ? { status: { currentReplicas: 0, desiredReplicas: 0, ...v1Status } } : {}),
  };
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function hpaToV2(o: KubeObject): KubeObject {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const annotations = { ...(o.metadata.annotations ?? {}) };
  const metrics: unknown[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number')
    metrics.push({
      type: 'Resource',
      resource: {
        name: 'cpu',
        target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage },
      },
    });
  const others = parse(annotations[METRICS]);
  if (Array.isArray(others)) metrics.push(...(others as unknown[]));
  const behavior = parse(annotations[BEHAVIOR]);
  const conditions = parse(annotations[CONDITIONS]);
  const currentOthers = parse(annotations[CURRENT_METRICS]);
  for (const k of [METRICS, BEHAVIOR, CONDITIONS, CURRENT_METRICS]) Reflect.deleteProperty(annotations, k);
  const v2Spec: Json = { scaleTargetRef: spec.scaleTargetRef };
  if (spec.minReplicas !== undefined) v2Spec.minReplicas = spec.minReplicas;
  v2Spec.maxReplicas = spec.maxReplicas;
  if (metrics.length > 0) v2Spec.metrics = metrics;
  if (isPlainObject(behavior)) v2Spec.behavior = behavior;
  const metadata = { ...o.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  let v2Status: Json | undefined;
  if (o.status !== undefined) {
    v2Status = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas'])
      if (status[k] !== undefined) v2Status[k] = status[k];
    const current: unknown[] = [];
    if (typeof status.currentCPUUtilizationPercentage === 'number')
      current.push({
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
      });
    if (Array.isArray(currentOthers)) current.push(...(currentOthers as unknown[]));
    if (current.length > 0) v2Status.currentMetrics = current;
    if (Array.isArray(conditions)) v2Status.conditions = conditions;
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
