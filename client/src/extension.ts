import { ConfigurationTarget, workspace } from 'vscode';
import type { ExtensionContext } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { keepSavedSnapshotAside, loadSavedSnapshot, registerPersistence } from './apply/persistence';
import type { Persistence } from './apply/persistence';
import { registerApply } from './apply/registerApply';
import type { ApplyRegistration } from './apply/registerApply';
import { editManifest } from './apply/manifestEditor';
import { selfHealNotice } from './commands/syncCommands';
import { DiagnosticsFreshness } from './model/diagnosticsFreshness';
import { connectApi } from './commands/apiCommands';
import type { CommandContext } from './commands/context';
import { targetOf } from './commands/objectArg';
import { registerCommands } from './commands/register';
import { onSettingsChanged } from './commands/settingsChanged';
import { startSandbox } from './commands/startup';
import { createUi, createWorkspaceFiles } from './commands/vscodeUi';
import { Config, SECTION, kubeconfigFile } from './config';
import { registerForesight } from './foresight/registerForesight';
import { createLanguageClient, feedSandboxCrds } from './languageClient';
import { connectOutput, createOutput } from './output';
import { registerLive } from './live/registerLive';
import { ViewedCluster, refusal } from './live/viewedCluster';
import { SandboxHost } from './sandbox/host';
import { registerStatusBar } from './statusBar';
import { registerClusterView } from './views/clusterView';
import { ReadOnlyDocuments } from './views/readOnlyDocuments';
import { showClusterOverview, showDesiredVsActual } from './webview/desiredVsActual';

/** The sandbox worker's bundle (scripts/build.mjs). */
const WORKER_SCRIPT = 'dist/sandboxWorker.js';

// Held at module scope only so that deactivate() can save and shut down cleanly:
// VS Code awaits deactivate()'s promise, but not the disposal of subscriptions.
let client: LanguageClient | undefined;
let persistence: Persistence | undefined;

/**
 * Wires the extension and returns: starts the sandbox worker (the cluster
 * runs off the extension host's thread), registers the views, commands,
 * status bar and output channel, then starts the language server. The
 * sandbox's `init` and the start-up apply of the workspace (when
 * `kubeReconcile.applyOnStartup` allows it) run in the background, and so does
 * the language server's start (a failure is shown as an error message).
 * Everything created goes into `context.subscriptions`.
 */
export async function activate(context: ExtensionContext): Promise<void> {
  const started = performance.now();
  const config = new Config();
  const connection = new SandboxHost({ workerPath: context.asAbsolutePath(WORKER_SCRIPT) });
  context.subscriptions.push(connection);
  const saved = registerPersistence(context, connection);
  persistence = saved;

  const output = createOutput(context);
  connectOutput(context, output, connection);
  const documents = new ReadOnlyDocuments();
  context.subscriptions.push(documents);
  let apply: ApplyRegistration | undefined;
  const kubeconfig = kubeconfigFile(context);
  // Whether the language server has judged the text being saved (save-to-apply waits for its verdict).
  const freshness = new DiagnosticsFreshness();
  const ctx: CommandContext = {
    connection,
    ui: createUi(output, documents),
    files: createWorkspaceFiles(context),
    settings: () => config.settings,
    showDesiredVsActual: (ref) => showDesiredVsActual(context, connection, ref),
    showClusterOverview: () => showClusterOverview(context, connection),
    forgetSavedState: () => saved.clear(),
    applyWorkspace: () => apply?.applyWorkspace() ?? Promise.resolve(),
    api: () => ({ ...config.api, kubeconfig }),
    applySource: (source) => apply?.applySource(source, 'sync') ?? Promise.resolve(undefined),
    editManifest,
    turnOffSelfHeal: () =>
      Promise.resolve(
        workspace
          .getConfiguration(SECTION)
          .update(
            'selfHeal',
            false,
            workspace.workspaceFolders ? ConfigurationTarget.Workspace : ConfigurationTarget.Global,
          ),
      ),
  };
  // The Cluster view shows the sandbox or a real context (Connect to Cluster…); real rows age by the wall clock.
  const viewed = new ViewedCluster(connection, () => Date.now());
  ctx.tree = registerClusterView(context, viewed);
  const liveRead = registerLive(context, viewed, ctx.ui, (line) => output.appendLine(`[live] ${line}`), {
    target: (title, arg) => targetOf(ctx, title, arg),
    showDesiredVsActual: (ref, live) => showDesiredVsActual(context, viewed, ref, live),
  });
  registerCommands(context, ctx, (id) => refusal(id, viewed.context), liveRead);
  registerStatusBar(context, connection);
  registerForesight(context, connection, freshness);
  context.subscriptions.push(
    config.onDidChange((changed) => void onSettingsChanged(ctx, changed)),
    connection.onDidCrash((e) => ctx.ui.error(e.message)),
    connection.onDidSelfHeal((reverts) => reverts.forEach((r) => void selfHealNotice(ctx, r))),
    workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) freshness.changed(e.document.uri.toString());
    }),
    workspace.onDidCloseTextDocument((d) => freshness.closed(d.uri.toString())),
    ...connectApi(ctx, {
      onDidChangeSettings: (l) => config.onDidChangeApi(l),
      onDidCrash: (l) => connection.onDidCrash(l),
    }),
  );
  void startSandbox(
    ctx,
    () => loadSavedSnapshot(context),
    () => keepSavedSnapshotAside(context),
  ).then((running) => {
    if (!running) return;
    apply = registerApply(context, connection, { freshness, settings: () => config.settings });
    void apply
      .startup()
      .catch((e: unknown) => ctx.ui.error(`Kube Reconcile could not apply the workspace: ${String(e)}`));
  });

  client = createLanguageClient(context, (uri) => freshness.published(uri.toString()));
  context.subscriptions.push(client, feedSandboxCrds(client, connection));
  // Activation does not wait for the language server: its diagnostics arrive when it is up.
  const wired = Math.round(performance.now() - started);
  void client.start().then(
    () =>
      output.appendLine(
        `Kube Reconcile activated in ${wired} ms (language server ready after ${Math.round(performance.now() - started)} ms)`,
      ),
    (e: unknown) =>
      ctx.ui.error(`The Kube Reconcile language server did not start: ${e instanceof Error ? e.message : String(e)}`),
  );
}

/** Saves the sandbox to the workspace storage and stops the language server; resolves once both are done. */
export async function deactivate(): Promise<void> {
  await Promise.allSettled([persistence?.saveNow(), client?.stop()]);
  persistence = undefined;
  client = undefined;
}
