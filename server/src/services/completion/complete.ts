/**
 * Completion: a text document and a cursor position in, the items to offer
 * out. Pure, and confined to the document under the cursor (never the whole
 * file, never a validation run), so latency does not grow with the file.
 *
 * What is offered where:
 * - an empty document (or one with only a word typed): a whole manifest per common kind;
 * - `kind: |` and `apiVersion: |`: kinds (fixing apiVersion) and the versions serving the kind;
 * - a key position: the fields of the definition there, or label pairs in a selector;
 * - a value position (or a scalar list item): enum values, booleans, label values in a selector.
 */
import { CompletionItemKind, InsertTextFormat } from 'vscode-languageserver-types';
import type { CompletionItem, Position } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { resolveRef, typeAtPath } from '../../schema/schema';
import type { SchemaType } from '../../schema/types';
import { documentLines } from '../yamlLines';
import type { Lines } from '../yamlLines';
import { cursorContext, isEmptyDocument, rootScalar } from '../yamlPosition';
import type { CursorContext } from '../yamlPosition';
import { documentSchema } from './documentSchema';
import { replaceRange } from './edits';
import type { DocumentSchema } from './documentSchema';
import { keyItems } from './keyItems';
import { apiVersionItems, kindItems } from './kindItems';
import { labelPairItems, labelValueItems, labelsInText, mergeLabels, nodeLabels, selectorTarget } from './labelItems';
import type { LabelIndex } from './labelItems';
import { skeletonItems } from './skeletonItems';
import type { TakenNames } from './skeletonItems';
import { valueItems } from './valueItems';
import type { JSONSchemaProps } from '../../../../sandbox/apiextensions/schema/types';
import { itemsSchema } from '../../../../sandbox/apiextensions/schema/types';
import type { CustomSchemaLookup } from '../customSchema/customSchema';
import { customDefinition, customFieldAt, customType, objectMeta } from '../customSchema/customSchema';

export interface CompletionOptions {
  /** Label keys and values known in the document's workspace folder (for selectors). */
  readonly workspaceLabels?: LabelIndex;
  /** Names already declared per kind in the document's workspace folder (a new manifest gets another). */
  readonly takenNames?: TakenNames;
  /** The schemas of the custom kinds the workspace's CRDs serve (every served version). */
  readonly customSchema?: CustomSchemaLookup;
}

/** The completion items at `position` of `doc`; empty where nothing fits. Never throws on any text. */
export function completeAt(doc: TextDocument, position: Position, options: CompletionOptions = {}): CompletionItem[] {
  const lines = documentLines(doc);
  const ctx = cursorContext(lines, position);
  if (ctx === undefined) return [];
  if (ctx.at === 'key' && ctx.path.length === 0 && ctx.column === 0 && isEmptyDocument(lines, ctx.bounds, ctx.line))
    return skeletonItems(ctx, options.takenNames);
  if (ctx.at === 'value' && ctx.path.length === 1 && (ctx.path[0] === 'kind' || ctx.path[0] === 'apiVersion'))
    return kindFieldItems(lines, ctx);
  const custom = customRoot(lines, ctx, options.customSchema);
  if (custom !== undefined) return customItems(custom, ctx, lines, options);
  const schema = documentSchema(lines, ctx.bounds);
  if (schema === undefined) return ctx.at === 'key' && ctx.path.length === 0 ? kindKeyItems(ctx) : [];
  const found = typeAtPath(schema.definition, ctx.path);
  if (found === undefined) return [];
  return ctx.at === 'key' ? atKey(found.type, ctx, lines, options) : atValue(found.type, ctx, lines, schema, options);
}

/** The CRD schema of a custom resource's document (its exact apiVersion and kind), if a workspace CRD serves it. */
function customRoot(
  lines: Lines,
  ctx: CursorContext,
  lookup: CustomSchemaLookup | undefined,
): { schema: JSONSchemaProps; kind: string } | undefined {
  if (lookup === undefined) return undefined;
  const apiVersion = rootScalar(lines, ctx.bounds, 'apiVersion')?.value;
  const kind = rootScalar(lines, ctx.bounds, 'kind')?.value;
  if (apiVersion === undefined || kind === undefined) return undefined;
  const schema = lookup(apiVersion, kind);
  return schema === undefined ? undefined : { schema, kind };
}

/**
 * A custom resource's items: the fields of its CRD version's schema at a key (`metadata` as ObjectMeta's), enum
 * values and booleans at a value.
 */
function customItems(
  custom: { schema: JSONSchemaProps; kind: string },
  ctx: CursorContext,
  lines: Lines,
  options: CompletionOptions,
): CompletionItem[] {
  if (ctx.path[0] === 'metadata') {
    const meta = objectMeta();
    const found = meta === undefined ? undefined : typeAtPath(meta, ctx.path.slice(1));
    if (found === undefined) return [];
    return ctx.at === 'key' ? atKey(found.type, ctx, lines, options) : valueItems(found.type, ctx);
  }
  const field = customFieldAt(custom.schema, ctx.path);
  if (field === undefined) return [];
  if (ctx.at === 'value') return valueItems(customType(field.schema), ctx);
  const dash = field.schema.type === 'array' && !ctx.listItem;
  const target = dash ? itemsSchema(field.schema) : field.schema;
  if (target === undefined) return [];
  if (target.properties !== undefined)
    return keyItems(customDefinition(target, custom.kind, ctx.path.length === 0), ctx, dash);
  return ctx.listItem ? valueItems(customType(target), ctx) : [];
}

function kindFieldItems(lines: Lines, ctx: CursorContext): CompletionItem[] {
  if (ctx.path[0] === 'apiVersion') return apiVersionItems(ctx, rootScalar(lines, ctx.bounds, 'kind')?.value);
  return kindItems(ctx, rootScalar(lines, ctx.bounds, 'apiVersion'), ctx.line);
}

function atKey(type: SchemaType, ctx: CursorContext, lines: Lines, options: CompletionOptions): CompletionItem[] {
  // Under a list's key with no dash yet (`ports:` then a deeper line): the keys of a new item.
  const dash = type.kind === 'array' && !ctx.listItem;
  const target = dash && type.kind === 'array' ? type.items : type;
  const def = resolveRef(target);
  if (def !== undefined) return keyItems(def, ctx, dash);
  if (ctx.listItem) return valueItems(target, ctx);
  const selects = selectorTarget(ctx.path, target);
  if (selects === undefined) return [];
  return labelPairItems(labelsFor(selects, lines, ctx, options), ctx);
}

function atValue(
  type: SchemaType,
  ctx: CursorContext,
  lines: Lines,
  schema: DocumentSchema,
  options: CompletionOptions,
): CompletionItem[] {
  const holder = typeAtPath(schema.definition, ctx.path.slice(0, -1));
  const selects = holder === undefined ? undefined : selectorTarget(ctx.path.slice(0, -1), holder.type);
  if (selects !== undefined)
    return labelValueItems(labelsFor(selects, lines, ctx, options), String(ctx.path.at(-1)), ctx);
  return valueItems(type, ctx);
}

function labelsFor(target: 'pods' | 'nodes', lines: Lines, ctx: CursorContext, options: CompletionOptions): LabelIndex {
  if (target === 'nodes') return nodeLabels();
  const own: string[] = [];
  for (let l = ctx.bounds.start; l < ctx.bounds.end; l++) if (l !== ctx.line) own.push(lines.text(l));
  return mergeLabels(options.workspaceLabels ?? new Map(), labelsInText(own.join('\n')));
}

/** At the root of a document with no known kind: `apiVersion` and `kind`, whichever is missing. */
function kindKeyItems(ctx: CursorContext): CompletionItem[] {
  return ['apiVersion', 'kind']
    .filter((k) => !ctx.siblings.includes(k))
    .map((k) => ({
      label: k,
      kind: CompletionItemKind.Property,
      detail: 'string',
      labelDetails: { description: 'required' },
      filterText: k,
      textEdit: { range: replaceRange(ctx), newText: ctx.hasColon ? k : `${k}: $0` },
      insertTextFormat: InsertTextFormat.Snippet,
    }));
}
