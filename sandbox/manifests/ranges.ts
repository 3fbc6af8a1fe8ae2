/**
 * The one place where source offsets become LSP positions. Every diagnostic
 * range goes through here so that line/character arithmetic lives in one spot
 * (as eemeli/yaml's LineCounter and yaml-language-server's ast-converter do).
 * `Position` and `Range` have the shape of the LSP's, so the language server
 * uses them as they are.
 */
import { LineCounter } from 'yaml';

/** 0-based line and character (UTF-16 code units), as LSP positions count. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A LineCounter filled for `text` without parsing it (for input that is declined before the YAML parser runs). */
export function lineCounterFor(text: string): LineCounter {
  const lc = new LineCounter();
  lc.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lc.addNewLine(i + 1);
  return lc;
}

/** The 0-based LSP position (UTF-16 code units, as JS string offsets are) of a source offset. */
export function positionAt(lc: LineCounter, offset: number): Position {
  const { line, col } = lc.linePos(offset);
  // linePos is 1-based and reports line 0 only before the first recorded newline.
  if (line === 0) return { line: 0, character: col };
  return { line: line - 1, character: col - 1 };
}

/** The LSP range of the source span `[start, end)`. */
export function rangeAt(lc: LineCounter, start: number, end: number): Range {
  return { start: positionAt(lc, start), end: positionAt(lc, Math.max(start, end)) };
}
