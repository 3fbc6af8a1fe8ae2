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
import { isAlias, isCollection, isMap, isNode, isScalar, isSeq } from './yamlNodes';
import type { LineCounter, Node, Pair, YAMLMap } from 'yaml';
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
  const segments =
    typeof field === 'string'
      ? parseFieldPath(field)
      : field.map(
          (s): PathSegment =>
            typeof s === 'number' ? { kind: 'bracket', text: String(s) } : { kind: 'name', name: s },
        );
  if (hint.entry !== undefined) segments.push({ kind: 'name', name: hint.entry });
  const trail: Step[] = [{ value: root }];
  let exact = true;
  for (const seg of segments) {
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
  if (node === null || isAlias(node)) return undefined;
  const name = seg.kind === 'name' ? seg.name : seg.text;
  if (isMap(node)) {
    const pair = node.items.find((p) => keyText(p) === name);
    if (pair === undefined || !isNode(pair.key)) return undefined;
    return { key: pair.key, value: isNode(pair.value) ? pair.value : null };
  }
  if (isSeq(node) && seg.kind === 'bracket' && /^\d+$/.test(seg.text)) {
    const item = node.items[Number(seg.text)];
    return isNode(item) ? { value: item } : undefined;
  }
  return undefined;
}

function keyText(pair: Pair): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
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
