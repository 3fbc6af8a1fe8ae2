import { workspace } from 'vscode';
import type { ExtensionContext } from 'vscode';
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
 */
export function createLanguageClient(context: ExtensionContext): LanguageClient {
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
  };
  return new LanguageClient(CLIENT_ID, 'Kube Reconcile Language Server', serverOptions, clientOptions);
}
