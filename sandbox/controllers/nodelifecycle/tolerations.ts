/**
 * Which tolerations let a pod stay on a node with NoExecute taints (upstream `GetMatchingTolerations`,
 * `getMinTolerationTime`).
 */
import type { Taint, Toleration } from 'kubernetes-types/core/v1';

/** `Toleration.ToleratesTaint`: effect and key match (empty = any), then Exists, or Equal on the value. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  const operator = t.operator ?? '';
  if (operator === 'Exists') return true;
  if (operator === '' || operator === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return false;
}

/** For each taint the first toleration that tolerates it; undefined when some taint is not tolerated. */
export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): Toleration[] | undefined {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (!t) return undefined;
    used.push(t);
  }
  return used;
}

/** The shortest `tolerationSeconds` in ms (≤0 counts as 0); `undefined` when every one tolerates forever. */
export function minTolerationMs(used: readonly Toleration[]): number | undefined {
  if (used.length === 0) return 0;
  let min: number | undefined;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    const ms = Math.max(0, t.tolerationSeconds) * 1000;
    if (min === undefined || ms < min) min = ms;
  }
  return min;
}
