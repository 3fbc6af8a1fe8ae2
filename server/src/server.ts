/**
 * Entry point of the Kube Reconcile language server. The transport
 * (`--stdio`, `--node-ipc`, `--socket=`) is chosen by the command line, as
 * vscode-languageserver reads it; this file only wires handlers.
 */
import { ProposedFeatures, TextDocumentSyncKind, TextDocuments, createConnection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CODE_ACTION_KINDS, registerCodeActions } from './handlers/codeActionHandler';
import { COMPLETION_TRIGGER_CHARACTERS, registerCompletion } from './handlers/completionHandler';
import { registerDiagnostics } from './handlers/diagnosticsHandler';
import { registerHover } from './handlers/hoverHandler';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const diagnostics = registerDiagnostics(connection, documents);
registerCompletion(connection, documents, diagnostics.index, diagnostics.externalCrds);
registerHover(connection, documents, diagnostics.index, diagnostics.externalCrds);
registerCodeActions(connection, documents);

connection.onInitialize((params) => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS },
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS },
    ...diagnostics.initialize(params),
  },
  serverInfo: { name: 'kube-reconcile' },
}));
connection.onInitialized(() => void diagnostics.initialized());
connection.onShutdown(() => diagnostics.dispose());

documents.listen(connection);
connection.listen();
