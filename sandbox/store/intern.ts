/**
 * Values that thousands of stored pods hold identically — the default tolerations, the projected
 * `kube-api-access` volume ServiceAccount admission adds, a container's resources, the `{}` security context,
 * status conditions written in the same second — kept once: the store swaps a pod's copy for the one already
 * stored (deep-frozen, so sharing is invisible to readers) before it freezes the pod. Every informer cache and
 * the change history hold the store's objects, so each saved copy is saved everywhere.
 *
 * Only the paths below are looked at (a pod's spec when it is new, its status when it is new); the values are
 * keyed by their JSON, and the table is bounded (cleared when full: later writes share again from then on).
 */
import type { KubeObject } from '../api/types';
import { deepFreeze } from '../util/json';

const MAX_VALUES = 20_000;

export class PodValueInterner {
  private readonly values = new Map<string, unknown>();

  /** Swaps shared sub-values into `pod` (a private copy about to be frozen) where `previous` does not share them. */
  internPod(pod: KubeObject, previous: KubeObject | undefined): void {
    const spec = pod.spec as PodSpecLike | undefined;
    if (spec && spec !== previous?.spec && !Object.isFrozen(spec)) this.spec(spec);
    const status = pod.status as PodStatusLike | undefined;
    if (status && status !== previous?.status && !Object.isFrozen(status)) this.status(status);
  }

  /** How many distinct values are kept. */
  get size(): number {
    return this.values.size;
  }

  private spec(spec: PodSpecLike): void {
    if (isObject(spec.securityContext)) spec.securityContext = this.value(spec.securityContext);
    if (Array.isArray(spec.tolerations)) spec.tolerations = this.value(spec.tolerations);
    if (Array.isArray(spec.volumes) && !Object.isFrozen(spec.volumes))
      for (const v of spec.volumes)
        if (isObject(v) && !Object.isFrozen(v) && isObject(v.projected)) v.projected = this.value(v.projected);
    for (const list of [spec.containers, spec.initContainers])
      if (Array.isArray(list))
        for (const c of list)
          if (isObject(c) && !Object.isFrozen(c) && isObject(c.resources)) c.resources = this.value(c.resources);
  }

  private status(status: PodStatusLike): void {
    const conditions = status.conditions;
    if (Array.isArray(conditions) && !Object.isFrozen(conditions))
      for (let i = 0; i < conditions.length; i++)
        if (isObject(conditions[i])) conditions[i] = this.value(conditions[i]);
    if (Array.isArray(status.hostIPs)) status.hostIPs = this.value(status.hostIPs);
  }

  private value<T>(v: T): T {
    const key = JSON.stringify(v);
    const known = this.values.get(key);
    if (known !== undefined) return known as T;
    if (this.values.size >= MAX_VALUES) this.values.clear();
    this.values.set(key, deepFreeze(v));
    return v;
  }
}

interface PodSpecLike {
  securityContext?: unknown;
  tolerations?: unknown;
  volumes?: { projected?: unknown }[];
  containers?: { resources?: unknown }[];
  initContainers?: { resources?: unknown }[];
}

interface PodStatusLike {
  conditions?: unknown[];
  hostIPs?: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
