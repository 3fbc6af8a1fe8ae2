/**
 * The sandbox's status-bar item: running/paused, speed and pod count, with
 * where its Kubernetes API serves in the tooltip; a click opens the sandbox
 * controls. Also keeps the `kubeReconcile.sandboxPaused` context key that
 * picks Pause or Resume in the Cluster view's title bar.
 */
import { StatusBarAlignment, commands, window } from 'vscode';
import type { ExtensionContext } from 'vscode';
import { describeApi } from './commands/apiCommands';
import { statusBarText } from './model/statusBarText';
import type { SandboxConnection } from './sandbox/connection';

const CONTROLS_COMMAND = 'kubeReconcile.sandboxControls';
export const PAUSED_CONTEXT = 'kubeReconcile.sandboxPaused';

export function registerStatusBar(context: ExtensionContext, connection: SandboxConnection): void {
  const item = window.createStatusBarItem('kubeReconcile.sandbox', StatusBarAlignment.Left, 0);
  item.name = 'Kube Reconcile Sandbox';
  item.command = CONTROLS_COMMAND;
  let paused: boolean | undefined;
  const show = (): void => {
    const { text, tooltip } = statusBarText(connection.status);
    item.text = text;
    const api = describeApi(connection.status?.api);
    item.tooltip = api ? `${tooltip}\n${api}` : tooltip;
    const now = connection.status?.paused ?? false;
    if (now !== paused) void commands.executeCommand('setContext', PAUSED_CONTEXT, (paused = now));
  };
  show();
  item.show();
  context.subscriptions.push(item, connection.onDidStatus(show));
}
