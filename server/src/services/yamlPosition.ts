/**
 * Where in the YAML structure a cursor is: the path from the document root,
 * whether it is at a key or a value, the keys already in the enclosing map,
 * and which document of a multi-document text it is in. Read from the lines'
 * indentation (yamlLines.ts), not from a parse, so that it works while the
 * text is incomplete: `imagePullPo|`, `imagePullPolicy: |`, `- |`.
 *
 * Paths use the schema's notation: keys and 0-based list indices.
 */
import type { Position } from 'vscode-languageserver-types';
import { documentBounds, isDocumentMarker, tokenize } from './yamlLines';
import type { DocumentBounds, LineToken, Lines } from './yamlLines';

export type YamlPath = (string | number)[];

/** What the cursor is at. */
export interface CursorContext {
  readonly bounds: DocumentBounds;
  readonly line: number;
  /**
   * `key`: a (partial) key of the map at `path` — or, when `listItem` is true,
   * the first thing of a new list item at `path` (whose last segment is the
   * item's index), which may also be a scalar item. `value`: the value at `path`.
   */
  readonly at: 'key' | 'value';
  readonly path: YamlPath;
  /** Column of the keys of the map (key), or of the key whose value it is (value). */
  readonly column: number;
  /** What is typed so far, and the columns of the word to replace on `line`. */
  readonly prefix: string;
  readonly replaceStart: number;
  readonly replaceEnd: number;
  /** At a key already followed by its colon: only the name is to be replaced. */
  readonly hasColon: boolean;
  /** A dash right before the key on this line: a new list item. */
  readonly listItem: boolean;
  /** The cursor directly follows `:` or `-`: inserted text needs a leading space. */
  readonly needsSpace: boolean;
  /** Keys already in the map (key position; the cursor line's own key excluded). */
  readonly siblings: readonly string[];
}

/** A key or a scalar value under the cursor (for hover). */
export interface NodeAt {
  readonly at: 'key' | 'value';
  /** The path of the key's value (for both: a key names its value). */
  readonly path: YamlPath;
  readonly text: string;
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** A top-level scalar of a document (`apiVersion`, `kind`): its value and where it is. */
export interface RootScalar {
  readonly value: string;
  readonly line: number;
  /** Columns of the value; for an empty value, from just after the colon to the end of the line. */
  readonly start: number;
  readonly end: number;
}

/**
 * The cursor context at `position`, or undefined where nothing can be completed (a marker line, a block scalar, a flow
 * collection).
 */
export function cursorContext(lines: Lines, position: Position): CursorContext | undefined {
  const text = lines.text(position.line);
  if (isDocumentMarker(text)) return undefined;
  const c = Math.min(position.character, text.length);
  const bounds = documentBounds(lines, position.line);
  const toks = tokenize(text);
  const key = toks.find((t) => t.type === 'key' && t.col <= c && c <= t.end);
  if (key !== undefined)
    return keyContext(lines, bounds, position.line, toks, key.col, {
      prefix: text.slice(key.col, c),
      start: key.col,
      end: key.end,
      hasColon: true,
      needsSpace: false,
    });
  const owner = toks.find((t) => t.type === 'key' && c > t.end);
  if (owner !== undefined) return valueContext(lines, bounds, position.line, owner, c, text);
  const word = toks.find((t) => t.type === 'scalar' && t.col <= c);
  if (word !== undefined) {
    if (/^[[{|>]/.test(word.text)) return undefined;
    return keyContext(lines, bounds, position.line, toks, word.col, {
      prefix: text.slice(word.col, c),
      start: word.col,
      end: Math.max(c, word.end),
      hasColon: false,
      needsSpace: false,
    });
  }
  const dash = toks.filter((t) => t.type === 'dash').at(-1);
  if (dash !== undefined && c === dash.end)
    return keyContext(lines, bounds, position.line, toks, dash.col + 2, {
      prefix: '',
      start: c,
      end: c,
      hasColon: false,
      needsSpace: true,
    });
  return keyContext(lines, bounds, position.line, toks, c, {
    prefix: '',
    start: c,
    end: c,
    hasColon: false,
    needsSpace: false,
  });
}

interface Word {
  prefix: string;
  start: number;
  end: number;
  hasColon: boolean;
  needsSpace: boolean;
}

function keyContext(
  lines: Lines,
  bounds: DocumentBounds,
  line: number,
  toks: readonly LineToken[],
  col: number,
  word: Word,
): CursorContext | undefined {
  const found = collectionPath(lines, bounds, line, col);
  if (found === undefined) return undefined;
  const listItem = toks.filter((t) => t.col < col).at(-1)?.type === 'dash';
  const siblings = siblingKeys(lines, bounds, found.startLine, col, line);
  return {
    bounds,
    line,
    at: 'key',
    path: found.path,
    column: col,
    prefix: word.prefix,
    replaceStart: word.start,
    replaceEnd: word.end,
    hasColon: word.hasColon,
    listItem,
    needsSpace: word.needsSpace,
    siblings,
  };
}

function valueContext(
  lines: Lines,
  bounds: DocumentBounds,
  line: number,
  owner: LineToken,
  c: number,
  text: string,
): CursorContext | undefined {
  const value = owner.value ?? '';
  const valueCol = owner.valueCol ?? c;
  if (/^[[{|>&*!]/.test(value)) return undefined;
  const found = collectionPath(lines, bounds, line, owner.col);
  if (found === undefined) return undefined;
  const inValue = c >= valueCol && value !== '';
  return {
    bounds,
    line,
    at: 'value',
    path: [...found.path, owner.text],
    column: owner.col,
    prefix: inValue ? text.slice(valueCol, c) : '',
    replaceStart: inValue ? valueCol : c,
    replaceEnd: inValue ? Math.max(c, valueCol + value.length) : c,
    hasColon: true,
    listItem: false,
    needsSpace: text[c - 1] === ':',
    siblings: [],
  };
}

/** The key or the value of a `key: value` line under the cursor, with its path; undefined elsewhere. */
export function nodeAt(lines: Lines, position: Position): NodeAt | undefined {
  const text = lines.text(position.line);
  const c = position.character;
  const key = tokenize(text).find((t) => t.type === 'key' && t.col <= c && (c < t.end || (c === t.end && c > t.col)));
  const owner =
    key ??
    tokenize(text).find(
      (t) =>
        t.type === 'key' &&
        t.valueCol !== undefined &&
        t.value !== '' &&
        t.valueCol <= c &&
        c <= t.valueCol + (t.value ?? '').length,
    );
  if (owner === undefined) return undefined;
  const found = collectionPath(lines, documentBounds(lines, position.line), position.line, owner.col);
  if (found === undefined) return undefined;
  const path = [...found.path, owner.text];
  if (key !== undefined) return { at: 'key', path, text: key.text, line: position.line, start: key.col, end: key.end };
  const valueCol = owner.valueCol ?? 0;
  const value = owner.value ?? '';
  return {
    at: 'value',
    path,
    text: unquote(value),
    line: position.line,
    start: valueCol,
    end: valueCol + value.length,
  };
}

/** The top-level `key: value` of the document in `bounds` (a root map at column 0), if present. */
export function rootScalar(lines: Lines, bounds: DocumentBounds, key: string): RootScalar | undefined {
  for (let l = bounds.start; l < bounds.end; l++) {
    const t = tokenize(lines.text(l))[0];
    if (t?.type !== 'key' || t.col !== 0 || t.text !== key) continue;
    const value = t.value ?? '';
    if (value === '') return { value, line: l, start: (t.colon ?? t.end) + 1, end: lines.text(l).length };
    const start = t.valueCol ?? t.end + 1;
    return { value: unquote(value), line: l, start, end: start + value.length };
  }
  return undefined;
}

/** True when the document holds nothing but blank and comment lines (besides line `except`). */
export function isEmptyDocument(lines: Lines, bounds: DocumentBounds, except: number): boolean {
  for (let l = bounds.start; l < bounds.end; l++) if (l !== except && tokenize(lines.text(l)).length > 0) return false;
  return true;
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0])
    return value.slice(1, -1);
  return value;
}

/**
 * The path of the map holding a key at column `col` of line `line`, and the
 * line where that map starts. Walks up: the rightmost token left of the
 * current column (on the same line first, then above) is the parent — a key
 * whose value the map is, or a dash whose item it is; a list's index is the
 * number of sibling dashes above it. Undefined inside a block scalar.
 */
function collectionPath(
  lines: Lines,
  bounds: DocumentBounds,
  line: number,
  col: number,
): { path: YamlPath; startLine: number } | undefined {
  const reversed: YamlPath = [];
  let frame: Frame = { line, col, what: 'map' };
  let startLine: number | undefined;
  for (;;) {
    const { parent, index } = parentOf(lines, bounds, frame);
    if (frame.what === 'seq') reversed.push(index);
    if (startLine === undefined) startLine = parent === undefined ? bounds.start : parent.line;
    if (parent === undefined) break;
    if (parent.token.type === 'dash') {
      frame = { line: parent.line, col: parent.token.col, what: 'seq' };
    } else if (parent.token.type === 'key') {
      if (/^[|>]/.test(parent.token.value ?? '')) return undefined;
      reversed.push(parent.token.text);
      frame = { line: parent.line, col: parent.token.col, what: 'map' };
    } else {
      return undefined;
    }
  }
  return { path: reversed.reverse(), startLine };
}

interface Frame {
  line: number;
  col: number;
  what: 'map' | 'seq';
}

function parentOf(
  lines: Lines,
  bounds: DocumentBounds,
  f: Frame,
): { parent?: { line: number; token: LineToken }; index: number } {
  let index = 0;
  const same = tokenize(lines.text(f.line)).filter((t) => t.col < f.col);
  if (same.length > 0) return { parent: { line: f.line, token: same[same.length - 1] }, index };
  for (let l = f.line - 1; l >= bounds.start; l--) {
    const toks = tokenize(lines.text(l));
    if (toks.length === 0) continue;
    const left = toks.filter((t) => t.col < f.col);
    if (left.length > 0) {
      // `- - a` above `  - b`: the inner list's first item shares its line with the parent dash.
      if (f.what === 'seq' && toks[left.length]?.col === f.col && toks[left.length].type === 'dash') index++;
      return { parent: { line: l, token: left[left.length - 1] }, index };
    }
    if (f.what === 'map' || toks[0].col !== f.col) continue;
    // A list's dashes may sit at the same column as its key (`containers:` / `- name: web`).
    if (toks[0].type === 'dash') index++;
    else if (toks[0].type === 'key') return { parent: { line: l, token: toks[0] }, index };
  }
  return { index };
}

/** Keys at column `col` of the map starting at `startLine`, up to where the map ends. */
function siblingKeys(lines: Lines, bounds: DocumentBounds, startLine: number, col: number, except: number): string[] {
  const out: string[] = [];
  for (let l = startLine; l < bounds.end; l++) {
    const toks = tokenize(lines.text(l));
    if (toks.length === 0) continue;
    if (l > startLine && toks[0].col < col) break;
    if (l === except) continue;
    const key = toks.find((t) => t.col === col && t.type === 'key');
    if (key !== undefined) out.push(key.text);
  }
  return out;
}
