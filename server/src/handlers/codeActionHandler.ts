/**
 * Wire layer for quick fixes: the open document and the diagnostics the client sends go to the pure code-action
 * service.
 */
import { CodeActionKind } from 'vscode-languageserver/node';
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActionsFor } from '../services/codeActions/codeActions';
import { isYamlDocument } from './workspaceDiagnostics';

/** The code action kinds the server produces. */
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix];

/** Answers `textDocument/codeAction` for open YAML documents. */
export function registerCodeActions(connection: Connection, documents: TextDocuments<TextDocument>): void {
  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined || !isYamlDocument(doc)) return [];
    const only = params.context.only;
    if (only !== undefined && !only.some(coversQuickFix)) return [];
    return codeActionsFor(doc, params.context.diagnostics);
  });
}

/** True when a requested kind includes quick fixes (`''` is every kind; kinds are dot-separated hierarchies). */
function coversQuickFix(kind: string): boolean {
  return kind === '' || kind === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(`${kind}.`);
}
