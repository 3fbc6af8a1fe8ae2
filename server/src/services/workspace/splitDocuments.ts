/**
 * Splits a multi-document YAML text into one piece per document, cheaply and
 * without parsing, so a large file can be validated document by document.
 * A piece starts at a `---` marker line (column 0, followed by a space or the
 * line end); YAML forbids such a line inside any scalar or collection, so the
 * cut never falls inside a document. Texts with `%` directives are not split:
 * a directive belongs to the document after it.
 */

/** A run of whole lines of the text. */
export interface TextPiece {
  readonly text: string;
  /** 0-based line of the piece's first line in the whole text. */
  readonly startLine: number;
}

const MARKER = /^---(?=[ \t\r\n]|$)/gm;
const DIRECTIVE = /^%/m;

/** The pieces of `text`, in order; together they are exactly `text`. */
export function splitDocuments(text: string): TextPiece[] {
  if (DIRECTIVE.test(text)) return [{ text, startLine: 0 }];
  const starts: number[] = [0];
  for (const m of text.matchAll(MARKER)) if (m.index > 0) starts.push(m.index);
  const pieces: TextPiece[] = [];
  let line = 0;
  for (let i = 0; i < starts.length; i++) {
    const piece = text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : text.length);
    pieces.push({ text: piece, startLine: line });
    line += countNewlines(piece);
  }
  return pieces;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
