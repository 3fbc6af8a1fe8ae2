/**
 * Entry point of the Kube Reconcile language server. The transport
 * (`--stdio`, `--node-ipc`, `--socket=`) is chosen by the command line, as
 * vscode-languageserver reads it; this file only wires handlers.
 */
import { ProposedFeatures, TextDocumentSyncKind, TextDocuments, createConnection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { registerDiagnostics } from './handlers/diagnosticsHandler';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
  serverInfo: { name: 'kube-reconcile' },
}));

const stopDiagnostics = registerDiagnostics(connection, documents);
connection.onShutdown(() => stopDiagnostics());

documents.listen(connection);
connection.listen();
