/**
 * One scheduling decision (`schedule_one.go` `schedulePod`): filter nodes
 * (starting where the previous cycle stopped, and stopping once enough
 * feasible nodes are found, as upstream's `numFeasibleNodesToFind`), score
 * the feasible ones, pick the highest total, breaking ties at random
 * (`selectHost`'s reservoir sampling). Pure: reads the cache, writes nothing.
 */
import type { SeededRandom } from '../clock/random';
import type { CycleState } from './filters';
import { TAINT_TOLERATION, filterNode, pluginOf, taintIndexOf } from './filters';
import type { NodeState } from './nodeState';
import type { PodInfo } from './podInfo';
import { scoreNodes, totalScore } from './scores';

const MIN_FEASIBLE_NODES_TO_FIND = 100;
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/** What one cycle found, compactly: enough to explain it later without keeping per-node objects. */
export interface CycleRecord {
  readonly totalNodes: number;
  /** Names of the nodes the filters ran on, in the order they ran. */
  readonly names: readonly string[];
  /** Filter verdict per evaluated node (see filters.ts); 0 = feasible. */
  readonly verdicts: Int32Array;
  /** The taint reason of each node TaintToleration rejected, by evaluated index. */
  readonly taintReasons: ReadonlyMap<number, string> | undefined;
  /** Evaluated indices of the feasible nodes. */
  readonly feasible: Int32Array;
  /**
   * `SCORE_STRIDE` normalized plugin scores per feasible node; undefined when fewer than two were feasible (upstream
   * skips scoring).
   */
  readonly scores: Int32Array | undefined;
  /** Index into `feasible` of the chosen node, -1 when none fits. */
  readonly chosen: number;
}

/**
 * `numFeasibleNodesToFind`: all nodes below 100; else a percentage (adaptive when 0: 50 − n/125, at least 5) but at
 * least 100.
 */
export function numFeasibleNodesToFind(percentage: number, total: number): number {
  if (total < MIN_FEASIBLE_NODES_TO_FIND) return total;
  let pct = percentage;
  if (pct <= 0) pct = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, 50 - Math.trunc(total / 125));
  if (pct >= 100) return total;
  return Math.max(MIN_FEASIBLE_NODES_TO_FIND, Math.trunc((total * pct) / 100));
}

/** Where a cycle starts walking the node list; advanced by each cycle. */
export interface CycleCursor {
  nextStart: number;
  /** Reused verdict buffer, so a cycle over thousands of nodes allocates only what it keeps. */
  scratch?: Int32Array;
}

export function schedulePod(
  pod: PodInfo,
  nodes: readonly NodeState[],
  cursor: CycleCursor,
  random: SeededRandom,
  percentage: number,
  cycle?: CycleState,
): CycleRecord {
  const total = nodes.length;
  const want = numFeasibleNodesToFind(percentage, total);
  if (!cursor.scratch || cursor.scratch.length < total) cursor.scratch = new Int32Array(Math.max(total, 16));
  const verdicts = cursor.scratch;
  const names: string[] = [];
  const feasibleNodes: NodeState[] = [];
  const feasible: number[] = [];
  let taintReasons: Map<number, string> | undefined;
  const start = total === 0 ? 0 : cursor.nextStart % total;
  let processed = 0;
  let at = start;
  while (processed < total && feasible.length < want) {
    const node = nodes[at];
    const v = filterNode(pod, node, cycle);
    verdicts[processed] = v;
    names.push(node.name);
    if (v === 0) {
      feasible.push(processed);
      feasibleNodes.push(node);
    } else if (pluginOf(v) === TAINT_TOLERATION) {
      (taintReasons ??= new Map()).set(processed, node.taints[taintIndexOf(v)].reason);
    }
    processed++;
    if (++at === total) at = 0;
  }
  cursor.nextStart = total === 0 ? 0 : (start + processed) % total;
  const base = {
    totalNodes: total,
    names,
    verdicts: verdicts.slice(0, processed),
    taintReasons,
    feasible: Int32Array.from(feasible),
  };
  if (feasible.length === 0) return { ...base, scores: undefined, chosen: -1 };
  if (feasible.length === 1) return { ...base, scores: undefined, chosen: 0 };
  const scores = scoreNodes(pod, feasibleNodes, cycle?.score);
  return { ...base, scores, chosen: selectHost(scores, feasible.length, random) };
}

/**
 * The highest total; among equal totals each is chosen with equal probability (reservoir sampling, one draw per tie).
 */
export function selectHost(scores: Int32Array, count: number, random: SeededRandom): number {
  let best = 0;
  let bestScore = -1;
  let ties = 0;
  for (let i = 0; i < count; i++) {
    const s = totalScore(scores, i);
    if (s > bestScore) {
      best = i;
      bestScore = s;
      ties = 1;
    } else if (s === bestScore) {
      ties++;
      if (random.int(ties) === 0) best = i;
    }
  }
  return best;
}
