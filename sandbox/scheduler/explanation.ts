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

/**
 * A pod's last decision as kept: one object with every field in it (issue 16: a summary literal whose optional
 * members went to a property array, and an entry object around it, per pod). Without `weights`: they are the same
 * constants for every pod (copied into each explanation handed out).
 */
class Entry {
  constructor(
    readonly uid: string,
    readonly time: string,
    readonly attempts: number,
    readonly outcome: SchedulingOutcome,
    readonly totalNodes: number,
    readonly evaluatedNodes: number,
    readonly feasibleNodes: number,
    readonly scored: boolean,
    readonly node: string | undefined,
    readonly message: string | undefined,
    /** The detail; undefined once dropped to bound memory. */
    public record: KeptRecord | undefined,
  ) {}
}

/** The record as kept: see `KeptRecord`. Scores outside 0–255 (none are: normalized 0–100) stay 32-bit. */
function keep(r: CycleRecord, names: readonly string[]): KeptRecord {
  const allFeasible = r.feasible.length === r.names.length;
  return {
    names,
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

/** How many distinct node-name lists `sharedNames` remembers. */
const SHARED_NAMES_KEPT = 64;

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class ExplanationStore {
  private readonly entries = new Map<string, Entry>();
  /** Keys whose entry still has its detail, oldest first. */
  private readonly detailed = new Map<string, number>();
  private detailSize = 0;
  /** Recent node-name lists, by their length and first name (`sharedNames`). */
  private readonly namesKept = new Map<string, readonly string[]>();
  private lastTime = '';

  constructor(private readonly detailBudget = DEFAULT_DETAIL_BUDGET) {}

  get size(): number {
    return this.entries.size;
  }

  record(key: string, d: Decision): void {
    this.delete(key);
    const r = d.record;
    const chosen = r.chosen >= 0 ? r.names[r.feasible[r.chosen]] : undefined;
    // Cycles at one clock time share its text.
    const time = d.time === this.lastTime ? this.lastTime : (this.lastTime = d.time);
    const entry = new Entry(
      d.uid,
      time,
      d.attempts,
      d.outcome,
      r.totalNodes,
      r.names.length,
      r.feasible.length,
      r.scores !== undefined,
      chosen,
      d.message,
      keep(r, this.sharedNames(r.names)),
    );
    this.entries.set(key, entry);
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
    const out: SchedulingExplanation = {
      pod: key,
      uid: e.uid,
      time: e.time,
      attempts: e.attempts,
      outcome: e.outcome,
      totalNodes: e.totalNodes,
      evaluatedNodes: e.evaluatedNodes,
      feasibleNodes: e.feasibleNodes,
      scored: e.scored,
      weights: { ...SCORE_WEIGHTS },
    };
    if (e.node !== undefined) out.node = e.node;
    if (e.message !== undefined) out.message = e.message;
    if (e.record) out.nodes = nodeExplanations(e.record);
    return out;
  }

  /**
   * One list for the cycles that evaluated the same nodes in the same order (issue 16: a cycle's list of names, ~0.4
   * KiB at 50 nodes, was kept per pod; a cycle over all nodes starts where the last one did, so most are the same).
   * The lists kept are never changed; at most `SHARED_NAMES_KEPT` are remembered.
   */
  private sharedNames(names: readonly string[]): readonly string[] {
    const id = `${names.length}\u0000${names[0] ?? ''}`;
    const kept = this.namesKept.get(id);
    if (kept !== undefined && sameNames(kept, names)) return kept;
    if (this.namesKept.size >= SHARED_NAMES_KEPT) this.namesKept.clear();
    this.namesKept.set(id, names);
    return names;
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
