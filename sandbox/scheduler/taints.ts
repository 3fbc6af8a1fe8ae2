/**
 * Taints and tolerations (`core/v1` `Toleration.ToleratesTaint`): a
 * toleration matches a taint when its effect is empty or equal, its key is
 * empty (with `Exists`) or equal, and its value is equal (`Equal`, the
 * default) or ignored (`Exists`).
 */
import type { Taint, Toleration } from 'kubernetes-types/core/v1';

export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** A node taint with the filter reason precomputed, so a failing filter allocates nothing. */
export interface NodeTaint {
  readonly key: string;
  readonly value: string;
  readonly effect: string;
  /** `node(s) had untolerated taint {key: value}` (TaintToleration's reason). */
  readonly reason: string;
}

export function toNodeTaint(t: Taint): NodeTaint {
  const value = t.value ?? '';
  return { key: t.key, value, effect: t.effect, reason: `node(s) had untolerated taint {${t.key}: ${value}}` };
}

export function toleratesTaint(t: Toleration, taint: { key: string; value: string; effect: string }): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === taint.value;
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerate(
  tolerations: readonly Toleration[],
  taint: { key: string; value: string; effect: string },
): boolean {
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** Index of the first NoSchedule/NoExecute taint the pod does not tolerate, or -1 (`FindMatchingUntoleratedTaint`). */
export function firstUntoleratedTaint(taints: readonly NodeTaint[], tolerations: readonly Toleration[]): number {
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i];
    if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
    if (!tolerationsTolerate(tolerations, t)) return i;
  }
  return -1;
}

/**
 * PreferNoSchedule taints the pod does not tolerate (TaintToleration's raw score); only tolerations with effect '' or
 * PreferNoSchedule count.
 */
export function intolerablePreferNoSchedule(
  taints: readonly NodeTaint[],
  preferTolerations: readonly Toleration[],
): number {
  let n = 0;
  for (const t of taints) if (t.effect === 'PreferNoSchedule' && !tolerationsTolerate(preferTolerations, t)) n++;
  return n;
}
