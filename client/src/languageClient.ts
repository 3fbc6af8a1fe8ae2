import { Disposable, workspace } from 'vscode';
import type { ExtensionContext, Uri } from 'vscode';
import { LanguageClient, State, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type { KubeObject } from '../../sandbox/api/types';
import { SANDBOX_CRDS_NOTIFICATION, SandboxCrdFeed } from './model/sandboxCrds';

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

/** What the CRD feed reads of the sandbox: its mirror's CRDs and the change feed. */
export interface SandboxCrdSource {
  readonly cache: { list(resource: string): KubeObject[] };
  onDidChange(listener: () => void): { dispose(): void };
}

/**
 * Keeps the language server told of the CRDs the running sandbox serves (model/sandboxCrds.ts): at once, on every
 * change of the mirror's CustomResourceDefinitions (a reset's list included), and again whenever the server
 * (re)starts.
 */
export function feedSandboxCrds(client: LanguageClient, sandbox: SandboxCrdSource): Disposable {
  const feed = new SandboxCrdFeed((params) => {
    if (client.isRunning()) void client.sendNotification(SANDBOX_CRDS_NOTIFICATION, params).catch(() => undefined);
  });
  // Which CRD versions the mirror holds: a batch that changes none (most of them) costs one short list; a reset's
  // list without any CRD changes it too, although no change in it names a CRD.
  let seen: string | undefined;
  const update = (): void => {
    if (!client.isRunning()) return;
    const crds = sandbox.cache.list('customresourcedefinitions');
    const key = crds.map((c) => `${c.metadata.name}@${c.metadata.resourceVersion}`).join(' ');
    if (key === seen) return;
    seen = key;
    feed.update(crds);
  };
  update();
  const changes = sandbox.onDidChange(update);
  const states = client.onDidChangeState((e) => {
    if (e.newState !== State.Running) return;
    feed.reset();
    seen = undefined;
    update();
  });
  return Disposable.from(changes, states);
}
