/**
 * The message of a pod that fits nowhere, exactly as upstream prints it
 * (`framework.FitError.Error()` plus DefaultPreemption's PostFilter message):
 * `0/N nodes are available: <count> <reason>, …. preemption: 0/N nodes are
 * available: <count> <reason>, ….` Each list is "<count> <reason>" strings
 * sorted as Go's `sort.Strings` does (byte order, so "10 x" sorts before "2 y").
 */
import { isUnresolvable, verdictReasons } from './filters';

export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod';
export const PREEMPTION_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `sortReasonsHistogram`: "<count> <reason>" for each reason, sorted. */
export function sortedHistogram(counts: ReadonlyMap<string, number>): string[] {
  return [...counts].map(([reason, n]) => `${n} ${reason}`).sort(byteOrder);
}

function availability(total: number, counts: ReadonlyMap<string, number>): string {
  const list = sortedHistogram(counts);
  return `0/${total} nodes are available:${list.length > 0 ? ` ${list.join(', ')}.` : ''}`;
}

function bump(counts: Map<string, number>, reason: string): void {
  counts.set(reason, (counts.get(reason) ?? 0) + 1);
}

/**
 * The full message for a cycle in which no node passed the filters.
 * `verdicts[i]` is node i's filter verdict, `taintReason(i)` its taint
 * reason when TaintToleration rejected it; `tooSmallIsUnresolvable` as in
 * `isUnresolvable`. `preemption` is the dry run's per-node reasons (see
 * preemption.ts); without it every node where preemption could help is
 * reported as having no victims. `preemption === null`: preemption
 * succeeded, and upstream's message then has no preemption part.
 */
export function fitErrorMessage(
  total: number,
  verdicts: ArrayLike<number>,
  count: number,
  taintReason: (i: number) => string,
  preemptNever: boolean,
  tooSmallIsUnresolvable = false,
  preemption?: ReadonlyMap<string, number> | null,
): string {
  const filterCounts = new Map<string, number>();
  const preemptionCounts = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const v = verdicts[i];
    for (const r of verdictReasons(v, taintReason(i))) bump(filterCounts, r);
    bump(preemptionCounts, isUnresolvable(v, tooSmallIsUnresolvable) ? PREEMPTION_NOT_HELPFUL : NO_PREEMPTION_VICTIMS);
  }
  if (preemption === null) return availability(total, filterCounts);
  const post = preemptNever ? PREEMPTION_POLICY_NEVER : availability(total, preemption ?? preemptionCounts);
  return `${availability(total, filterCounts)} preemption: ${post}`;
}
