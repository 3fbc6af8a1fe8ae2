/** Defaults of the remaining kinds: Namespace, Node, Secret, PVC, HPA, NetworkPolicy, LimitRange. */
import type { KubeObject } from '../../api/types';
import { arr, isObj, obj, type Obj } from '../validation/access';
import { canonicalizeQuantities } from './container';
import { eachObj, ensureObj } from './setDefault';

/** The server-set finalizer, phase and `kubernetes.io/metadata.name` label. */
export function defaultNamespace(ns: KubeObject): void {
  const spec = ensureObj(ns, 'spec');
  if (spec) spec.finalizers ??= ['kubernetes'];
  const status = ensureObj(ns, 'status');
  if (status) status.phase ??= 'Active';
  if (ns.metadata.name) ns.metadata.labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': ns.metadata.name };
}

export function defaultNode(node: KubeObject): void {
  const status = obj(node, 'status');
  if (status && isObj(status.capacity) && (status.allocatable === undefined || status.allocatable === null)) {
    status.allocatable = { ...status.capacity };
  }
}

export function defaultSecret(secret: KubeObject): void {
  secret.type ??= 'Opaque';
}

export function defaultPvc(spec: Obj): void {
  spec.volumeMode ??= 'Filesystem';
  const resources = obj(spec, 'resources');
  canonicalizeQuantities(obj(resources, 'requests'));
  canonicalizeQuantities(obj(resources, 'limits'));
}

/**
 * A ResourceQuota's `hard` quantities in canonical form (`cpu: "1000"` is stored as `1k`), as the API server's round
 * trip through resource.Quantity does (apimachinery resource/quantity.go: `MarshalJSON` writes `String()`).
 */
export function defaultResourceQuota(spec: Obj): void {
  canonicalizeQuantities(obj(spec, 'hard'));
}

/** A PersistentVolume's `capacity` in canonical form (the same round trip). */
export function defaultPersistentVolume(spec: Obj): void {
  canonicalizeQuantities(obj(spec, 'capacity'));
}

const DEFAULT_CPU_UTILIZATION = 80;

export function defaultHpa(spec: Obj): void {
  spec.minReplicas ??= 1;
  if (arr(spec, 'metrics').length === 0) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
      },
    ];
  }
  const behavior = obj(spec, 'behavior');
  if (!behavior) return;
  const up = ensureObj(behavior, 'scaleUp');
  if (up) {
    up.stabilizationWindowSeconds ??= 0;
    up.selectPolicy ??= 'Max';
    up.policies ??= [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ];
  }
  const down = ensureObj(behavior, 'scaleDown');
  if (down) {
    down.selectPolicy ??= 'Max';
    down.policies ??= [{ type: 'Percent', value: 100, periodSeconds: 15 }];
  }
}

export function defaultNetworkPolicy(spec: Obj): void {
  if (arr(spec, 'policyTypes').length === 0) {
    spec.policyTypes = arr(spec, 'egress').length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  for (const dir of ['ingress', 'egress']) {
    for (const rule of arr(spec, dir))
      eachObj(isObj(rule) ? rule : undefined, 'ports', (p) => {
        p.protocol ??= 'TCP';
      });
  }
}

/**
 * `SetDefaults_LimitRangeItem` (pkg/apis/core/v1/defaults.go): for `Container` items, `default` (the limit) falls back
 * to `max`, and `defaultRequest` to `default`, then to `min`.
 */
export function defaultLimitRange(spec: Obj): void {
  for (const item of arr(spec, 'limits')) {
    if (!isObj(item) || item.type !== 'Container') continue;
    const max = isObj(item.max) ? item.max : {};
    const min = isObj(item.min) ? item.min : {};
    const def = isObj(item.default) ? { ...item.default } : {};
    for (const [k, v] of Object.entries(max)) if (def[k] === undefined) def[k] = v;
    const req = isObj(item.defaultRequest) ? { ...item.defaultRequest } : {};
    for (const [k, v] of Object.entries(def)) if (req[k] === undefined) req[k] = v;
    for (const [k, v] of Object.entries(min)) if (req[k] === undefined) req[k] = v;
    if (Object.keys(def).length > 0) item.default = def;
    if (Object.keys(req).length > 0) item.defaultRequest = req;
  }
  // Every item's quantities in canonical form (`cpu: 0.5` is stored as `500m`), as the round trip through
  // resource.Quantity does (apimachinery resource/quantity.go: `MarshalJSON` writes `String()`).
  for (const item of arr(spec, 'limits')) {
    if (!isObj(item)) continue;
    for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'])
      canonicalizeQuantities(obj(item, key));
  }
}
