/**
 * The default score plugins and their weights
 * (`apis/config/v1/default_plugins.go`): TaintToleration 3, NodeAffinity 2,
 * NodeResourcesFit (LeastAllocated, cpu and memory weight 1) 1,
 * NodeResourcesBalancedAllocation 1, PodTopologySpread 2, InterPodAffinity 2
 * (their scores in topologySpread.ts and podAffinity.ts, computed by the
 * cycle's `score` hook). ImageLocality (1) is not modelled: the sandbox's
 * nodes hold no images, so it would score 0 everywhere.
 */
import type { NodeState } from './nodeState';
import type { PodInfo } from './podInfo';
import { intolerablePreferNoSchedule } from './taints';

export const MAX_NODE_SCORE = 100;

export const SCORE_PLUGINS = [
  'TaintToleration',
  'NodeAffinity',
  'NodeResourcesFit',
  'NodeResourcesBalancedAllocation',
  'PodTopologySpread',
  'InterPodAffinity',
] as const;
export type ScorePluginName = (typeof SCORE_PLUGINS)[number];
export const SCORE_WEIGHTS: Readonly<Record<ScorePluginName, number>> = {
  TaintToleration: 3,
  NodeAffinity: 2,
  NodeResourcesFit: 1,
  NodeResourcesBalancedAllocation: 1,
  PodTopologySpread: 2,
  InterPodAffinity: 2,
};
const [W0, W1, W2, W3, W4, W5] = SCORE_PLUGINS.map((p) => SCORE_WEIGHTS[p]);
/** Plugin scores per node in a `scoreNodes` result. */
export const SCORE_STRIDE = SCORE_PLUGINS.length;
/** Where PodTopologySpread's and InterPodAffinity's scores go in a node's stride. */
export const SPREAD_SCORE = 4;
export const INTER_POD_SCORE = 5;

/** Writes the normalized scores of the plugins that need the cycle's state (PodTopologySpread, InterPodAffinity). */
export type ScoreHook = (feasible: readonly NodeState[], out: Int32Array) => void;

/** `leastRequestedScore`: the free share of a resource, 0–100. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** LeastAllocated over cpu and memory (weight 1 each), counting missing requests as 100m / 200Mi. */
export function leastAllocatedScore(pod: PodInfo, node: NodeState): number {
  let sum = 0;
  let weights = 0;
  if (node.allocCpu !== 0) {
    sum += leastRequestedScore(node.nonZeroCpu + pod.nonZero.cpu, node.allocCpu);
    weights++;
  }
  if (node.allocMemory !== 0) {
    sum += leastRequestedScore(node.nonZeroMemory + pod.nonZero.memory, node.allocMemory);
    weights++;
  }
  return weights === 0 ? 0 : Math.floor(sum / weights);
}

/**
 * BalancedAllocation: `(1 − |f_cpu − f_mem| / 2) × 100` on real requests, fractions capped at 1; 0 for a pod that
 * requests nothing (the plugin skips it).
 */
export function balancedAllocationScore(pod: PodInfo, node: NodeState): number {
  if (pod.requests.cpu === 0 && pod.requests.memory === 0) return 0;
  // With fewer than two resources to compare the deviation is 0, a perfect balance.
  if (node.allocCpu === 0 || node.allocMemory === 0) return MAX_NODE_SCORE;
  const cpu = Math.min(1, (node.reqCpu + pod.requests.cpu) / node.allocCpu);
  const memory = Math.min(1, (node.reqMemory + pod.requests.memory) / node.allocMemory);
  const std = Math.abs((cpu - memory) / 2);
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/** NodeAffinity's raw score: the summed weights of the preferred terms the node matches. */
export function nodeAffinityRaw(pod: PodInfo, node: NodeState): number {
  let sum = 0;
  for (const t of pod.preferred) if (t.matches(node)) sum += t.weight;
  return sum;
}

/** `DefaultNormalizeScore`: scale to 0–100 by the maximum (integer division), optionally reversed. */
export function normalizeScores(
  scores: Int32Array | number[],
  count: number,
  stride: number,
  offset: number,
  reverse: boolean,
): void {
  let max = 0;
  for (let i = 0; i < count; i++) max = Math.max(max, scores[i * stride + offset]);
  for (let i = 0; i < count; i++) {
    const j = i * stride + offset;
    if (max === 0) {
      if (reverse) scores[j] = MAX_NODE_SCORE;
      continue;
    }
    const s = Math.floor((MAX_NODE_SCORE * scores[j]) / max);
    scores[j] = reverse ? MAX_NODE_SCORE - s : s;
  }
}

/**
 * Scores the feasible nodes. Returns a flat array, `SCORE_STRIDE` plugin scores per node
 * in `SCORE_PLUGINS` order (normalized, 0–100), in `nodes` order.
 */
export function scoreNodes(pod: PodInfo, nodes: readonly NodeState[], hook?: ScoreHook): Int32Array {
  const n = nodes.length;
  const S = SCORE_STRIDE;
  const out = new Int32Array(n * S);
  const hasPreferred = pod.preferred.length > 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    out[i * S] = node.taints.length === 0 ? 0 : intolerablePreferNoSchedule(node.taints, pod.preferTolerations);
    out[i * S + 1] = hasPreferred ? nodeAffinityRaw(pod, node) : 0;
    out[i * S + 2] = leastAllocatedScore(pod, node);
    out[i * S + 3] = balancedAllocationScore(pod, node);
  }
  normalizeScores(out, n, S, 0, true);
  normalizeScores(out, n, S, 1, false);
  hook?.(nodes, out);
  return out;
}

/** Σ weight × score for node `i` of a `scoreNodes` result. */
export function totalScore(scores: Int32Array, i: number): number {
  const j = i * SCORE_STRIDE;
  return (
    W0 * scores[j] +
    W1 * scores[j + 1] +
    W2 * scores[j + 2] +
    W3 * scores[j + 3] +
    W4 * scores[j + 4] +
    W5 * scores[j + 5]
  );
}
