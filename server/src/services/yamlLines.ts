/**
 * A line-by-line reading of block YAML, for the services that must work while
 * the text is being typed (completion, hover): a half-written key, an empty
 * value or a list item with nothing after its dash does not parse into the
 * structure the user means, but its indentation still says where it belongs.
 * Flow collections and multi-line scalars are read as opaque values.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** Lines of a text, read on demand (a large file is never split as a whole). */
export interface Lines {
  readonly count: number;
  /** The text of line `i` without its line break; '' outside the text. */
  text(i: number): string;
}

/** What starts at a column of a line: a list dash, a key, or a scalar (a list item's value, a flow collection…). */
export interface LineToken {
  readonly type: 'dash' | 'key' | 'scalar';
  /** Column of the first character (of the key's quote, for a quoted key). */
  readonly col: number;
  /** Column just past the token (the key's closing quote, before its colon). */
  readonly end: number;
  /** The key name (unquoted) or the scalar text; '' for a dash. */
  readonly text: string;
  /** For keys: the value after the colon, without a trailing comment ('' when none), and where it starts. */
  readonly value?: string;
  readonly valueCol?: number;
  /** For keys: the column of the colon. */
  readonly colon?: number;
}

/** The lines `[start, end)` of one YAML document, without its `---` separators. */
export interface DocumentBounds {
  readonly start: number;
  readonly end: number;
}

/** The lines of an LSP text document. */
export function documentLines(doc: TextDocument): Lines {
  return {
    count: doc.lineCount,
    text(i) {
      if (i < 0 || i >= doc.lineCount) return '';
      return doc
        .getText({ start: { line: i, character: 0 }, end: { line: i + 1, character: 0 } })
        .replace(/\r?\n$/, '');
    },
  };
}

/** The lines of a string (for tests and small texts). */
export function stringLines(text: string): Lines {
  const all = text.split(/\r?\n/);
  return { count: all.length, text: (i) => all[i] ?? '' };
}

/** True for a document marker line: `---` (start) or `...` (end). */
export function isDocumentMarker(line: string): boolean {
  return /^(?:---|\.\.\.)(?:\s|$)/.test(line);
}

/** The YAML document holding line `line`: from after the previous marker to before the next one. */
export function documentBounds(lines: Lines, line: number): DocumentBounds {
  let start = line;
  while (start > 0 && !isDocumentMarker(lines.text(start - 1))) start--;
  if (isDocumentMarker(lines.text(line))) start = line + 1;
  let end = Math.max(line, start);
  while (end < lines.count && !isDocumentMarker(lines.text(end))) end++;
  return { start, end };
}

/** The tokens of one line, left to right; none for blank and comment lines. */
export function tokenize(line: string): LineToken[] {
  const out: LineToken[] = [];
  let i = skipSpaces(line, 0);
  while (line[i] === '-' && (i + 1 === line.length || line[i + 1] === ' ' || line[i + 1] === '\t')) {
    out.push({ type: 'dash', col: i, end: i + 1, text: '' });
    i = skipSpaces(line, i + 1);
  }
  if (i >= line.length || line[i] === '#') return out;
  const key = keyAt(line, i);
  if (key !== undefined) {
    const valueCol = skipSpaces(line, key.colon + 1);
    const value = stripComment(line.slice(valueCol));
    out.push({ type: 'key', col: i, end: key.end, text: key.text, value, valueCol, colon: key.colon });
  } else {
    const text = stripComment(line.slice(i));
    out.push({ type: 'scalar', col: i, end: i + text.length, text });
  }
  return out;
}

function skipSpaces(line: string, i: number): number {
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return i;
}

/**
 * `text` without a trailing ` # comment` and surrounding spaces (quotes are not tracked: good enough for values typed
 * by hand).
 */
function stripComment(text: string): string {
  const hash = text.search(/(?:^|\s)#/);
  return (hash < 0 ? text : text.slice(0, hash)).trim();
}

/** A `key:` (plain or quoted) starting at `i`: its text, end column and colon column. */
function keyAt(line: string, i: number): { text: string; end: number; colon: number } | undefined {
  const c = line[i];
  if (c === '"' || c === "'") {
    const close = line.indexOf(c, i + 1);
    if (close < 0 || line[close + 1] !== ':' || !endsToken(line, close + 2)) return undefined;
    return { text: line.slice(i + 1, close), end: close + 1, colon: close + 1 };
  }
  if (c === '[' || c === '{' || c === '|' || c === '>') return undefined;
  for (let j = line.indexOf(':', i); j >= 0; j = line.indexOf(':', j + 1)) {
    const before = line.slice(i, j);
    if (/\s#/.test(before)) return undefined;
    if (endsToken(line, j + 1)) {
      const text = before.trimEnd();
      return { text, end: i + text.length, colon: j };
    }
  }
  return undefined;
}

function endsToken(line: string, i: number): boolean {
  return i >= line.length || line[i] === ' ' || line[i] === '\t';
}
