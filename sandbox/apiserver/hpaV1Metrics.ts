/**
 * The `autoscaling/v1` shapes of HPA metrics, statuses and behavior that travel in the round-trip annotations of a
 * v1 HorizontalPodAutoscaler — the v2beta1-style `MetricSpec`/`MetricStatus` (`targetAverageUtilization`,
 * `currentAverageValue`, `metricName`…) and, for `behavior`, the internal type marshalled without JSON tags
 * (`{"ScaleUp":{"StabilizationWindowSeconds":0,…}}`), as kube-apiserver writes them.
 *
 * upstream: pkg/apis/autoscaling/v1/conversion.go (`Convert_autoscaling_*MetricSource_To_v1_*`,
 * `Convert_v1_*MetricStatus_To_autoscaling_*` …); staging/src/k8s.io/api/autoscaling/v1/types.go for the shapes.
 */
import { isPlainObject } from '../util/json';

export type Json = Record<string, unknown>;

export function obj(v: unknown): Json {
  return isPlainObject(v) ? (v as Json) : {};
}

/** Copies the keys of `from` whose value is defined (Go's omitempty on pointers). */
function defined(from: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(from)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

/** A Go `resource.Quantity` that is not omitempty: the zero quantity marshals as "0". */
function quantity(v: unknown): unknown {
  return v ?? '0';
}

function describedObject(o: unknown): Json {
  const d = obj(o);
  return defined({ kind: d.kind, name: d.name, apiVersion: d.apiVersion });
}

/** A v2 MetricSpec as v1's (`Convert_autoscaling_MetricSpec_To_v1_MetricSpec`). */
export function metricSpecToV1(m: Json): Json {
  const out: Json = { type: m.type };
  const r = obj(m.resource);
  const cr = obj(m.containerResource);
  const p = obj(m.pods);
  const o = obj(m.object);
  const e = obj(m.external);
  if (m.resource !== undefined)
    out.resource = defined({
      name: r.name,
      targetAverageUtilization: obj(r.target).averageUtilization,
      targetAverageValue: obj(r.target).averageValue,
    });
  if (m.containerResource !== undefined)
    out.containerResource = defined({
      name: cr.name,
      targetAverageUtilization: obj(cr.target).averageUtilization,
      targetAverageValue: obj(cr.target).averageValue,
      container: cr.container,
    });
  if (m.pods !== undefined)
    out.pods = defined({
      metricName: obj(p.metric).name,
      targetAverageValue: quantity(obj(p.target).averageValue),
      selector: obj(p.metric).selector,
    });
  if (m.object !== undefined)
    out.object = defined({
      target: describedObject(o.describedObject),
      metricName: obj(o.metric).name,
      targetValue: quantity(obj(o.target).value),
      selector: obj(o.metric).selector,
      averageValue: obj(o.target).averageValue,
    });
  if (m.external !== undefined)
    out.external = defined({
      metricName: obj(e.metric).name,
      metricSelector: obj(e.metric).selector,
      targetValue: obj(e.target).value,
      targetAverageValue: obj(e.target).averageValue,
    });
  return out;
}

/** A v1 MetricSpec (from the `metrics` annotation) as v2's (`Convert_v1_MetricSpec_To_autoscaling_MetricSpec`). */
export function metricSpecFromV1(m: Json): Json {
  const out: Json = { type: m.type };
  const metric = (name: unknown, selector: unknown): Json => defined({ name, selector });
  if (isPlainObject(m.resource) || isPlainObject(m.containerResource)) {
    const r = obj(m.resource ?? m.containerResource);
    const util = r.targetAverageUtilization;
    const target = defined({
      type: util === undefined || util === null ? 'AverageValue' : 'Utilization',
      averageUtilization: util,
      averageValue: r.targetAverageValue,
    });
    if (isPlainObject(m.resource)) out.resource = { name: r.name, target };
    else out.containerResource = { name: r.name, target, container: r.container };
  }
  if (isPlainObject(m.pods)) {
    const p = obj(m.pods);
    out.pods = {
      metric: metric(p.metricName, p.selector),
      target: { type: 'AverageValue', averageValue: quantity(p.targetAverageValue) },
    };
  }
  if (isPlainObject(m.object)) {
    const o = obj(m.object);
    out.object = {
      describedObject: describedObject(o.target),
      metric: metric(o.metricName, o.selector),
      target: defined({
        type: o.averageValue === undefined || o.averageValue === null ? 'Value' : 'AverageValue',
        value: quantity(o.targetValue),
        averageValue: o.averageValue,
      }),
    };
  }
  if (isPlainObject(m.external)) {
    const e = obj(m.external);
    out.external = {
      metric: metric(e.metricName, e.metricSelector),
      target: defined({
        type: e.targetValue === undefined || e.targetValue === null ? 'AverageValue' : 'Value',
        value: e.targetValue,
        averageValue: e.targetAverageValue,
      }),
    };
  }
  return out;
}

/** A v2 MetricStatus as v1's (`Convert_autoscaling_MetricStatus_To_v1_MetricStatus`). */
export function metricStatusToV1(m: Json): Json {
  const out: Json = { type: m.type };
  const r = obj(m.resource);
  const cr = obj(m.containerResource);
  const p = obj(m.pods);
  const o = obj(m.object);
  const e = obj(m.external);
  if (m.resource !== undefined)
    out.resource = defined({
      name: r.name,
      currentAverageUtilization: obj(r.current).averageUtilization,
      currentAverageValue: quantity(obj(r.current).averageValue),
    });
  if (m.containerResource !== undefined)
    out.containerResource = defined({
      name: cr.name,
      currentAverageUtilization: obj(cr.current).averageUtilization,
      currentAverageValue: quantity(obj(cr.current).averageValue),
      container: cr.container,
    });
  if (m.pods !== undefined)
    out.pods = defined({
      metricName: obj(p.metric).name,
      currentAverageValue: quantity(obj(p.current).averageValue),
      selector: obj(p.metric).selector,
    });
  if (m.object !== undefined)
    out.object = defined({
      target: describedObject(o.describedObject),
      metricName: obj(o.metric).name,
      currentValue: quantity(obj(o.current).value),
      selector: obj(o.metric).selector,
      averageValue: obj(o.current).averageValue,
    });
  if (m.external !== undefined)
    out.external = defined({
      metricName: obj(e.metric).name,
      metricSelector: obj(e.metric).selector,
      currentValue: quantity(obj(e.current).value),
      currentAverageValue: obj(e.current).averageValue,
    });
  return out;
}

/** A v1 MetricStatus (from `current-metrics`) as v2's (`Convert_v1_MetricStatus_To_autoscaling_MetricStatus`). */
export function metricStatusFromV1(m: Json): Json {
  const out: Json = { type: m.type };
  const metric = (name: unknown, selector: unknown): Json => defined({ name, selector });
  if (isPlainObject(m.resource) || isPlainObject(m.containerResource)) {
    const r = obj(m.resource ?? m.containerResource);
    const current = defined({
      averageValue: quantity(r.currentAverageValue),
      averageUtilization: r.currentAverageUtilization,
    });
    if (isPlainObject(m.resource)) out.resource = { name: r.name, current };
    else out.containerResource = { name: r.name, current, container: r.container };
  }
  if (isPlainObject(m.pods)) {
    const p = obj(m.pods);
    out.pods = {
      metric: metric(p.metricName, p.selector),
      current: { averageValue: quantity(p.currentAverageValue) },
    };
  }
  if (isPlainObject(m.object)) {
    const o = obj(m.object);
    out.object = {
      describedObject: describedObject(o.target),
      metric: metric(o.metricName, o.selector),
      current: defined({ value: quantity(o.currentValue), averageValue: o.averageValue }),
    };
  }
  if (isPlainObject(m.external)) {
    const e = obj(m.external);
    out.external = {
      metric: metric(e.metricName, e.metricSelector),
      current: defined({ value: quantity(e.currentValue), averageValue: e.currentAverageValue }),
    };
  }
  return out;
}

const RULE_FIELDS = ['StabilizationWindowSeconds', 'SelectPolicy', 'Policies'] as const;
const POLICY_FIELDS = ['Type', 'Value', 'PeriodSeconds'] as const;

/** Go's encoding/json matches field names case-insensitively on decode. */
function field(o: Json, name: string): unknown {
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

function rulesToGo(rules: unknown): unknown {
  if (!isPlainObject(rules)) return null;
  const r = obj(rules);
  const out: Json = {};
  for (const f of RULE_FIELDS) {
    const v = field(r, f);
    if (f === 'Policies')
      out[f] = Array.isArray(v)
        ? v.map((p) => Object.fromEntries(POLICY_FIELDS.map((k) => [k, field(obj(p), k) ?? 0])))
        : null;
    else out[f] = v ?? null;
  }
  return out;
}

/**
 * `spec.behavior` as the `behavior` annotation: the internal HorizontalPodAutoscalerBehavior marshalled by
 * encoding/json without tags, so Go's field names and `null` for unset pointers (upstream's own TODO notes it).
 */
export function behaviorToAnnotation(behavior: unknown): string {
  const b = obj(behavior);
  return JSON.stringify({ ScaleUp: rulesToGo(field(b, 'scaleUp')), ScaleDown: rulesToGo(field(b, 'scaleDown')) });
}

function rulesFromGo(rules: unknown): Json | undefined {
  if (!isPlainObject(rules)) return undefined;
  const r = obj(rules);
  const out: Json = {};
  for (const f of RULE_FIELDS) {
    const v = field(r, f);
    if (v === undefined || v === null) continue;
    const json = f[0].toLowerCase() + f.slice(1);
    out[json] = Array.isArray(v)
      ? v.map((p) => Object.fromEntries(POLICY_FIELDS.map((k) => [k[0].toLowerCase() + k.slice(1), field(obj(p), k)])))
      : v;
  }
  return out;
}

/** The `behavior` annotation back as `spec.behavior`; undefined when it is malformed or empty (left out). */
export function behaviorFromAnnotation(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const out = defined({
    scaleUp: rulesFromGo(field(obj(parsed), 'scaleUp')),
    scaleDown: rulesFromGo(field(obj(parsed), 'scaleDown')),
  });
  return Object.keys(out).length > 0 ? out : undefined;
}
