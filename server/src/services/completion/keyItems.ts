/**
 * Key completions: the fields of the definition at the cursor that the map
 * does not have yet, required ones first, each inserting `key: ` and, for
 * objects and lists, a line break with the next indentation (absolute
 * columns, so the text is the same in every editor).
 */
import { CompletionItemKind, InsertTextFormat, InsertTextMode } from 'vscode-languageserver-types';
import type { CompletionItem } from 'vscode-languageserver-types';
import { describeType } from '../../schema/schema';
import type { Definition, SchemaType } from '../../schema/types';
import type { CursorContext } from '../yamlPosition';
import { choiceText, replaceRange, snippetText } from './edits';

/** Spaces per nesting level in inserted text. */
export const INDENT = 2;

/** Fields the API server fills in and users do not write. */
const SERVER_OWNED_ROOT_FIELDS = new Set(['status']);

/**
 * The fields of `def` to propose at a key position. `dash` starts a new list
 * item (the cursor sits under a list's key without a `- ` yet).
 */
export function keyItems(def: Definition, ctx: CursorContext, dash: boolean): CompletionItem[] {
  const present = new Set(ctx.siblings);
  const required = new Set(def.required);
  const out: CompletionItem[] = [];
  for (const [name, prop] of Object.entries(def.properties)) {
    if (present.has(name) || (ctx.path.length === 0 && SERVER_OWNED_ROOT_FIELDS.has(name))) continue;
    const insert = keyInsert(name, prop.type, ctx, dash);
    const isRequired = required.has(name);
    out.push({
      label: name,
      kind: CompletionItemKind.Property,
      detail: describeType(prop.type),
      ...(isRequired ? { labelDetails: { description: 'required' } } : {}),
      ...(prop.description === undefined ? {} : { documentation: { kind: 'markdown', value: prop.description } }),
      sortText: `${isRequired ? 0 : 1}${name}`,
      filterText: name,
      textEdit: { range: replaceRange(ctx), newText: insert },
      insertTextFormat: InsertTextFormat.Snippet,
      insertTextMode: InsertTextMode.asIs,
    });
  }
  return out.sort((a, b) => (a.sortText! < b.sortText! ? -1 : a.sortText! > b.sortText! ? 1 : 0));
}

/** The snippet for a key: `name: $0`, `ports:\n<indent>- $0`, `imagePullPolicy: ${1|Always,…|}`. */
export function keyInsert(name: string, type: SchemaType, ctx: CursorContext, dash: boolean): string {
  if (ctx.hasColon) return snippetText(name);
  const column = ctx.column + (dash ? INDENT : 0);
  const head = `${ctx.needsSpace ? ' ' : ''}${dash ? '- ' : ''}${snippetText(name)}:`;
  const nested = `\n${' '.repeat(column + INDENT)}`;
  switch (type.kind) {
    case 'ref':
    case 'map':
    case 'any':
      return `${head}${nested}$0`;
    case 'array':
      return `${head}${nested}- $0`;
    case 'boolean':
      return `${head} \${1|true,false|}`;
    case 'string':
      return type.enum === undefined || type.enum.length === 0
        ? `${head} $0`
        : `${head} \${1|${type.enum.map(choiceText).join(',')}|}`;
    default:
      return `${head} $0`;
  }
}
