/** Wire layer for hover: the open document and the position go to the pure hover service. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { hoverAt } from '../services/hover/hover';
import { isYamlDocument } from './workspaceDiagnostics';

/** Answers `textDocument/hover` for open YAML documents. */
export function registerHover(connection: Connection, documents: TextDocuments<TextDocument>): void {
  connection.onHover((params) => {
    const doc = documents.get(params.textDocument.uri);
    return doc === undefined || !isYamlDocument(doc) ? null : hoverAt(doc, params.position);
  });
}
