/**
 * Wire layer for diagnostics: connects the LSP connection (documents,
 * settings, watched files, workspace folders) to {@link WorkspaceDiagnostics},
 * which does the work. All Kubernetes knowledge lives in the pure services.
 */
import { DidChangeConfigurationNotification } from 'vscode-languageserver/node';
import type {
  ClientCapabilities,
  Connection,
  Disposable,
  InitializeParams,
  ServerCapabilities,
  TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { KubeObject } from '../../../sandbox/api/types';
import { ExternalCrds, SANDBOX_CRDS_NOTIFICATION, sandboxCrdsOf } from '../services/customSchema/externalCrds';
import { SETTINGS_SECTION } from '../settings';
import type { WorkspaceIndex } from '../services/workspace/index';
import { yieldWithSetImmediate } from '../services/workspace/analyzeInSlices';
import { CrdCatalogue, diskCrdFolderHost } from './crdFolders';
import { listFolderFiles, readDiskFile } from './diskFiles';
import { FileEventBatcher, registerFileWatcher } from './fileWatcher';
import { pullSettings, pushedSettings } from './settingsHandler';
import type { ResolvedSettings } from './settingsHandler';
import { WorkspaceDiagnostics } from './workspaceDiagnostics';

export { VALIDATION_DELAY_MS, isYamlDocument } from './workspaceDiagnostics';

/** What server.ts calls at each stage of the LSP lifecycle. */
export interface DiagnosticsRegistration {
  /**
   * From `onInitialize`: records the client's capabilities, folders and options; returns the capabilities to merge into
   * the result.
   */
  initialize(params: InitializeParams): Pick<ServerCapabilities, 'workspace'>;
  /** From `onInitialized`: reads settings, registers watchers and starts indexing the workspace folders. */
  initialized(): Promise<void>;
  /** What the server knows of the workspace (for completion: `labelsInWorkspace`). */
  readonly index: WorkspaceIndex;
  /** CRDs from outside the workspace (`kubeReconcile.crdFolders`, the running sandbox), for completion and hover. */
  externalCrds(): readonly KubeObject[];
  dispose(): void;
}

/** Hooks diagnostics onto `connection` and `documents`. */
export function registerDiagnostics(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
): DiagnosticsRegistration {
  const work = new WorkspaceDiagnostics({
    send: (params) => void connection.sendDiagnostics(params),
    readFile: readDiskFile,
    listFiles: listFolderFiles,
    now: () => performance.now(),
    yieldToEventLoop: yieldWithSetImmediate,
  });
  let caps: ClientCapabilities = {};
  let initOptions: unknown;
  let initialFolders: string[] = [];
  let watcher: Disposable | undefined;
  let watchedPatterns = '';
  const pull = (): boolean => caps.workspace?.configuration === true;
  const folders = (): string[] => work.index.folders;
  // Workspace CRDs first, then the catalogue's, then the sandbox's (customSchema/externalCrds.ts).
  const external = new ExternalCrds();
  const catalogue = new CrdCatalogue(
    diskCrdFolderHost((message) => void connection.window.showWarningMessage(message)),
    (crds) => {
      if (external.setCatalogue(crds)) work.setExternalCrds(external.objects);
    },
  );
  let crdFolders: readonly string[] = [];

  const apply = async (resolved: ResolvedSettings): Promise<void> => {
    work.setSettings(resolved.global, resolved.perFolder);
    crdFolders = resolved.global.crdFolders;
    void catalogue.load(crdFolders, folders()).catch(() => undefined);
    const patterns = resolved.global.validation.include;
    if (
      caps.workspace?.didChangeWatchedFiles?.dynamicRegistration !== true ||
      JSON.stringify(patterns) === watchedPatterns
    )
      return;
    watchedPatterns = JSON.stringify(patterns);
    watcher?.dispose();
    watcher = await registerFileWatcher(connection, patterns);
  };
  const batcher = new FileEventBatcher((changed, deleted) => {
    work.filesChanged(changed, deleted);
    void catalogue.filesChanged([...changed, ...deleted])?.catch(() => undefined);
  });
  // TextDocuments fires onDidOpen, then onDidChangeContent for the same document.
  const justOpened = new Set<string>();
  const subscriptions: Disposable[] = [
    documents.onDidOpen((e) => void justOpened.add(e.document.uri)),
    documents.onDidChangeContent(({ document: d }) => {
      work.documentChanged(
        { uri: d.uri, version: d.version, languageId: d.languageId, text: d.getText() },
        justOpened.delete(d.uri),
      );
    }),
    documents.onDidClose((e) => work.documentClosed(e.document.uri)),
    connection.onDidChangeConfiguration(
      (p) =>
        void (pull() ? pullSettings(connection, folders()) : Promise.resolve(pushedSettings(p.settings))).then(apply),
    ),
    connection.onDidChangeWatchedFiles((p) => batcher.add(p.changes)),
    connection.onNotification(SANDBOX_CRDS_NOTIFICATION, (params: unknown) => {
      if (external.setSandbox(sandboxCrdsOf(params))) work.setExternalCrds(external.objects);
    }),
  ];

  return {
    index: work.index,
    externalCrds: () => external.objects,
    initialize(params) {
      caps = params.capabilities;
      initOptions = params.initializationOptions;
      initialFolders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
      return { workspace: { workspaceFolders: { supported: true, changeNotifications: true } } };
    },
    async initialized() {
      if (caps.workspace?.didChangeConfiguration?.dynamicRegistration === true) {
        void connection.client
          .register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION })
          .catch(() => undefined);
      }
      if (caps.workspace?.workspaceFolders === true) {
        subscriptions.push(
          connection.workspace.onDidChangeWorkspaceFolders((e) => {
            work.removeFolders(e.removed.map((f) => f.uri));
            work.addFolders(e.added.map((f) => f.uri));
            // A relative CRD folder is resolved in the first workspace folder, which may have changed.
            void catalogue.load(crdFolders, folders()).catch(() => undefined);
          }),
        );
      }
      for (const f of initialFolders) work.index.addFolder(f);
      await apply(pull() ? await pullSettings(connection, folders()) : pushedSettings(initOptions));
    },
    dispose() {
      batcher.dispose();
      watcher?.dispose();
      for (const s of subscriptions) s.dispose();
      work.dispose();
    },
  };
}
