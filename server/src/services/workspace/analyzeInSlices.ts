/**
 * {@link analyzeFile} without blocking: pieces are analyzed in slices of at
 * most `budgetMs` (measured with an injected clock), and between slices the
 * run yields to the event loop, then checks whether it has been cancelled (a
 * newer version of the document arrived, or it closed). A slice always
 * finishes the piece it started, so its length is bounded by the budget plus
 * one document.
 */
import type { FileAnalysis } from './analyzeFile';
import { FileAnalysisBuilder, analyzePiece, planAnalysis, shiftPiece } from './analyzeFile';
import type { PieceCache } from './pieceCache';

/** How long one slice may run before yielding, in the clock's unit (milliseconds). */
export const SLICE_BUDGET_MS = 25;

export interface SliceOptions {
  /** Milliseconds since any fixed origin (`performance.now` in the server; a fake in tests). */
  readonly now: () => number;
  /** Resolves once other work has had a turn (`setImmediate` in the server). */
  readonly yieldToEventLoop: () => Promise<void>;
  /** True once the result is no longer wanted; checked after each yield. */
  readonly isCancelled: () => boolean;
  readonly budgetMs?: number;
  /** Called after each slice with the number of pieces it analyzed (for tests and the bench). */
  readonly onSlice?: (pieces: number) => void;
  /** Analyses of unchanged pieces from earlier runs on the same document. */
  readonly cache?: PieceCache;
}

/** The analysis of `text`, or undefined when the run was cancelled. Never throws. */
export async function analyzeInSlices(text: string, options: SliceOptions): Promise<FileAnalysis | undefined> {
  const budget = options.budgetMs ?? SLICE_BUDGET_MS;
  const plan = planAnalysis(text);
  if (!Array.isArray(plan)) return plan;
  if (options.isCancelled()) return undefined;
  const builder = new FileAnalysisBuilder();
  let next = 0;
  while (next < plan.length) {
    const start = options.now();
    const first = next;
    do {
      const piece = plan[next++];
      builder.add(
        options.cache === undefined
          ? analyzePiece(piece)
          : shiftPiece(options.cache.analyze(piece.text), piece.startLine),
      );
    } while (next < plan.length && options.now() - start < budget);
    options.onSlice?.(next - first);
    if (next < plan.length) {
      await options.yieldToEventLoop();
      if (options.isCancelled()) return undefined;
    }
  }
  options.cache?.commit();
  return builder.build();
}

/** The server's way to yield: after pending I/O callbacks (incoming messages) have run. */
export function yieldWithSetImmediate(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
