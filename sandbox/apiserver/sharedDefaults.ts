/**
 * Sub-objects nearly every stored Pod carries, shared (issue 16: heap per pod). Admission gives every pod the same
 * two NoExecute tolerations (DefaultTolerationSeconds), the same projected source in its `kube-api-access-…` volume
 * (ServiceAccount admission) and defaulting an empty `securityContext`: ~1 KiB of objects per pod, identical in every
 * pod. On create, just before the pod is stored, a sub-object written exactly as the canonical one (same keys in the
 * same order, same values, no repeated key recorded by the decoder) is replaced by one deeply frozen canonical object.
 *
 * Safe because a stored object is deeply frozen (`ObjectStore.put` → `deepFreeze`) and every reader treats it as
 * immutable; nothing decides a change by comparing a sub-object's identity across two different pods (an old and a
 * new version of one pod share their spec whether or not it is canonical). What a client reads is unchanged: the
 * JSON of the shared object is the JSON of the one it replaces.
 */
import type { KubeObject } from '../api/types';
import { applyDefaultTolerations } from '../admission/defaults/tolerations';
import { tokenVolumeSource } from '../admission/plugins/serviceAccount';
import { deepFreeze, isPlainObject } from '../util/json';
import { repeatedKeyOrder } from '../util/keyOrder';

/** The tolerations DefaultTolerationSeconds gives a pod that has none, as the plugin itself writes them. */
const DEFAULT_TOLERATIONS: unknown = (() => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: {} } as KubeObject;
  applyDefaultTolerations(pod);
  return deepFreeze((pod.spec as Record<string, unknown>).tolerations);
})();

/** The projected source of a `kube-api-access-…` volume once defaulted (its `defaultMode` is already 420). */
const TOKEN_VOLUME_SOURCE: unknown = deepFreeze(tokenVolumeSource());

const EMPTY_SECURITY_CONTEXT: unknown = deepFreeze({});

/** `value` written exactly as `canonical`: same JSON text, keys in the same order, and no repeated key recorded. */
export function writtenAs(value: unknown, canonical: unknown): boolean {
  if (value === canonical) return true;
  if (typeof value !== 'object' || value === null || typeof canonical !== 'object' || canonical === null)
    return value === canonical;
  if (Array.isArray(canonical)) {
    if (!Array.isArray(value) || value.length !== canonical.length) return false;
    for (let i = 0; i < canonical.length; i++) if (!writtenAs(value[i], canonical[i])) return false;
    return true;
  }
  if (!isPlainObject(value) || Array.isArray(value)) return false;
  if (repeatedKeyOrder(value) !== undefined) return false;
  const keys = Object.keys(value);
  const want = Object.keys(canonical);
  if (keys.length !== want.length) return false;
  const c = canonical as Record<string, unknown>;
  for (let i = 0; i < want.length; i++) if (keys[i] !== want[i] || !writtenAs(value[want[i]], c[want[i]])) return false;
  return true;
}

/** Replaces a Pod's sub-objects equal to a canonical one (see the file's comment) by the shared frozen object. */
export function sharePodDefaults(pod: KubeObject): void {
  const spec = pod.spec;
  if (!isPlainObject(spec) || Object.isFrozen(spec)) return;
  if (spec.tolerations !== DEFAULT_TOLERATIONS && writtenAs(spec.tolerations, DEFAULT_TOLERATIONS))
    spec.tolerations = DEFAULT_TOLERATIONS;
  if (spec.securityContext !== EMPTY_SECURITY_CONTEXT && writtenAs(spec.securityContext, EMPTY_SECURITY_CONTEXT))
    spec.securityContext = EMPTY_SECURITY_CONTEXT;
  const volumes = spec.volumes;
  if (!Array.isArray(volumes) || Object.isFrozen(volumes)) return;
  for (const v of volumes) {
    if (!isPlainObject(v) || Object.isFrozen(v)) continue;
    if (v.projected !== TOKEN_VOLUME_SOURCE && writtenAs(v.projected, TOKEN_VOLUME_SOURCE))
      v.projected = TOKEN_VOLUME_SOURCE;
  }
}
