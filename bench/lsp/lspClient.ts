/**
 * A minimal LSP client for the benchmark: spawns a server over stdio, speaks
 * real JSON-RPC, answers its configuration and registration requests, and
 * lets the caller wait for the next publishDiagnostics of a URI.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-languageserver/node';
import type { ConfigurationParams, MessageConnection, PublishDiagnosticsParams } from 'vscode-languageserver/node';

export interface BenchServer {
  readonly name: string;
  readonly conn: MessageConnection;
  readonly child: ChildProcess;
  readonly capabilities: Record<string, unknown>;
  /** Resolves with the next publishDiagnostics for `uri`. */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  /** Peak resident set size of the server process so far, in MiB (Linux VmHWM). */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

/** Starts `command args` and initializes it; `settings` answers `workspace/configuration` by section. */
export async function startServer(
  name: string,
  command: string,
  args: string[],
  settings: Record<string, unknown>,
): Promise<BenchServer> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiting = new Map<string, (p: PublishDiagnosticsParams) => void>();
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    const w = waiting.get(p.uri);
    waiting.delete(p.uri);
    w?.(p);
  });
  conn.onRequest('workspace/configuration', (p: ConfigurationParams) =>
    p.items.map((i) => (i.section === undefined ? null : (settings[i.section] ?? null))),
  );
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification(() => undefined);
  conn.listen();
  const init = (await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: null,
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
      textDocument: {
        publishDiagnostics: {},
        completion: { completionItem: { snippetSupport: true } },
        synchronization: { didSave: true },
      },
    },
  })) as { capabilities: Record<string, unknown> };
  await conn.sendNotification('initialized', {});
  await conn.sendNotification('workspace/didChangeConfiguration', { settings });
  return {
    name,
    conn,
    child,
    capabilities: init.capabilities,
    nextDiagnostics: (uri) => new Promise((resolve) => waiting.set(uri, resolve)),
    peakRssMiB: () => {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : Number.NaN;
    },
    stop: async () => {
      await conn.sendRequest('shutdown').catch(() => undefined);
      await conn.sendNotification('exit').catch(() => undefined);
      conn.dispose();
      child.kill();
    },
  };
}
