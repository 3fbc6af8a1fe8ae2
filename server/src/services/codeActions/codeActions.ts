/**
 * Quick fixes: a text document and the diagnostics of a range in, code
 * actions out, each a WorkspaceEdit on the exact text it changes. Driven by
 * the diagnostics' `code` and `data`, so no validation is re-run.
 */
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DIAGNOSTIC_SOURCE } from '../diagnostic';
import { schemaData } from '../schemaRules/diagnosticData';
import { removedApiFix } from './removedApiFix';
import { schemaFixes } from './schemaFixes';
import { selectorFixes } from './selectorFix';

/** The quick fixes for `diagnostics` (ours only) in `doc`, in the diagnostics' order. Never throws on any text. */
export function codeActionsFor(doc: TextDocument, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    if (d.source !== DIAGNOSTIC_SOURCE) continue;
    const data = schemaData(d.data);
    if (data !== undefined) out.push(...schemaFixes(doc, d, data));
    else if (d.code === 'removed-api-version') out.push(...removedApiFix(doc, d));
    else if (d.code === 'workload-selector-matches-template') out.push(...selectorFixes(doc, d));
  }
  return out;
}
