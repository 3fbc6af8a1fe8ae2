/**
 * The "Kube Reconcile" output channel: the reconciliation log, highlighted by
 * the kube-reconcile-log grammar, bounded; plus a line whenever the sandbox's
 * Kubernetes API starts serving (its URL and kubeconfig) or fails.
 */
import { window } from 'vscode';
import type { ExtensionContext, OutputChannel } from 'vscode';
import { formatLogEntry } from '../../sandbox/client/reconcileLog';
import { describeApi } from './commands/apiCommands';
import { LogBuffer } from './model/logBuffer';
import type { SandboxConnection } from './sandbox/connection';

export const OUTPUT_NAME = 'Kube Reconcile';
export const LOG_LANGUAGE = 'kube-reconcile-log';

/** Creates the channel (registered in `context.subscriptions`); `connect` starts feeding it. */
export function createOutput(context: ExtensionContext): OutputChannel {
  const channel = window.createOutputChannel(OUTPUT_NAME, LOG_LANGUAGE);
  context.subscriptions.push(channel);
  return channel;
}

/** Appends each log batch from the sandbox, keeping the channel to a bounded number of lines. */
export function connectOutput(context: ExtensionContext, channel: OutputChannel, connection: SandboxConnection): void {
  const buffer = new LogBuffer();
  const add = (lines: string[]): void => {
    const write = buffer.add(lines);
    if (write?.kind === 'append') channel.append(write.text);
    else if (write?.kind === 'replace') channel.replace(write.text);
  };
  let api: string | undefined;
  context.subscriptions.push(
    connection.onDidLog((entries) => add(entries.map(formatLogEntry))),
    connection.onDidStatus((status) => {
      const state = status.api?.state;
      const line = state === 'serving' || state === 'failed' ? describeApi(status.api) : undefined;
      if (line !== undefined && line !== api) add([line]);
      api = line;
    }),
  );
}
