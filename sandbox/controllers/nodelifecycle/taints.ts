/**
 * The taints the node lifecycle controller owns (upstream
 * `nodeConditionToTaintKeyStatusMap`, `doNoScheduleTaintingPass`,
 * `doNoExecuteTaintingPass`): which ones a node should carry for its
 * conditions and `spec.unschedulable`, and the node's taint list after
 * reconciling them.
 */
import type { Node, NodeCondition, Taint } from 'kubernetes-types/core/v1';
import { formatTimestamp } from '../../clock/clock';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';

/** Condition type → condition status → taint key. */
const CONDITION_TAINTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: TAINT_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_PID_PRESSURE },
};

const CONDITION_TAINT_KEYS: ReadonlySet<string> = new Set(
  Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)),
);

export interface TaintKey {
  key: string;
  effect: 'NoSchedule' | 'NoExecute';
}

export function nodeCondition(node: Node, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}

/**
 * The controller-owned taints `node` should have. `noExecute` is false in
 * full-disruption mode (every node down), where upstream stops tainting and
 * evicting altogether.
 */
export function desiredTaints(node: Node, noExecute: boolean): TaintKey[] {
  const out: TaintKey[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key) out.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) out.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  const ready = nodeCondition(node, 'Ready')?.status;
  if (noExecute && ready === 'False') out.push({ key: TAINT_NOT_READY, effect: 'NoExecute' });
  if (noExecute && ready === 'Unknown') out.push({ key: TAINT_UNREACHABLE, effect: 'NoExecute' });
  return out;
}

/** Taints this controller adds and removes; anything else on the node (a user's taints) is left alone. */
function isOwned(t: Taint): boolean {
  if (t.effect === 'NoSchedule') return t.key === TAINT_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key);
  if (t.effect === 'NoExecute') return t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE;
  return false;
}

export interface TaintChange {
  taints: Taint[];
  added: TaintKey[];
  removed: TaintKey[];
}

/**
 * The node's taints with the owned ones made to match `desired`: stale ones
 * removed, missing ones appended with `timeAdded` = now (as
 * `SwapNodeControllerTaint` stamps them). Undefined when nothing changes.
 */
export function reconcileTaints(
  existing: readonly Taint[] | undefined,
  desired: readonly TaintKey[],
  now: number,
): TaintChange | undefined {
  const want = new Set(desired.map((d) => `${d.key}:${d.effect}`));
  const current = existing ?? [];
  const kept = current.filter((t) => !isOwned(t) || want.has(`${t.key}:${t.effect}`));
  const removed = current
    .filter((t) => !kept.includes(t))
    .map((t) => ({ key: t.key, effect: t.effect as TaintKey['effect'] }));
  const have = new Set(kept.map((t) => `${t.key}:${t.effect}`));
  const added = desired.filter((d) => !have.has(`${d.key}:${d.effect}`));
  if (added.length === 0 && removed.length === 0) return undefined;
  const stamp = formatTimestamp(now);
  return {
    taints: [...kept, ...added.map((d) => ({ key: d.key, effect: d.effect, timeAdded: stamp }))],
    added,
    removed,
  };
}

/** `key:Effect` list for log lines. */
export function describeTaints(list: readonly TaintKey[]): string {
  return list.map((t) => `${t.key}:${t.effect}`).join(', ');
}
