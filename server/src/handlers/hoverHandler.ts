/**
 * Wire layer for hover: the open document and the position go to the pure hover service, with the custom kinds its
 * folder's CRDs serve.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { KubeObject } from '../../../sandbox/api/types';
import { hoverAt } from '../services/hover/hover';
import { isYamlDocument } from './workspaceDiagnostics';
import { customSchemaLookup } from './customSchemas';
import type { WorkspaceIndex } from '../services/workspace/index';

/** Answers `textDocument/hover` for open YAML documents. */
export function registerHover(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  index: WorkspaceIndex,
  externalCrds: () => readonly KubeObject[] = () => [],
): void {
  connection.onHover((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined || !isYamlDocument(doc)) return null;
    return hoverAt(doc, params.position, customSchemaLookup(index, doc.uri, externalCrds()));
  });
}
