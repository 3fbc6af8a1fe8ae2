/**
 * The LimitRanger admission plugin (upstream: plugin/pkg/admission/limitranger/admission.go). On pod creation
 * (never on update: containers are immutable) every LimitRange of the namespace first fills in the container
 * requests and limits the pod leaves out from its `Container` item's `defaultRequest` / `default`
 * (`PodMutateLimitFunc`, recording what it set in the `kubernetes.io/limit-ranger` annotation), then checks the
 * `min`, `max` and `maxLimitRequestRatio` of its `Container` and `Pod` items (`PodValidateLimitFunc`), with
 * upstream's messages (`maximum cpu usage per Container is 1, but limit is 2`). PVC `storage` min/max are checked
 * too (`PersistentVolumeClaimValidateLimitFunc`).
 */
import { Quantity, compareQuantity, formatQuantity, parseQuantity } from '../../api/quantity';
import type { KubeObject } from '../../api/types';
import { isObj, type Obj } from '../validation/access';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type ResourceList = Record<string, unknown>;

interface LimitItem {
  type: string;
  max: ResourceList;
  min: ResourceList;
  default: ResourceList;
  defaultRequest: ResourceList;
  maxLimitRequestRatio: ResourceList;
}

function list(v: unknown): ResourceList {
  return isObj(v) ? v : {};
}

function itemsOf(range: KubeObject): LimitItem[] {
  const spec = isObj(range.spec) ? range.spec : {};
  const limits = Array.isArray(spec.limits) ? spec.limits : [];
  return limits.filter(isObj).map((i) => ({
    type: typeof i.type === 'string' ? i.type : '',
    max: list(i.max),
    min: list(i.min),
    default: list(i.default),
    defaultRequest: list(i.defaultRequest),
    maxLimitRequestRatio: list(i.maxLimitRequestRatio),
  }));
}

interface ContainerRef {
  container: Obj;
  /** `container` or `init container`, as the annotation names it. */
  label: string;
}

function podContainers(pod: KubeObject): ContainerRef[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const of = (key: string, label: string): ContainerRef[] =>
    (Array.isArray(spec[key]) ? (spec[key] as unknown[]) : []).filter(isObj).map((container) => ({ container, label }));
  return [...of('containers', 'container'), ...of('initContainers', 'init container')];
}

function resourcesOf(c: Obj): { requests: ResourceList; limits: ResourceList } {
  const r = isObj(c.resources) ? c.resources : {};
  return { requests: list(r.requests), limits: list(r.limits) };
}

/** `defaultContainerResourceRequirements`: the `Container` items' defaults, later items winning. */
function defaultRequirements(range: KubeObject): { requests: ResourceList; limits: ResourceList } {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  for (const item of itemsOf(range)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  return { requests, limits };
}

/**
 * `PodMutateLimitFunc` for each LimitRange in turn: sets the missing requests and limits of every container and
 * writes the `kubernetes.io/limit-ranger` annotation (`LimitRanger plugin set: cpu, memory request for container
 * nginx; cpu limit for container nginx`).
 */
export function applyLimitRangeDefaults(pod: KubeObject, ranges: readonly KubeObject[]): void {
  for (const range of ranges) {
    const defaults = defaultRequirements(range);
    const notes: string[] = [];
    for (const { container, label } of podContainers(pod)) {
      const resources = isObj(container.resources) ? container.resources : (container.resources = {});
      const limits = isObj(resources.limits) ? resources.limits : (resources.limits = {});
      const requests = isObj(resources.requests) ? resources.requests : (resources.requests = {});
      const setLimits: string[] = [];
      const setRequests: string[] = [];
      for (const [k, v] of Object.entries(defaults.limits)) {
        if (limits[k] === undefined) {
          limits[k] = v;
          setLimits.push(k);
        }
      }
      for (const [k, v] of Object.entries(defaults.requests)) {
        if (requests[k] === undefined) {
          requests[k] = v;
          setRequests.push(k);
        }
      }
      // Go leaves the emptied maps out when serialising.
      if (Object.keys(limits).length === 0) delete resources.limits;
      if (Object.keys(requests).length === 0) delete resources.requests;
      const name = typeof container.name === 'string' ? container.name : '';
      if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${label} ${name}`);
      if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${label} ${name}`);
    }
    if (notes.length > 0) {
      pod.metadata.annotations = {
        ...pod.metadata.annotations,
        [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}`,
      };
    }
  }
}

function q(v: unknown): Quantity | undefined {
  if (v instanceof Quantity) return v;
  return typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined;
}

function text(v: Quantity): string {
  return formatQuantity(v);
}

/** The value compared: milli-units when the enforced value allows it, as `requestLimitEnforcedValues`. */
function minConstraint(type: string, name: string, enforced: Quantity, req: ResourceList, lim: ResourceList): string[] {
  const r = q(req[name]);
  const l = q(lim[name]);
  const e = text(enforced);
  if (!r) return [`minimum ${name} usage per ${type} is ${e}.  No request is specified`];
  if (compareQuantity(r, enforced) < 0) return [`minimum ${name} usage per ${type} is ${e}, but request is ${text(r)}`];
  if (l && compareQuantity(l, enforced) < 0)
    return [`minimum ${name} usage per ${type} is ${e}, but limit is ${text(l)}`];
  return [];
}

function maxConstraint(type: string, name: string, enforced: Quantity, req: ResourceList, lim: ResourceList): string[] {
  const r = q(req[name]);
  const l = q(lim[name]);
  const e = text(enforced);
  if (!l) return [`maximum ${name} usage per ${type} is ${e}.  No limit is specified`];
  if (compareQuantity(l, enforced) > 0) return [`maximum ${name} usage per ${type} is ${e}, but limit is ${text(l)}`];
  if (r && compareQuantity(r, enforced) > 0)
    return [`maximum ${name} usage per ${type} is ${e}, but request is ${text(r)}`];
  return [];
}

function maxRequestConstraint(type: string, name: string, enforced: Quantity, req: ResourceList): string[] {
  const r = q(req[name]);
  const e = text(enforced);
  if (!r) return [`maximum ${name} usage per ${type} is ${e}.  No request is specified`];
  if (compareQuantity(r, enforced) > 0) return [`maximum ${name} usage per ${type} is ${e}, but request is ${text(r)}`];
  return [];
}

/** Go's `%f`: six decimals. */
function goFloat(n: number): string {
  return n.toFixed(6);
}

function ratioConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string[] {
  const r = q(req[name]);
  const l = q(lim[name]);
  const e = text(enforced);
  if (!r || r.nanos === 0n)
    return [`${name} max limit to request ratio per ${type} is ${e}, but no request is specified or request is 0`];
  if (!l || l.nanos === 0n)
    return [`${name} max limit to request ratio per ${type} is ${e}, but no limit is specified or limit is 0`];
  const observed = Number(l.nanos) / Number(r.nanos);
  if (observed * 1e9 > Number(enforced.nanos))
    return [`${name} max limit to request ratio per ${type} is ${e}, but provided ratio is ${goFloat(observed)}`];
  return [];
}

function checkItem(item: LimitItem, req: ResourceList, lim: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(item.min)) {
    const e = q(v);
    if (e) out.push(...minConstraint(item.type, k, e, req, lim));
  }
  for (const [k, v] of Object.entries(item.max)) {
    const e = q(v);
    if (e) out.push(...maxConstraint(item.type, k, e, req, lim));
  }
  for (const [k, v] of Object.entries(item.maxLimitRequestRatio)) {
    const e = q(v);
    if (e) out.push(...ratioConstraint(item.type, k, e, req, lim));
  }
  return out;
}

/** Adds like `Quantity.Add`: the sum keeps the first operand's format. */
function addTo(total: Map<string, Quantity>, resources: ResourceList): void {
  for (const [k, v] of Object.entries(resources)) {
    const x = q(v);
    if (!x) continue;
    const had = total.get(k);
    total.set(k, had ? new Quantity(had.nanos + x.nanos, had.format) : x);
  }
}

function maxInto(total: Map<string, Quantity>, resources: Map<string, Quantity>): void {
  for (const [k, v] of resources) if (!total.has(k) || compareQuantity(v, total.get(k)!) > 0) total.set(k, v);
}

/**
 * `podRequests` / `podLimits` of the plugin: the sum over containers and sidecars, or the largest init container
 * (plus the sidecars started before it) when that is more.
 */
export function podTotals(pod: KubeObject, key: 'requests' | 'limits'): ResourceList {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const total = new Map<string, Quantity>();
  for (const c of (Array.isArray(spec.containers) ? spec.containers : []).filter(isObj))
    addTo(total, resourcesOf(c)[key]);
  const sidecars = new Map<string, Quantity>();
  const init = new Map<string, Quantity>();
  for (const c of (Array.isArray(spec.initContainers) ? spec.initContainers : []).filter(isObj)) {
    const own = resourcesOf(c)[key];
    let effective: Map<string, Quantity>;
    if (c.restartPolicy === 'Always') {
      addTo(total, own);
      addTo(sidecars, own);
      effective = sidecars;
    } else {
      effective = new Map(sidecars);
      addTo(effective, own);
    }
    maxInto(init, effective);
  }
  maxInto(total, init);
  const out: ResourceList = {};
  for (const [k, v] of total) out[k] = v;
  return out;
}

/**
 * `PodValidateLimitFunc` against each LimitRange in turn: the messages of the first range the pod breaks, empty when
 * it fits them all (`runLimitFunc` returns at the first failing range).
 */
export function limitRangeViolations(obj: KubeObject, ranges: readonly KubeObject[]): string[] {
  for (const range of ranges) {
    const errs: string[] = [];
    for (const item of itemsOf(range)) {
      if (obj.kind === 'Pod' && item.type === 'Container') {
        for (const { container } of podContainers(obj)) {
          const { requests, limits } = resourcesOf(container);
          errs.push(...checkItem(item, requests, limits));
        }
      } else if (obj.kind === 'Pod' && item.type === 'Pod') {
        errs.push(...checkItem(item, podTotals(obj, 'requests'), podTotals(obj, 'limits')));
      } else if (obj.kind === 'PersistentVolumeClaim' && item.type === 'PersistentVolumeClaim') {
        const spec = isObj(obj.spec) ? obj.spec : {};
        const requests = list(isObj(spec.resources) ? spec.resources.requests : undefined);
        for (const [k, v] of Object.entries(item.min)) {
          const e = q(v);
          if (e) errs.push(...minConstraint(item.type, k, e, requests, {}));
        }
        for (const [k, v] of Object.entries(item.max)) {
          const e = q(v);
          if (e) errs.push(...maxRequestConstraint(item.type, k, e, requests));
        }
      }
    }
    if (errs.length > 0) return errs;
  }
  return [];
}

/** `utilerrors.NewAggregate(errs).Error()`: one message alone, several in brackets. */
export function aggregateMessage(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}
