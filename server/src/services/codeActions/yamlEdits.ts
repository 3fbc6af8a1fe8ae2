/**
 * Text edits on a parsed YAML document that keep its layout: a new pair goes
 * on its own line after the map's last entry at the map's indentation; a
 * replaced pair is re-rendered in place. Only block maps are edited (flow
 * maps written by hand are left to the user).
 */
import { isCollection, isPair, isScalar } from 'yaml';
import type { Node, Pair, YAMLMap } from 'yaml';
import type { TextEdit } from 'vscode-languageserver-types';
import type { ParsedDocument } from './parsedDocument';
import { renderPair } from './yamlValue';
import type { YamlValue } from './yamlValue';

/** Adds `key: value` to a block map with at least one entry; undefined for other maps. */
export function insertPairEdit(pd: ParsedDocument, map: YAMLMap, key: string, value: YamlValue): TextEdit | undefined {
  const first = map.items[0]?.key;
  if (map.flow === true || !isScalar(first) || first.range === undefined || first.range === null) return undefined;
  const col = pd.position(first.range[0]).character;
  const last = pd.position(contentEnd(pd, map)).line;
  const at = { line: last, character: pd.lines.text(last).length };
  return { range: { start: at, end: at }, newText: `\n${renderPair(key, value, col)}` };
}

/** Replaces a whole `key: value` pair (in a block map) with `key: value`. */
export function replacePairEdit(pd: ParsedDocument, pair: Pair, value: YamlValue): TextEdit | undefined {
  const key = pair.key;
  if (!isScalar(key) || key.range === undefined || key.range === null) return undefined;
  const start = pd.position(key.range[0]);
  const end = pd.position(contentEnd(pd, pair));
  return { range: { start, end }, newText: renderPair(String(key.value), value, start.character).trimStart() };
}

/** The pair of a map with key `name`, if any. */
export function pairOf(map: YAMLMap, name: string): Pair | undefined {
  const pair: unknown = map.items.find((p) => isScalar(p.key) && String(p.key.value) === name);
  return isPair(pair) ? (pair as Pair) : undefined;
}

/**
 * The offset just past the last character that belongs to a node or pair (not its trailing comments or line breaks).
 */
function contentEnd(pd: ParsedDocument, node: Node | Pair): number {
  if (isPair(node)) {
    const value = node.value as Node | null;
    if (value !== null && value.range !== undefined && value.range !== null && value.range[1] > value.range[0])
      return contentEnd(pd, value);
    return afterColon(pd, (node.key as Node).range?.[1] ?? 0);
  }
  if (isCollection(node) && node.flow !== true && node.items.length > 0) {
    const last = node.items[node.items.length - 1] as Node | Pair;
    return contentEnd(pd, last);
  }
  return trimEnd(pd, node.range?.[1] ?? 0);
}

/** Past the colon that follows a key ending at `keyEnd` (the key's end when there is none). */
function afterColon(pd: ParsedDocument, keyEnd: number): number {
  let i = keyEnd;
  while (pd.text[i] === ' ' || pd.text[i] === '\t') i++;
  return pd.text[i] === ':' ? i + 1 : keyEnd;
}

function trimEnd(pd: ParsedDocument, end: number): number {
  let e = end;
  while (e > 0 && /\s/.test(pd.text[e - 1])) e--;
  return e;
}
