/**
 * Label completions for selectors: in a Deployment's
 * `spec.selector.matchLabels`, a Service's `spec.selector` or a pod's
 * `nodeSelector`, the `key: value` pairs that something can actually match —
 * the labels of the workspace's objects and pod templates (and of the current
 * document, whose latest text the workspace index may not have yet), or the
 * labels every node carries.
 */
import { CompletionItemKind } from 'vscode-languageserver-types';
import type { CompletionItem } from 'vscode-languageserver-types';
import { parseDocument } from 'yaml';
import { isPlainObject } from '../../../../sandbox/util/json';
import type { SchemaType } from '../../schema/types';
import type { ObjectFacts } from '../crossDocument/facts';
import type { CursorContext, YamlPath } from '../yamlPosition';
import { replaceRange } from './edits';

/** Label keys with their known values. */
export type LabelIndex = ReadonlyMap<string, ReadonlySet<string>>;

/** Labels of every node, as the sandbox's kubelets (and real ones) set them. */
const NODE_LABELS: LabelIndex = new Map([
  ['kubernetes.io/arch', new Set(['amd64'])],
  ['kubernetes.io/os', new Set(['linux'])],
]);

/**
 * Which labels a map at `path` of type `type` selects: pods' (`matchLabels`, a map-typed `selector`), nodes'
 * (`nodeSelector`), or none.
 */
export function selectorTarget(path: YamlPath, type: SchemaType): 'pods' | 'nodes' | undefined {
  if (type.kind !== 'map') return undefined;
  const last = path.at(-1);
  if (last === 'matchLabels' || last === 'selector') return 'pods';
  return last === 'nodeSelector' ? 'nodes' : undefined;
}

/** `key: value` items for a selector map, without the keys it already has. */
export function labelPairItems(labels: LabelIndex, ctx: CursorContext): CompletionItem[] {
  const present = new Set(ctx.siblings);
  const out: CompletionItem[] = [];
  for (const [key, values] of sorted(labels)) {
    if (present.has(key)) continue;
    for (const value of [...values].sort()) {
      const pair = `${yamlScalar(key)}: ${yamlScalar(value)}`;
      out.push({
        label: pair,
        kind: CompletionItemKind.Value,
        detail: 'label',
        filterText: pair,
        textEdit: { range: replaceRange(ctx), newText: `${ctx.needsSpace ? ' ' : ''}${pair}` },
      });
    }
  }
  return out;
}

/** The known values of label `key`, for `key: |` in a selector. */
export function labelValueItems(labels: LabelIndex, key: string, ctx: CursorContext): CompletionItem[] {
  return [...(labels.get(key) ?? [])].sort().map((value) => ({
    label: value,
    kind: CompletionItemKind.Value,
    detail: `label ${key}`,
    filterText: value,
    textEdit: { range: replaceRange(ctx), newText: `${ctx.needsSpace ? ' ' : ''}${yamlScalar(value)}` },
  }));
}

/** The labels nodes carry (for `nodeSelector`). */
export function nodeLabels(): LabelIndex {
  return NODE_LABELS;
}

/** The union of label indexes. */
export function mergeLabels(...indexes: LabelIndex[]): LabelIndex {
  const out = new Map<string, Set<string>>();
  for (const index of indexes) {
    for (const [k, values] of index) {
      const set = out.get(k) ?? new Set<string>();
      for (const v of values) set.add(v);
      out.set(k, set);
    }
  }
  return out;
}

/**
 * Object and pod template labels in one YAML document's text (as far as it
 * parses while being typed). Only string values count, as for the API server.
 */
export function labelsInText(text: string): LabelIndex {
  const out = new Map<string, Set<string>>();
  let js: unknown;
  try {
    js = parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: 100 });
  } catch {
    return out;
  }
  const spec = field(js, 'spec');
  const templates = [js, field(spec, 'template'), field(field(field(spec, 'jobTemplate'), 'spec'), 'template')];
  for (const holder of templates) {
    const labels = field(field(holder, 'metadata'), 'labels');
    if (!isPlainObject(labels)) continue;
    for (const [k, v] of Object.entries(labels)) {
      if (typeof v !== 'string') continue;
      const set = out.get(k) ?? new Set<string>();
      set.add(v);
      out.set(k, set);
    }
  }
  return out;
}

function field(value: unknown, key: string): unknown {
  return isPlainObject(value) ? value[key] : undefined;
}

function sorted(labels: LabelIndex): Array<[string, ReadonlySet<string>]> {
  return [...labels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A string as a YAML scalar that reads back as that string: plain when safe, else double-quoted. */
export function yamlScalar(s: string): string {
  const plain = /^[A-Za-z_/][\w./-]*$/.test(s) && !/^(?:true|false|yes|no|on|off|y|n|null)$/i.test(s);
  return plain ? s : JSON.stringify(s);
}

/** The labels of indexed objects (their own and their pod templates'): for a file outside every workspace folder. */
export function labelsOfObjects(objects: readonly Pick<ObjectFacts, 'labels' | 'podTemplateLabels'>[]): LabelIndex {
  const out = new Map<string, Set<string>>();
  for (const o of objects) {
    for (const labels of [o.labels, ...o.podTemplateLabels]) {
      for (const [k, v] of Object.entries(labels)) {
        const set = out.get(k) ?? new Set<string>();
        set.add(v);
        out.set(k, set);
      }
    }
  }
  return out;
}
