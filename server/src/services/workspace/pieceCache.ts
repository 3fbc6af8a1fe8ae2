/**
 * Remembers the analysis of each document piece of an open file by its exact
 * text, so that after an edit only the changed document is parsed and
 * validated again: a one-line edit in a 10,000-line file costs one document.
 * Holds the pieces of the last completed run plus those of runs since.
 */
import type { PieceAnalysis } from './analyzeFile';
import { analyzePieceText } from './analyzeFile';

export class PieceCache {
  private previous = new Map<string, PieceAnalysis>();
  private current = new Map<string, PieceAnalysis>();
  /** How many pieces were analyzed rather than found (for tests and the bench). */
  computed = 0;

  /** The analysis of a piece's text (relative ranges), from the cache or computed now. */
  analyze(text: string): PieceAnalysis {
    let found = this.current.get(text) ?? this.previous.get(text);
    if (found === undefined) {
      found = analyzePieceText(text);
      this.computed++;
    }
    this.current.set(text, found);
    return found;
  }

  /** A run completed: pieces it did not use are forgotten. */
  commit(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}
