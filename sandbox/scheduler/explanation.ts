/**
 * Per pod, the last scheduling decision: for every node the filters looked
 * at, which plugin rejected it and why, or how each score plugin rated it;
 * and the node chosen. Stored compactly (the cycle's typed arrays) and
 * turned into a plain JSON object only when asked. Memory is bounded: a
 * deleted pod's entry goes, and beyond `detailBudget` evaluated nodes in
 * total the oldest entries keep only their summary.
 */
import { FILTER_PLUGINS, pluginOf, verdictReasons } from './filters';
import type { FilterPluginName } from './filters';
import type { CycleRecord } from './schedulePod';
import { SCORE_PLUGINS, SCORE_STRIDE, SCORE_WEIGHTS, totalScore } from './scores';
import type { ScorePluginName } from './scores';

export interface NodeExplanation {
  node: string;
  /** The filter that rejected the node (filters stop at the first). */
  rejectedBy?: FilterPluginName;
  reasons?: string[];
  /** Normalized plugin scores, 0–100; absent when the node was rejected or nothing was scored. */
  scores?: Record<ScorePluginName, number>;
  /** Σ weight × score. */
  total?: number;
  chosen?: true;
}

export type SchedulingOutcome = 'Scheduled' | 'Unschedulable' | 'BindingFailed';

export interface SchedulingExplanation {
  /** `namespace/name`. */
  pod: string;
  uid: string;
  /** When the cycle ran (RFC 3339). */
  time: string;
  /** Scheduling attempts so far, this one included. */
  attempts: number;
  outcome: SchedulingOutcome;
  /** The chosen node (also set when binding to it failed). */
  node?: string;
  /** The FailedScheduling message. */
  message?: string;
  totalNodes: number;
  evaluatedNodes: number;
  feasibleNodes: number;
  /** False when fewer than two nodes were feasible: upstream skips scoring then. */
  scored: boolean;
  weights: Record<ScorePluginName, number>;
  /** Per evaluated node, in evaluation order; absent when the detail was dropped to bound memory. */
  nodes?: NodeExplanation[];
}

export interface Decision {
  uid: string;
  time: string;
  attempts: number;
  outcome: SchedulingOutcome;
  message?: string;
  record: CycleRecord;
}

/**
 * A cycle's record as kept (issue 16: heap per pod): the scores, 0–100 each, in bytes (a quarter of the cycle's
 * `Int32Array`); and when every evaluated node was feasible — the common case — neither the verdicts (all 0) nor the
 * feasible indices (0, 1, …): `feasible` undefined says so. At 50 nodes a record drops from ~3.2 to ~1.4 KiB.
 */
interface KeptRecord {
  readonly names: readonly string[];
  readonly verdicts: Int32Array | undefined;
  readonly taintReasons: ReadonlyMap<number, string> | undefined;
  readonly feasible: Int32Array | undefined;
  readonly scores: Uint8Array | Int32Array | undefined;
  readonly chosen: number;
}

interface Entry {
  /** Without `weights`: they are the same constants for every pod (copied into each explanation handed out). */
  summary: Omit<SchedulingExplanation, 'pod' | 'nodes' | 'weights'>;
  record: KeptRecord | undefined;
}

/** The record as kept: see `KeptRecord`. Scores outside 0–255 (none are: normalized 0–100) stay 32-bit. */
function keep(r: CycleRecord): KeptRecord {
  const allFeasible = r.feasible.length === r.names.length;
  return {
    names: r.names,
    verdicts: allFeasible ? undefined : r.verdicts,
    taintReasons: r.taintReasons,
    feasible: allFeasible ? undefined : r.feasible,
    scores: r.scores && inBytes(r.scores),
    chosen: r.chosen,
  };
}

/** The scores as bytes, in one pass; as they are when one is outside 0–255. */
function inBytes(scores: Int32Array): Uint8Array | Int32Array {
  const out = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i];
    if (v < 0 || v > 255) return scores;
    out[i] = v;
  }
  return out;
}

export const DEFAULT_DETAIL_BUDGET = 1_000_000;

export class ExplanationStore {
  private readonly entries = new Map<string, Entry>();
  /** Keys whose entry still has its detail, oldest first. */
  private readonly detailed = new Map<string, number>();
  private detailSize = 0;

  constructor(private readonly detailBudget = DEFAULT_DETAIL_BUDGET) {}

  get size(): number {
    return this.entries.size;
  }

  record(key: string, d: Decision): void {
    this.delete(key);
    const r = d.record;
    const chosen = r.chosen >= 0 ? r.names[r.feasible[r.chosen]] : undefined;
    const summary: Entry['summary'] = {
      uid: d.uid,
      time: d.time,
      attempts: d.attempts,
      outcome: d.outcome,
      totalNodes: r.totalNodes,
      evaluatedNodes: r.names.length,
      feasibleNodes: r.feasible.length,
      scored: r.scores !== undefined,
    };
    if (chosen !== undefined) summary.node = chosen;
    if (d.message !== undefined) summary.message = d.message;
    this.entries.set(key, { summary, record: keep(r) });
    this.detailed.set(key, r.names.length);
    this.detailSize += r.names.length;
    this.trim();
  }

  delete(key: string): void {
    if (!this.entries.delete(key)) return;
    this.dropDetail(key);
  }

  explain(key: string): SchedulingExplanation | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const { node, message, ...counts } = e.summary;
    const out: SchedulingExplanation = { pod: key, ...counts, weights: { ...SCORE_WEIGHTS } };
    if (node !== undefined) out.node = node;
    if (message !== undefined) out.message = message;
    if (e.record) out.nodes = nodeExplanations(e.record);
    return out;
  }

  private trim(): void {
    for (const key of this.detailed.keys()) {
      if (this.detailSize <= this.detailBudget || this.detailed.size <= 1) return;
      this.dropDetail(key);
      const e = this.entries.get(key);
      if (e) e.record = undefined;
    }
  }

  private dropDetail(key: string): void {
    const n = this.detailed.get(key);
    if (n === undefined) return;
    this.detailed.delete(key);
    this.detailSize -= n;
  }
}

function nodeExplanations(r: KeptRecord): NodeExplanation[] {
  const out: NodeExplanation[] = r.names.map((node, i) => {
    const v = r.verdicts === undefined ? 0 : r.verdicts[i];
    if (v === 0) return { node };
    return {
      node,
      rejectedBy: FILTER_PLUGINS[pluginOf(v)] as FilterPluginName,
      reasons: verdictReasons(v, r.taintReasons?.get(i) ?? ''),
    };
  });
  const all = r.scores instanceof Int32Array ? r.scores : r.scores && Int32Array.from(r.scores);
  const feasibleCount = r.feasible === undefined ? r.names.length : r.feasible.length;
  for (let f = 0; f < feasibleCount; f++) {
    const e = out[r.feasible === undefined ? f : r.feasible[f]];
    if (all) {
      const scores = {} as Record<ScorePluginName, number>;
      SCORE_PLUGINS.forEach((p, k) => (scores[p] = all[f * SCORE_STRIDE + k]));
      e.scores = scores;
      e.total = totalScore(all, f);
    }
    if (f === r.chosen) e.chosen = true;
  }
  return out;
}
