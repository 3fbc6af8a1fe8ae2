/**
 * ResourceQuota (upstream: plugin/pkg/admission/resourcequota: controller.go `CheckRequest`, and
 * pkg/quota/v1/evaluator/core: pods.go, services.go, persistent_volume_claims.go; generic object counts
 * `count/<resource>.<group>`). What an object charges to a quota, the usage the quota controller computes for
 * `status.used`, and the admission check on create: a quota whose `hard` a new object would exceed refuses it —
 * `exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1, limited: requests.cpu=1200m` — and
 * a pod that leaves out a quota'd cpu/memory request or limit is refused with `failed quota: compute: must specify
 * limits.cpu for: nginx`. Admitted objects are charged to `status.used` at once, as upstream's admission does.
 *
 * Scopes: `Terminating`, `NotTerminating`, `BestEffort`, `NotBestEffort` (spec.scopes or scopeSelector) and the
 * `PriorityClass` scope selector are honoured; `CrossNamespacePodAffinity` and the
 * `<class>.storageclass.storage.k8s.io/…` resources are not modelled. Only creation is charged (updates that would
 * change a usage, e.g. a Service turned LoadBalancer, are not re-checked).
 */
import { Quantity, compareQuantity, formatQuantity, parseQuantity } from '../../api/quantity';
import type { KubeObject } from '../../api/types';
import { podQosClass } from '../defaults/podQos';
import { isObj } from '../validation/access';
import { podTotals } from './limitRanger';

export type Usage = Map<string, Quantity>;

const ONE = (): Quantity => new Quantity(1_000_000_000n, 'DecimalSI');

/** The resource a quota key counts: `pods` → pods, `count/deployments.apps` → deployments in apps. */
export function resourceOfKey(key: string): { plural: string; group: string } | undefined {
  if (key.startsWith('count/')) {
    const rest = key.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0 ? { plural: rest, group: '' } : { plural: rest.slice(0, dot), group: rest.slice(dot + 1) };
  }
  if (POD_KEYS.has(key)) return { plural: 'pods', group: '' };
  if (key === 'services' || key === 'services.loadbalancers' || key === 'services.nodeports')
    return { plural: 'services', group: '' };
  if (key === 'requests.storage') return { plural: 'persistentvolumeclaims', group: '' };
  if (LEGACY_COUNTS.has(key)) return { plural: key, group: '' };
  return undefined;
}

const POD_KEYS = new Set([
  'pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);
const LEGACY_COUNTS = new Set([
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'replicationcontrollers',
  'resourcequotas',
]);

function q(v: unknown): Quantity | undefined {
  if (v instanceof Quantity) return v;
  return typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined;
}

/** `QuotaV1Pod`: terminal pods use nothing. */
function podCounts(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** What one object of `plural`/`group` charges (`Usage` of its evaluator), counts included. */
export function objectUsage(obj: KubeObject, plural: string, group: string): Usage {
  const u: Usage = new Map();
  if (group === '' && plural === 'pods') {
    if (!podCounts(obj)) return u;
    u.set('pods', ONE());
    u.set('count/pods', ONE());
    const requests = podTotals(obj, 'requests');
    const limits = podTotals(obj, 'limits');
    for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
      const req = q(requests[r]);
      if (req) {
        u.set(r, req);
        u.set(`requests.${r}`, req);
      }
      const lim = q(limits[r]);
      if (lim) u.set(`limits.${r}`, lim);
    }
    return u;
  }
  u.set(group === '' ? `count/${plural}` : `count/${plural}.${group}`, ONE());
  if (group !== '') return u;
  if (LEGACY_COUNTS.has(plural) || plural === 'services') u.set(plural, ONE());
  if (plural === 'services') {
    const type = isObj(obj.spec) ? obj.spec.type : undefined;
    const ports = isObj(obj.spec) && Array.isArray(obj.spec.ports) ? obj.spec.ports.length : 0;
    if (type === 'LoadBalancer') u.set('services.loadbalancers', ONE());
    if (type === 'NodePort' || type === 'LoadBalancer')
      u.set('services.nodeports', new Quantity(BigInt(ports) * 1_000_000_000n, 'DecimalSI'));
  }
  if (plural === 'persistentvolumeclaims') {
    const res = isObj(obj.spec) && isObj(obj.spec.resources) ? obj.spec.resources : {};
    const storage = q(isObj(res.requests) ? res.requests.storage : undefined);
    if (storage) u.set('requests.storage', storage);
  }
  return u;
}

// ---- scopes (pkg/quota/v1/evaluator/core/pods.go: podMatchesScopeFunc) --------------------------------------------

interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: string[];
}

function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = isObj(quota.spec) ? quota.spec : {};
  const out: ScopeRequirement[] = [];
  for (const s of Array.isArray(spec.scopes) ? spec.scopes : [])
    if (typeof s === 'string') out.push({ scopeName: s, operator: 'Exists', values: [] });
  const selector = isObj(spec.scopeSelector) ? spec.scopeSelector : {};
  for (const e of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    if (!isObj(e)) continue;
    out.push({
      scopeName: String(e.scopeName ?? ''),
      operator: String(e.operator ?? ''),
      values: Array.isArray(e.values) ? e.values.map(String) : [],
    });
  }
  return out;
}

function podMatchesScope(pod: KubeObject, s: ScopeRequirement): boolean {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const terminating = typeof spec.activeDeadlineSeconds === 'number';
  const bestEffort = podQosClass(pod) === 'BestEffort';
  switch (s.scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return bestEffort;
    case 'NotBestEffort':
      return !bestEffort;
    case 'PriorityClass': {
      const pc = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : undefined;
      if (s.operator === 'Exists') return pc !== undefined && pc !== '';
      if (s.operator === 'DoesNotExist') return pc === undefined || pc === '';
      if (s.operator === 'In') return pc !== undefined && s.values.includes(pc);
      if (s.operator === 'NotIn') return pc === undefined || !s.values.includes(pc);
      return false;
    }
    default:
      return false;
  }
}

/** Whether the quota covers this object at all: scoped quotas cover only the pods their scopes match. */
export function quotaCovers(quota: KubeObject, obj: KubeObject, plural: string, group: string): boolean {
  const scopes = scopeRequirements(quota);
  if (scopes.length === 0) return true;
  if (!(group === '' && plural === 'pods')) return false;
  return scopes.every((s) => podMatchesScope(obj, s));
}

/** Which of the quota's scoped keys a resource can charge: scoped quotas track only pod resources. */
function keysFor(quota: KubeObject, hard: Record<string, unknown>): string[] {
  const scoped = scopeRequirements(quota).length > 0;
  return Object.keys(hard).filter((k) => !scoped || POD_KEYS.has(k) || k === 'count/pods');
}

function hardOf(quota: KubeObject, from: 'spec' | 'status'): Record<string, unknown> {
  const holder = quota[from];
  return isObj(holder) && isObj(holder.hard) ? holder.hard : {};
}

function usedOf(quota: KubeObject): Record<string, unknown> {
  const status = quota.status;
  return isObj(status) && isObj(status.used) ? status.used : {};
}

/**
 * The quota controller's `status.used` for every key of `spec.hard`: the sum over the namespace's objects the quota
 * covers (`CalculateUsage`); `objects(plural, group)` lists them. Keys of resources it cannot count read 0.
 */
export function computeQuotaUsed(
  quota: KubeObject,
  objects: (plural: string, group: string) => readonly KubeObject[],
): Record<string, string> {
  const hard = hardOf(quota, 'spec');
  const used: Record<string, string> = {};
  for (const key of keysFor(quota, hard)) {
    const res = resourceOfKey(key);
    let total: Quantity | undefined;
    if (res) {
      for (const o of objects(res.plural, res.group)) {
        if (!quotaCovers(quota, o, res.plural, res.group)) continue;
        const v = objectUsage(o, res.plural, res.group).get(key);
        if (v) total = total ? new Quantity(total.nanos + v.nanos, total.format) : v;
      }
    }
    used[key] = formatQuantity(total ?? new Quantity(0n, formatOf(hard[key])));
  }
  return used;
}

function formatOf(v: unknown): Quantity['format'] {
  return q(v)?.format ?? 'DecimalSI';
}

/** `prettyPrint`: `key=value` sorted by key, joined by commas. */
function prettyPrint(list: ReadonlyMap<string, Quantity>): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k)!)}`)
    .join(',');
}

const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** `podEvaluator.Constraints`: with cpu/memory quota'd, every container must state them. */
function podConstraints(pod: KubeObject, required: readonly string[]): string | undefined {
  const need = required.filter((k) => VALIDATION_SET.has(k));
  if (need.length === 0) return undefined;
  const spec = isObj(pod.spec) ? pod.spec : {};
  const missing = new Map<string, Set<string>>();
  const all = [
    ...(Array.isArray(spec.containers) ? spec.containers : []),
    ...(Array.isArray(spec.initContainers) ? spec.initContainers : []),
  ].filter(isObj);
  for (const c of all) {
    const res = isObj(c.resources) ? c.resources : {};
    const requests = isObj(res.requests) ? res.requests : {};
    const limits = isObj(res.limits) ? res.limits : {};
    const has = new Set<string>();
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined) has.add(r).add(`requests.${r}`);
      if (limits[r] !== undefined) has.add(`limits.${r}`);
    }
    for (const k of need)
      if (!has.has(k)) (missing.get(k) ?? missing.set(k, new Set()).get(k)!).add(String(c.name ?? ''));
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((k) => `${k} for: ${[...missing.get(k)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

export interface QuotaCharge {
  quota: KubeObject;
  used: Record<string, string>;
}

/**
 * `CheckRequest` for the creation of `obj`: returns the new `status.used` of each quota it charges, or throws the
 * refusal message (the caller makes it a 403).
 */
export function checkQuotas(
  obj: KubeObject,
  plural: string,
  group: string,
  quotas: readonly KubeObject[],
): { charges: QuotaCharge[]; refusal?: string } {
  // No quota in the namespace: nothing to charge or check (upstream: the quota evaluator returns early too).
  if (quotas.length === 0) return { charges: [] };
  const delta = objectUsage(obj, plural, group);
  const charges: QuotaCharge[] = [];
  for (const quota of quotas) {
    const name = quota.metadata.name ?? '';
    if (!quotaCovers(quota, obj, plural, group)) continue;
    const hard = hardOf(quota, 'status');
    const hardKeys = keysFor(quota, hard);
    // The keys this kind of object can charge (`evaluator.MatchingResources`).
    const matching = hardKeys.filter((k) => {
      const r = resourceOfKey(k);
      return r !== undefined && r.plural === plural && r.group === group;
    });
    if (matching.length === 0) continue;
    if (group === '' && plural === 'pods') {
      const why = podConstraints(obj, matching);
      if (why) return { charges: [], refusal: `failed quota: ${name}: ${why}` };
    }
    const used = usedOf(quota);
    const unknown = matching.filter((k) => used[k] === undefined).sort();
    if (unknown.length > 0)
      return { charges: [], refusal: `status unknown for quota: ${name}, resources: ${unknown.join(',')}` };
    const requested = new Map<string, Quantity>();
    for (const k of matching) {
      const v = delta.get(k);
      if (v) requested.set(k, v);
    }
    if (requested.size === 0) continue;
    const exceeded: string[] = [];
    const newUsed: Record<string, string> = {};
    for (const [k, v] of Object.entries(used)) newUsed[k] = String(v);
    for (const [k, v] of requested) {
      const before = q(used[k]) ?? new Quantity(0n, v.format);
      // `Quantity.Add`: a zero takes the other operand's format.
      const after = new Quantity(before.nanos + v.nanos, before.nanos === 0n ? v.format : before.format);
      const limit = q(hard[k]);
      if (limit && compareQuantity(after, limit) > 0) exceeded.push(k);
      newUsed[k] = formatQuantity(after);
    }
    if (exceeded.length > 0) {
      const pick = (src: (k: string) => Quantity | undefined): Map<string, Quantity> =>
        new Map(exceeded.map((k) => [k, src(k) ?? new Quantity(0n, 'DecimalSI')]));
      return {
        charges: [],
        refusal:
          `exceeded quota: ${name}, requested: ${prettyPrint(pick((k) => requested.get(k)))}, ` +
          `used: ${prettyPrint(pick((k) => q(used[k])))}, limited: ${prettyPrint(pick((k) => q(hard[k])))}`,
      };
    }
    charges.push({ quota, used: newUsed });
  }
  return { charges };
}
