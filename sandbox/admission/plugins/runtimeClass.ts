/**
 * The RuntimeClass admission plugin (upstream: plugin/pkg/admission/runtimeclass/admission.go), on pod creation only:
 * a pod naming a RuntimeClass that does not exist is refused; the class's `overhead.podFixed` becomes the pod's
 * `spec.overhead` (a different overhead already set is refused), and its `scheduling.nodeSelector` and
 * `scheduling.tolerations` are merged into the pod's (a conflicting node selector value is refused).
 */
import { compareQuantity, parseQuantity } from '../../api/quantity';
import type { KubeObject } from '../../api/types';
import { jsonEqual } from '../../util/json';
import { arr, isObj } from '../validation/access';

type Spec = Record<string, unknown>;

const quantity = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined);

/** Resource lists equal as quantities (`apiequality.Semantic.DeepEqual`: `100m` equals `0.1`). */
function sameResources(a: unknown, b: unknown): boolean {
  const x = isObj(a) ? a : {};
  const y = isObj(b) ? b : {};
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => {
    if (!(k in y)) return false;
    const qa = quantity(x[k]);
    const qb = quantity(y[k]);
    return qa !== undefined && qb !== undefined ? compareQuantity(qa, qb) === 0 : jsonEqual(x[k], y[k]);
  });
}

function runtimeClassName(spec: Spec): string | undefined {
  return typeof spec.runtimeClassName === 'string' ? spec.runtimeClassName : undefined;
}

/** upstream: prepareObjects — the refusal when the named class does not exist. */
function missing(name: string, rc: KubeObject | undefined): string | undefined {
  return rc === undefined ? `pod rejected: RuntimeClass "${name}" not found` : undefined;
}

/**
 * `Admit` (mutating): setOverhead then setScheduling. Returns the refusal (for `admission.NewForbidden`), or undefined.
 */
export function admitRuntimeClass(spec: Spec, lookup: (name: string) => KubeObject | undefined): string | undefined {
  const name = runtimeClassName(spec);
  if (name === undefined) return undefined;
  const rc = lookup(name);
  const refusal = missing(name, rc);
  if (refusal !== undefined || rc === undefined) return refusal;
  const podFixed = isObj(rc.overhead) && isObj(rc.overhead.podFixed) ? rc.overhead.podFixed : undefined;
  if (podFixed !== undefined) {
    // upstream: setOverhead
    if (isObj(spec.overhead) && Object.keys(spec.overhead).length > 0 && !sameResources(podFixed, spec.overhead))
      return "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
    spec.overhead = { ...podFixed };
  }
  const scheduling = isObj(rc.scheduling) ? rc.scheduling : undefined;
  if (scheduling === undefined) return undefined;
  // upstream: setScheduling
  const selector = isObj(scheduling.nodeSelector) ? (scheduling.nodeSelector as Record<string, string>) : {};
  if (!isObj(spec.nodeSelector)) {
    if (Object.keys(selector).length > 0) spec.nodeSelector = { ...selector };
  } else {
    const podSelector = spec.nodeSelector as Record<string, string>;
    for (const [key, value] of Object.entries(selector)) {
      const podValue = podSelector[key];
      if (podValue !== undefined && podValue !== value)
        return `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`;
      podSelector[key] = value;
    }
  }
  const extra = arr(scheduling, 'tolerations');
  if (extra.length > 0) {
    // upstream: pkg/util/tolerations MergeTolerations keeps one of equal tolerations (a toleration covered by a
    // broader one is kept here; upstream drops it).
    const merged = [...arr(spec, 'tolerations')];
    for (const t of extra) if (!merged.some((m) => jsonEqual(m, t))) merged.push(t);
    spec.tolerations = merged;
  }
  return undefined;
}

/** `Validate`: the class still exists and the pod's overhead is the class's (upstream: validateOverhead). */
export function validateRuntimeClass(spec: Spec, lookup: (name: string) => KubeObject | undefined): string | undefined {
  const name = runtimeClassName(spec);
  const rc = name === undefined ? undefined : lookup(name);
  if (name !== undefined) {
    const refusal = missing(name, rc);
    if (refusal !== undefined) return refusal;
  }
  const podFixed = rc && isObj(rc.overhead) && isObj(rc.overhead.podFixed) ? rc.overhead.podFixed : undefined;
  if (podFixed !== undefined) {
    if (!sameResources(podFixed, spec.overhead))
      return "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
  } else if (spec.overhead !== undefined && spec.overhead !== null) {
    return 'pod rejected: Overhead set without corresponding RuntimeClass defined Overhead';
  }
  return undefined;
}
