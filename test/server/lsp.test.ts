import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-languageserver/node';
import type { MessageConnection, PublishDiagnosticsParams } from 'vscode-languageserver/node';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEADLINE_MS = 30_000;

/** Resolves with `promise`, or rejects once `ms` have passed (the test's deadline, not a sleep). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Collects publishDiagnostics per URI and lets a test wait for the next one. */
/** The next publication for `uri` (of `version`, when given: earlier ones are skipped and kept in `skipped`). */
function diagnosticsFeed(
  conn: MessageConnection,
  skipped: PublishDiagnosticsParams[] = [],
): (uri: string, version?: number) => Promise<PublishDiagnosticsParams> {
  const waiting = new Map<string, { version?: number; resolve: (p: PublishDiagnosticsParams) => void }>();
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    const w = waiting.get(p.uri);
    if (!w) return;
    if (w.version !== undefined && p.version !== w.version) skipped.push(p);
    else w.resolve(p);
  });
  return (uri, version) => new Promise((resolve) => waiting.set(uri, { version, resolve }));
}

test('the server publishes diagnostics over stdio, validates each edit and clears them on close', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts', '--stdio'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const skipped: PublishDiagnosticsParams[] = [];
  const nextDiagnostics = diagnosticsFeed(conn, skipped);
  conn.listen();
  try {
    const init = await within(
      conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} }),
      DEADLINE_MS,
      'initialize',
    );
    assert.equal((init as { serverInfo?: { name: string } }).serverInfo?.name, 'kube-reconcile');
    await conn.sendNotification('initialized', {});

    const uri = 'file:///workspace/deploy.yaml';
    const opened = nextDiagnostics(uri);
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: {
        uri,
        languageId: 'yaml',
        version: 1,
        text: 'apiVersion: apps/v1\nkind: Deploymnt\nmetadata:\n  name: web\n',
      },
    });
    assert.deepEqual(await within(opened, DEADLINE_MS, 'diagnostics after didOpen'), {
      uri,
      version: 1,
      diagnostics: [
        {
          range: { start: { line: 1, character: 6 }, end: { line: 1, character: 15 } },
          severity: 1,
          code: 'unknown-kind',
          source: 'kube-reconcile',
          message: 'Unknown kind "Deploymnt" for apiVersion "apps/v1"',
        },
      ],
    });

    // Two quick edits: validation starts on each change (no debounce), so version 2 may be published first if the
    // second edit arrives after its check; a run the second edit superseded never publishes, and version 3 comes last.
    const changed = nextDiagnostics(uri, 3);
    const fixed = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n';
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: 'kind: [' }],
    });
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 3 },
      contentChanges: [{ text: fixed }],
    });
    assert.deepEqual(await within(changed, DEADLINE_MS, 'diagnostics after didChange'), {
      uri,
      version: 3,
      diagnostics: [],
    });
    assert.ok(
      skipped.every((p) => p.version === 2),
      `only version 2 may come before: ${JSON.stringify(skipped)}`,
    );

    const closed = nextDiagnostics(uri);
    await conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    assert.deepEqual(await within(closed, DEADLINE_MS, 'diagnostics after didClose'), { uri, diagnostics: [] });

    await within(conn.sendRequest('shutdown'), DEADLINE_MS, 'shutdown');
    await conn.sendNotification('exit');
    assert.equal(await within(exited, DEADLINE_MS, 'server exit'), 0, stderr);
  } finally {
    conn.dispose();
    if (child.exitCode === null) child.kill();
  }
});
