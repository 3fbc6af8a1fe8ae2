/**
 * Quick fixes for `workload-selector-matches-template` (a Deployment,
 * ReplicaSet, StatefulSet or DaemonSet whose `spec.selector` does not select
 * its own pod template): either add the selector's `matchLabels` to the
 * template's labels, or set `matchLabels` to the template's labels. Both are
 * offered and neither is preferred: only the user knows which side is right.
 */
import { isMap } from 'yaml';
import type { Pair, YAMLMap } from 'yaml';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isPlainObject } from '../../../../sandbox/util/json';
import { yamlScalar } from '../completion/labelItems';
import { quickFix } from './action';
import { parseDocumentAt } from './parsedDocument';
import type { ParsedDocument } from './parsedDocument';
import { insertPairEdit, pairOf, replacePairEdit } from './yamlEdits';
import type { YamlValue } from './yamlValue';

const KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);

export function selectorFixes(doc: TextDocument, d: Diagnostic): CodeAction[] {
  const pd = parseDocumentAt(doc, d.range.start.line);
  const kind = pd.root?.get('kind');
  const spec = pd.root?.get('spec', true);
  if (typeof kind !== 'string' || !KINDS.has(kind) || !isMap(spec)) return [];
  const selector = spec.get('selector', true);
  const template = spec.get('template', true);
  if (!isMap(selector) || !isMap(template)) return [];
  const matchLabels = stringMap(selector.get('matchLabels', true));
  const templateLabels = stringMap(getIn(template, 'metadata', 'labels'));
  const out: CodeAction[] = [];
  if (Object.keys(matchLabels).length > 0) {
    const edit = setLabels(pd, template, ['metadata', 'labels'], { ...templateLabels, ...matchLabels });
    if (edit !== undefined)
      out.push(quickFix("Add the selector's labels to the pod template", doc.uri, d, [edit], false));
  }
  if (Object.keys(templateLabels).length > 0 && !selector.has('matchExpressions')) {
    const edit = setLabels(pd, selector, ['matchLabels'], templateLabels);
    if (edit !== undefined)
      out.push(quickFix("Set the selector's matchLabels to the pod template's labels", doc.uri, d, [edit], false));
  }
  return out;
}

/** The edit that makes `holder.<keys…>` the map `labels`, adding the missing maps on the way. */
function setLabels(
  pd: ParsedDocument,
  holder: YAMLMap,
  keys: readonly string[],
  labels: Readonly<Record<string, string>>,
): TextEdit | undefined {
  const [key, ...rest] = keys;
  const pair: Pair | undefined = pairOf(holder, key);
  const value = nested(rest, labels);
  if (pair === undefined) return insertPairEdit(pd, holder, key, value);
  if (rest.length > 0 && isMap(pair.value) && pair.value.flow !== true && pair.value.items.length > 0)
    return setLabels(pd, pair.value, rest, labels);
  return replacePairEdit(pd, pair, value);
}

function nested(keys: readonly string[], labels: Readonly<Record<string, string>>): YamlValue {
  const leaf: YamlValue = { map: Object.entries(labels).map(([k, v]) => [yamlScalar(k), yamlScalar(v)] as const) };
  return keys.reduceRight<YamlValue>((inner, k) => ({ map: [[k, inner]] }), leaf);
}

function getIn(map: YAMLMap, ...keys: string[]): unknown {
  return map.getIn(keys, true);
}

/** The string entries of a YAML map node, as JSON. */
function stringMap(node: unknown): Record<string, string> {
  const js: unknown = isMap(node) ? node.toJSON() : undefined;
  const out: Record<string, string> = {};
  if (!isPlainObject(js)) return out;
  for (const [k, v] of Object.entries(js)) if (typeof v === 'string') out[k] = v;
  return out;
}
