/** The one constructor of quick fixes, so every action has the same shape. */
import { CodeActionKind } from 'vscode-languageserver-types';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-types';

/** A quick fix for `diagnostic` applying `edits` to the document at `uri`. */
export function quickFix(
  title: string,
  uri: string,
  diagnostic: Diagnostic,
  edits: TextEdit[],
  isPreferred: boolean,
): CodeAction {
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred,
    edit: { changes: { [uri]: edits } },
  };
}
