/** Completion items that insert a whole new manifest (see skeletonTemplates.ts) into an empty document. */
import { CompletionItemKind, InsertTextFormat, InsertTextMode } from 'vscode-languageserver-types';
import type { CompletionItem } from 'vscode-languageserver-types';
import type { CursorContext } from '../yamlPosition';
import { ordinal, replaceRange } from './edits';
import { SKELETONS } from './skeletonTemplates';

/** Every skeleton, in the table's order, replacing the word typed so far. */
export function skeletonItems(ctx: CursorContext): CompletionItem[] {
  return SKELETONS.map((s, i) => ({
    label: `${s.kind} (${s.apiVersion})`,
    kind: CompletionItemKind.Snippet,
    detail: `New ${s.kind} manifest`,
    documentation: { kind: 'markdown', value: `\`\`\`yaml\n${fillDefaults(s.snippet)}\n\`\`\`` },
    sortText: ordinal(i),
    filterText: s.kind,
    textEdit: { range: replaceRange(ctx), newText: s.snippet },
    insertTextFormat: InsertTextFormat.Snippet,
    insertTextMode: InsertTextMode.asIs,
  }));
}

/**
 * The text a snippet inserts when every tab stop keeps its default: `${n:x}`
 * → `x`, `${n|a,b|}` → `a`, a mirror `$n` → the default of tab stop n.
 * Handles the flat snippets of skeletonTemplates.ts (no nesting, no escapes).
 */
export function fillDefaults(snippet: string): string {
  const defaults = new Map<string, string>();
  const filled = snippet.replace(
    /\$\{(\d+)(?::([^}]*)|\|([^|]*)\|)\}/g,
    (_m, n: string, text: string | undefined, choices: string | undefined) => {
      const value = text ?? choices!.split(',')[0];
      defaults.set(n, value);
      return value;
    },
  );
  return filled.replace(/\$(\d+)/g, (_m, n: string) => defaults.get(n) ?? '');
}
