/**
 * The sandbox's status-bar item: running/paused, speed and pod count; a click
 * opens the sandbox controls. Also keeps the `kubeReconcile.sandboxPaused`
 * context key that picks Pause or Resume in the Cluster view's title bar.
 */
import { StatusBarAlignment, commands, window } from 'vscode';
import type { ExtensionContext } from 'vscode';
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
    item.tooltip = tooltip;
    const now = connection.status?.paused ?? false;
    if (now !== paused) void commands.executeCommand('setContext', PAUSED_CONTEXT, (paused = now));
  };
  show();
  item.show();
  context.subscriptions.push(item, connection.onDidStatus(show));
}
