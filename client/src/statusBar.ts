/**
 * The sandbox's status-bar item: running/paused (paused on the warning
 * background), speed and pod count, what needs attention ("1 pod failing"),
 * with where its Kubernetes API serves in the tooltip; a click opens the
 * sandbox controls. Also keeps the `kubeReconcile.sandboxPaused` context key
 * that picks Pause or Resume in the Cluster view's title bar.
 */
import { StatusBarAlignment, ThemeColor, commands, window } from 'vscode';
import type { ExtensionContext } from 'vscode';
import { describeApi } from './commands/apiCommands';
import { healthSummary } from './model/liveState';
import { statusBarText } from './model/statusBarText';
import { Throttle } from './model/throttle';
import type { SandboxConnection } from './sandbox/connection';

const CONTROLS_COMMAND = 'kubeReconcile.sandboxControls';
export const PAUSED_CONTEXT = 'kubeReconcile.sandboxPaused';

export function registerStatusBar(context: ExtensionContext, connection: SandboxConnection): void {
  const item = window.createStatusBarItem('kubeReconcile.sandbox', StatusBarAlignment.Left, 0);
  item.name = 'Kube Reconcile Sandbox';
  item.command = CONTROLS_COMMAND;
  let paused: boolean | undefined;
  const show = (): void => {
    const status = connection.status;
    const health = healthSummary(
      connection.cache.list('pods'),
      connection.cache.list('nodes'),
      status?.failedNodes ?? [],
    );
    const { text, tooltip, background } = statusBarText(status, health);
    item.text = text;
    const api = describeApi(status?.api);
    item.tooltip = api ? `${tooltip}\n${api}` : tooltip;
    item.backgroundColor = background ? new ThemeColor(background) : undefined;
    const now = status?.paused ?? false;
    if (now !== paused) void commands.executeCommand('setContext', PAUSED_CONTEXT, (paused = now));
  };
  const throttle = new Throttle(show, 250);
  show();
  item.show();
  context.subscriptions.push(
    item,
    throttle,
    connection.onDidStatus(show),
    connection.onDidChange(() => throttle.schedule()),
  );
}
