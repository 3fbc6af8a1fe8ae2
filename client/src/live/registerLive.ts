/**
 * The real-cluster commands in VS Code: Connect to Cluster…, Apply to Cluster… and Show the Sandbox; the status-bar
 * item that says which cluster the views show (a click switches back to the sandbox); and the
 * `kubeReconcile.liveContext` context key that hides sandbox-only actions while a real context is shown.
 * The real-cluster code (@kubernetes/client-node, about 1.5 MB) is loaded on the first of these commands, not at
 * activation.
 */
import { StatusBarAlignment, commands, window, workspace } from 'vscode';
import type { ExtensionContext } from 'vscode';
import type { Command } from '../commands/context';
import type { Ui } from '../commands/ui';
import { SECTION } from '../config';
import type { ObjectRef } from '../sandbox/protocol';
import type { LiveViewSource } from '../webview/desiredVsActual';
import type { LiveDeps, LiveSession } from './liveCommands';
import { LIVE_CONTEXT_KEY, LIVE_READ_COMMANDS, viewedLabel } from './viewedCluster';
import type { ViewedCluster } from './viewedCluster';

export const CONNECT_COMMAND = 'kubeReconcile.connectToCluster';
export const APPLY_TO_CLUSTER_COMMAND = 'kubeReconcile.applyToCluster';
export const PLAN_AGAINST_CLUSTER_COMMAND = 'kubeReconcile.planAgainstCluster';
export const SHOW_SANDBOX_COMMAND = 'kubeReconcile.showSandbox';

/** What the real-cluster read commands borrow from the sandbox's commands and panels. */
export interface LiveReadHooks {
  /** The object a command was invoked on (a tree node, else the selected row), or undefined after saying where. */
  target(title: string, arg: unknown): ObjectRef | undefined;
  /** Opens Desired vs Actual on the Cluster view's connection (the context's objects). */
  showDesiredVsActual(ref: ObjectRef, live: LiveViewSource): void;
}

const NAMESPACES_KEY = 'kubeReconcile.liveNamespaces';

/**
 * Registers the real-cluster commands; answers, for the command table's `divert`, the real-cluster version of a read
 * command while a context is shown (undefined otherwise: the sandbox's command runs, or is refused).
 */
export function registerLive(
  context: ExtensionContext,
  viewed: ViewedCluster,
  ui: Ui,
  log: (line: string) => void,
  hooks: LiveReadHooks,
): (id: string) => Command | undefined {
  const deps: LiveDeps = {
    ui,
    viewed,
    log,
    // remembered per context in the global state (a context's name is the user's, not the workspace's)
    namespaces: {
      get: (ctx) => context.globalState.get<Record<string, string[]>>(NAMESPACES_KEY)?.[ctx],
      set: (ctx, namespaces) =>
        context.globalState.update(NAMESPACES_KEY, {
          ...context.globalState.get<Record<string, string[]>>(NAMESPACES_KEY),
          [ctx]: [...namespaces],
        }),
    },
    // the default is live/apply.ts's DEFAULT_PROTECTED_CONTEXTS (package.json declares it too)
    protectedContexts: () => workspace.getConfiguration(SECTION).get<string>('protectedContexts') ?? 'prod|production',
  };
  let loaded: Promise<LiveSession> | undefined;
  let session: LiveSession | undefined;
  const live = (): Promise<LiveSession> =>
    (loaded ??= import('./liveCommands').then((m) => (session = new m.LiveSession(deps))));
  const item = window.createStatusBarItem('kubeReconcile.viewedCluster', StatusBarAlignment.Left, 1);
  item.name = 'Kube Reconcile Cluster Shown';
  item.command = SHOW_SANDBOX_COMMAND;
  const show = (): void => {
    const label = viewedLabel(viewed.context, viewed.feed);
    if (!label) return item.hide();
    item.text = label.text;
    item.tooltip = label.tooltip;
    item.show();
  };
  let shown: string | undefined;
  context.subscriptions.push(
    item,
    { dispose: () => session?.stop() },
    viewed,
    viewed.onDidSwitch((ctx) => {
      shown = ctx;
      void commands.executeCommand('setContext', LIVE_CONTEXT_KEY, ctx !== undefined);
      show();
    }),
    viewed.onDidStatus(() => {
      if (shown !== undefined) show();
    }),
    commands.registerCommand(CONNECT_COMMAND, async () => (await live()).connect()),
    commands.registerCommand(SHOW_SANDBOX_COMMAND, () => (session ? session.showSandbox() : viewed.showSandbox())),
    commands.registerCommand(APPLY_TO_CLUSTER_COMMAND, async () => {
      const doc = window.activeTextEditor?.document;
      if (!doc) {
        ui.error('Apply to Cluster applies the manifests of the active editor: open a YAML file first.');
        return;
      }
      await (await live()).apply(doc.getText(), workspace.asRelativePath(doc.uri));
    }),
    commands.registerCommand(PLAN_AGAINST_CLUSTER_COMMAND, async () => {
      const doc = window.activeTextEditor?.document;
      if (!doc) {
        ui.error('Plan Against Cluster plans the manifests of the active editor: open a YAML file first.');
        return;
      }
      const s = await live();
      const { planAgainstCluster } = await import('./liveCommands');
      await planAgainstCluster(s, ui, viewed.context, doc.getText(), workspace.asRelativePath(doc.uri));
    }),
  );
  return (id) => {
    const shownContext = viewed.context;
    if (shownContext === undefined || !LIVE_READ_COMMANDS.includes(id)) return undefined;
    return async (...args) => {
      const s = await live();
      const source: LiveViewSource = { context: shownContext, watchEvents: (ref) => s.watchEvents(ref) };
      const command = s.readCommand(
        id,
        (title, arg) => hooks.target(title, arg),
        (ref) => hooks.showDesiredVsActual(ref, source),
      );
      await command?.(...args);
    };
  };
}
