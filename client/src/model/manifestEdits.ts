/**
 * "Update Manifest from Live": the text edits that write live values into a
 * saved manifest at the right line, keeping everything else (comments, order,
 * quoting of other values) as written. A scalar the manifest sets is replaced
 * in place; a scalar field it leaves out is added under its parent mapping when
 * that mapping is written as a block; anything else (a whole list or mapping, a
 * removed field, a multi-line string) is listed as not written, for the user
 * to do by hand. Pure: the VS Code glue turns the edits into a WorkspaceEdit.
 */
import { isMap, isScalar, isSeq } from 'yaml';
import type { LineCounter, Node, Pair, YAMLMap } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import { parseManifestText } from '../../../sandbox/manifests/parseManifests';
import { positionAt } from '../../../sandbox/manifests/ranges';
import { yamlText } from '../../../sandbox/util/yamlText';
import type { Range } from '../../../sandbox/manifests/ranges';
import { defaultedManifest, diffObjects, differences } from '../health/diff';
import { flatten, formatPath } from '../health/flatten';

/** A field and the value the live object has for it (undefined: the live object does not have it). */
export interface LiveValue {
  segments: readonly (string | number)[];
  value: unknown;
}

export interface ManifestEdit {
  range: Range;
  newText: string;
}

export interface ManifestEdits {
  edits: ManifestEdit[];
  /** `spec.replicas: 5`, for each field written. */
  written: string[];
  /** `spec.template.spec.containers[1]: a whole list item`, for each field left for the user. */
  skipped: string[];
}

/** The live values of every field that differs from the manifest (drift and missing), from Desired vs Actual's diff. */
export function liveValuesFromDiff(manifest: KubeObject, live: KubeObject): LiveValue[] {
  const segments = new Map(
    [...flatten(defaultedManifest(manifest, live)), ...flatten(live)].map((l) => [l.path, l.segments] as const),
  );
  return differences(diffObjects(manifest, live)).flatMap((e) => {
    const s = segments.get(e.path);
    return s ? [{ segments: s, value: e.kind === 'missing' ? undefined : e.live }] : [];
  });
}

/** A scalar as YAML writes it on one line, or undefined for values that are not one-line scalars. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  const text = yamlText(value).replace(/\n$/, '');
  return text.includes('\n') ? undefined : text;
}

function keyText(key: string): string {
  const text = yamlText(key).replace(/\n$/, '');
  return text.includes('\n') ? JSON.stringify(key) : text;
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
}

/** The node at `segments` under `root`, or undefined when the path leaves what is written. */
function nodeAt(root: Node, segments: readonly (string | number)[]): Node | undefined {
  let node: Node | undefined = root;
  for (const s of segments) {
    if (isMap(node) && typeof s === 'string') {
      const v: unknown = pairOf(node, s)?.value;
      node = v !== null && typeof v === 'object' ? (v as Node) : undefined;
    } else if (isSeq(node) && typeof s === 'number') {
      const v: unknown = node.items[s];
      node = v !== null && typeof v === 'object' ? (v as Node) : undefined;
    } else return undefined;
  }
  return node;
}

/**
 * The edits that write `values` into the document of `text` that starts on the 0-based `line` (the line the desired
 * state records). Undefined when no manifest starts on that line (the file changed since it was applied).
 */
export function manifestEditsFromLive(
  text: string,
  line: number,
  values: readonly LiveValue[],
): ManifestEdits | undefined {
  const parsed = parseManifestText(text);
  const lc = parsed.lineCounter;
  const doc = parsed.manifests.find((m) => positionAt(lc, m.root.range?.[0] ?? 0).line === line);
  if (!doc) return undefined;
  const out: ManifestEdits = { edits: [], written: [], skipped: [] };
  const span = (start: number, end: number): Range => ({ start: positionAt(lc, start), end: positionAt(lc, end) });
  for (const { segments, value } of values) {
    const path = formatPath(segments);
    const skip = (why: string) => out.skipped.push(`${path}: ${why}`);
    const written = scalarText(value);
    if (value === undefined) {
      skip('not in the live object; remove it by hand');
      continue;
    }
    if (written === undefined) {
      skip('not a one-line value; copy it from the live YAML');
      continue;
    }
    const existing = nodeAt(doc.root, segments);
    if (existing !== undefined) {
      if (!isScalar(existing) || !existing.range) {
        skip('written as a list or mapping in the manifest');
        continue;
      }
      out.edits.push({ range: span(existing.range[0], existing.range[1]), newText: written });
      out.written.push(`${path}: ${written}`);
      continue;
    }
    const key = segments[segments.length - 1];
    const parent = nodeAt(doc.root, segments.slice(0, -1));
    const anchor = isMap(parent) && !parent.flow && typeof key === 'string' ? oneLinePair(parent, lc) : undefined;
    if (!anchor) {
      skip('its parent is not a block mapping in the manifest');
      continue;
    }
    // A new line below a one-line sibling, at that sibling's indentation.
    const keyStart = (anchor.key as Node).range![0];
    const lineEnd = text.indexOf('\n', (anchor.value as Node).range![1]);
    const at = lineEnd < 0 ? text.length : lineEnd;
    const indent = positionAt(lc, keyStart).character;
    out.edits.push({ range: span(at, at), newText: `\n${' '.repeat(indent)}${keyText(key as string)}: ${written}` });
    out.written.push(`${path}: ${written}`);
  }
  return out;
}

/** A pair of `map` whose key and scalar value sit on one line (a new key can go on the line below it). */
function oneLinePair(map: YAMLMap, lc: LineCounter): Pair | undefined {
  return map.items.find((p) => {
    const k = p.key as Node | null;
    const v = p.value as Node | null;
    if (!isScalar(k) || !isScalar(v) || !k.range || !v.range) return false;
    return positionAt(lc, k.range[0]).line === positionAt(lc, v.range[1]).line;
  });
}
