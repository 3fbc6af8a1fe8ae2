import { workspace } from 'vscode';
import type { ExtensionContext, Uri } from 'vscode';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';

/**
 * The client id. vscode-languageclient reads `<id>.trace.server` by itself, which is
 * why package.json declares `kubeReconcile.trace.server` and no code here reads it.
 */
export const CLIENT_ID = 'kubeReconcile';

/** Port the server's inspector listens on when the extension runs under the debugger. */
const DEBUG_PORT = 6009;

/**
 * Creates, but does not start, the language client for the bundled server
 * (`dist/server.js`, forked over IPC). It serves YAML documents of any scheme.
 * `onDiagnostics` hears of each publication, once its diagnostics are stored
 * (save-to-apply waits for the verdict on the text being saved).
 */
export function createLanguageClient(context: ExtensionContext, onDiagnostics?: (uri: Uri) => void): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: {
      module,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', `--inspect=${DEBUG_PORT}`] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'yaml' }],
    // For clients that cannot register watchers dynamically: the server indexes every manifest in the workspace.
    synchronize: { fileEvents: workspace.createFileSystemWatcher('**/*.{yaml,yml}') },
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) => {
        next(uri, diagnostics);
        onDiagnostics?.(uri);
      },
    },
  };
  return new LanguageClient(CLIENT_ID, 'Kube Reconcile Language Server', serverOptions, clientOptions);
}
