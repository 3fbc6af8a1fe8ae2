/**
 * Finds where in the YAML source an upstream field path points, so that each
 * diagnostic sits on the exact key or value the API server complained about.
 *
 * What is highlighted:
 * - the path exists and ends in a scalar, alias or flow collection → that value
 *   (`containerPort: 70000` marks `70000`; `image: ""` marks `""`);
 * - the path exists but its value is empty (`image:`) or a block collection
 *   (`labels:` followed by indented lines) → the key, so one squiggle does not
 *   cover a whole pod template;
 * - the path does not exist in the source (a Required value, or a field that
 *   only defaulting created) → the key of the nearest existing ancestor;
 *   for a list item that is its first key (`name` in `- name: web`), for the
 *   document root the `kind` key.
 * Paths that run into an alias stop there and mark the alias.
 *
 * Upstream reports some problems at a map although one entry is at fault
 * (`metadata.labels: Invalid value: "-bad"`); the admission rules say which
 * entry, and whether its key or its value, in a {@link SourceHint}, so the
 * squiggle still sits on the exact key or value.
 */
import { ALIAS_TYPE, MAP_TYPE, SCALAR_TYPE, SEQ_TYPE, isCollection, isMap, isNode, nodeType } from './yamlNodes';
import type { LineCounter, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { parseFieldPath } from './fieldPath';
import type { PathSegment } from './fieldPath';
import { rangeAt } from './ranges';
import type { Range } from './ranges';

/** A source span `[start, end)` and whether the whole path exists in the source. */
export interface FieldLocation {
  readonly start: number;
  readonly end: number;
  readonly exact: boolean;
}

/**
 * One resolved step of a path: the key it went through (absent for list items and the root) and the node it reached.
 */
interface Step {
  readonly key?: Node;
  readonly value: Node | null;
}

/** Which node is at fault when the path alone does not say (see FieldError.source). */
export interface SourceHint {
  /** A key of the map the path ends at: the entry at fault. */
  readonly entry?: string;
  /** The entry's (or the path's last) key rather than its value. */
  readonly part?: 'key' | 'value';
}

/**
 * Where `field` points inside the document whose root map is `root`: an upstream path (`spec.containers[0].image`,
 * `metadata.labels[app]`) or its keys and indices (`['metadata', 'labels', 'a.b/c']`, dots kept in keys).
 */
export function locateField(
  root: YAMLMap,
  field: string | readonly (string | number)[],
  hint: SourceHint = {},
): FieldLocation {
  const segments: readonly PathSegment[] =
    typeof field === 'string'
      ? parsedPath(field)
      : field.map(
          (s): PathSegment =>
            typeof s === 'number' ? { kind: 'bracket', text: String(s) } : { kind: 'name', name: s },
        );
  const trail: Step[] = [{ value: root }];
  let exact = true;
  const count = hint.entry === undefined ? segments.length : segments.length + 1;
  for (let i = 0; i < count; i++) {
    const seg: PathSegment = i < segments.length ? segments[i] : { kind: 'name', name: hint.entry! };
    const next = step(trail[trail.length - 1].value, seg);
    if (next === undefined) {
      exact = false;
      break;
    }
    trail.push(next);
  }
  const last = trail[trail.length - 1];
  if (exact && hint.part === 'key' && last.key !== undefined) return span(last.key, true);
  if (exact && last.value !== null && showsValue(last.value)) return span(last.value, true);
  return { ...keySpan(last, root), exact };
}

/**
 * {@link parseFieldPath} of a path text, remembered by the text (the same few hundred paths — `metadata.name`,
 * `kind`, a container's `image` — are looked up in every document); frozen, segments too, so no caller can change a
 * shared answer.
 */
function parsedPath(path: string): readonly PathSegment[] {
  const known = parsedPaths.get(path);
  if (known !== undefined) return known;
  const segments = parseFieldPath(path);
  for (const seg of segments) Object.freeze(seg);
  const out = Object.freeze(segments);
  if (parsedPaths.size >= MAX_PARSED_PATHS) parsedPaths.clear();
  parsedPaths.set(path, out);
  return out;
}

const parsedPaths = new Map<string, readonly PathSegment[]>();
/** Paths remembered at most (then forgotten all at once): a bound for texts built from a document's own keys. */
const MAX_PARSED_PATHS = 4096;

/** The LSP range of {@link locateField}. */
export function fieldRange(
  root: YAMLMap,
  field: string | readonly (string | number)[],
  lc: LineCounter,
  hint?: SourceHint,
): Range {
  const loc = locateField(root, field, hint);
  return rangeAt(lc, loc.start, loc.end);
}

function step(node: Node | null, seg: PathSegment): Step | undefined {
  // The node-type tag read once (as yaml's isAlias/isMap/isSeq read it), the pairs searched in a loop: this runs for
  // every range of every diagnostic and cross-document fact.
  const type = nodeType(node);
  if (type === undefined || type === ALIAS_TYPE) return undefined;
  const name = seg.kind === 'name' ? seg.name : seg.text;
  if (type === MAP_TYPE) {
    const items = (node as YAMLMap).items as Pair[];
    for (let i = 0; i < items.length; i++) {
      const pair = items[i];
      if (keyText(pair) !== name) continue;
      if (!isNode(pair.key)) return undefined;
      return { key: pair.key, value: isNode(pair.value) ? pair.value : null };
    }
    return undefined;
  }
  if (type === SEQ_TYPE && seg.kind === 'bracket' && /^\d+$/.test(seg.text)) {
    const item = (node as YAMLSeq).items[Number(seg.text)];
    return isNode(item) ? { value: item } : undefined;
  }
  return undefined;
}

function keyText(pair: Pair): string | undefined {
  const key = pair.key;
  if (nodeType(key) !== SCALAR_TYPE) return undefined;
  const value = (key as Scalar).value;
  return typeof value === 'string' ? value : String(value);
}

function showsValue(node: Node): boolean {
  const [start, end] = node.range ?? [0, 0];
  if (start === end) return false;
  return !isCollection(node) || node.flow === true;
}

function span(node: Node, exact: boolean): FieldLocation {
  const [start, end] = node.range ?? [0, 0];
  return { start, end, exact };
}

/** The key of a step; for list items their first key; for the root the `kind` key. */
function keySpan(s: Step, root: YAMLMap): { start: number; end: number } {
  if (s.key !== undefined) return span(s.key, true);
  const holder = s.value === root ? root.items.find((p) => keyText(p) === 'kind') : firstPair(s.value);
  if (holder !== undefined && isNode(holder.key)) return span(holder.key, true);
  return s.value === null ? { start: 0, end: 0 } : span(s.value, true);
}

function firstPair(node: Node | null): Pair | undefined {
  return isMap(node) ? node.items[0] : undefined;
}
