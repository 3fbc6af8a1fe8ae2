/** Completion items that insert a whole new manifest (see skeletonTemplates.ts) into an empty document. */
import { CompletionItemKind, InsertTextFormat, InsertTextMode } from 'vscode-languageserver-types';
import type { CompletionItem } from 'vscode-languageserver-types';
import type { CursorContext } from '../yamlPosition';
import { ordinal, replaceRange } from './edits';
import { SKELETONS } from './skeletonTemplates';

/** Names of objects of a kind already declared where the new manifest goes (its workspace folder). */
export type TakenNames = (kind: string) => ReadonlySet<string>;

/**
 * The skeleton with a name no object of its kind has yet: `web` when free, else `web-2`, `web-3`… A skeleton keeping
 * the default of an object that exists would take it over when saved (the file applied last wins).
 */
export function withUniqueName(snippet: string, taken: ReadonlySet<string>): string {
  return snippet.replace(/\$\{1:([^}]*)\}/, (whole, base: string) => {
    if (!taken.has(base)) return whole;
    let n = 2;
    while (taken.has(`${base}-${n}`)) n++;
    return `\${1:${base}-${n}}`;
  });
}

/** Every skeleton, in the table's order, replacing the word typed so far. */
export function skeletonItems(ctx: CursorContext, taken: TakenNames = () => new Set()): CompletionItem[] {
  return SKELETONS.map((s, i) => {
    const snippet = withUniqueName(s.snippet, taken(s.kind));
    return {
      label: `${s.kind} (${s.apiVersion})`,
      kind: CompletionItemKind.Snippet,
      detail: `New ${s.kind} manifest`,
      documentation: { kind: 'markdown', value: `\`\`\`yaml\n${fillDefaults(snippet)}\n\`\`\`` },
      sortText: ordinal(i),
      filterText: s.kind,
      textEdit: { range: replaceRange(ctx), newText: snippet },
      insertTextFormat: InsertTextFormat.Snippet,
      insertTextMode: InsertTextMode.asIs,
    };
  });
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
