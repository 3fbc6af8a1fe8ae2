/** Value completions from the schema: a field's enum values (in the schema's order) and booleans. */
import { CompletionItemKind } from 'vscode-languageserver-types';
import type { CompletionItem } from 'vscode-languageserver-types';
import type { SchemaType } from '../../schema/types';
import type { CursorContext } from '../yamlPosition';
import { ordinal, replaceRange } from './edits';

/** The values to propose for a value of `type`; none for free-form types. */
export function valueItems(type: SchemaType, ctx: CursorContext): CompletionItem[] {
  const values = type.kind === 'boolean' ? ['true', 'false'] : type.kind === 'string' ? (type.enum ?? []) : [];
  const kind = type.kind === 'boolean' ? CompletionItemKind.Value : CompletionItemKind.EnumMember;
  return values.map((value, i) => ({
    label: value,
    kind,
    sortText: ordinal(i),
    filterText: value,
    textEdit: { range: replaceRange(ctx), newText: `${ctx.needsSpace ? ' ' : ''}${value}` },
  }));
}
