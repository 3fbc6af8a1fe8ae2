import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-languageserver/node';
import type { ConfigurationParams, PublishDiagnosticsParams, RegistrationParams } from 'vscode-languageserver/node';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DEADLINE_MS = 30_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${DEADLINE_MS} ms waiting for ${what}`)), DEADLINE_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const SERVICE =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n';
const DEPLOYMENT = (app: string): string =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: ${app}}\n  template:\n    metadata:\n      labels: {app: ${app}}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n`;

test('over stdio: diagnostics for an unopened workspace file, updated by an open document and by a deleted file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kr-lsp-'));
  writeFileSync(join(dir, 'service.yaml'), SERVICE);
  writeFileSync(join(dir, 'deploy.yaml'), DEPLOYMENT('api'));
  writeFileSync(join(dir, 'bad.yaml'), 'apiVersion: v1\nkind: Podd\nmetadata: {name: x}\n');
  mkdirSync(join(dir, 'skipped'));
  writeFileSync(join(dir, 'skipped', 'broken.yaml'), 'kind: [');
  const folder = pathToFileURL(dir).href;
  const serviceUri = `${folder}/service.yaml`;
  const deployUri = `${folder}/deploy.yaml`;
  const badUri = `${folder}/bad.yaml`;

  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts', '--stdio'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  const waiting: Array<() => void> = [];
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (const w of waiting.splice(0)) w();
  });
  /** Resolves when the latest publish for `uri` satisfies `ok`. */
  const until = async (
    uri: string,
    ok: (p: PublishDiagnosticsParams) => boolean,
  ): Promise<PublishDiagnosticsParams> => {
    for (;;) {
      const last = published.filter((p) => p.uri === uri).at(-1);
      if (last !== undefined && ok(last)) return last;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  const registrations: RegistrationParams[] = [];
  conn.onRequest('client/registerCapability', (p: RegistrationParams) => void registrations.push(p));
  conn.onRequest('workspace/configuration', (p: ConfigurationParams) =>
    p.items.map(() => ({ validation: { exclude: ['skipped/**'] } })),
  );
  conn.listen();
  try {
    await within(
      conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: folder,
        workspaceFolders: [{ uri: folder, name: 'w' }],
        capabilities: {
          workspace: {
            configuration: true,
            workspaceFolders: true,
            didChangeWatchedFiles: { dynamicRegistration: true },
            didChangeConfiguration: { dynamicRegistration: true },
          },
        },
      }),
      'initialize',
    );
    await conn.sendNotification('initialized', {});

    const warned = await within(
      until(serviceUri, (p) => p.diagnostics.length > 0),
      'workspace diagnostics for the unopened service.yaml',
    );
    assert.deepEqual(warned, {
      uri: serviceUri,
      diagnostics: [
        {
          range: { start: { line: 5, character: 2 }, end: { line: 5, character: 10 } },
          severity: 2,
          code: 'service-selector-matches-nothing',
          source: 'kube-reconcile',
          message:
            'Service selector app=web matches no pod template in namespace "default" in this workspace folder; the Service would have no endpoints',
        },
      ],
    });
    assert.deepEqual(
      registrations.flatMap((r) => r.registrations.map((x) => [x.method, x.registerOptions])),
      [
        ['workspace/didChangeConfiguration', { section: 'kubeReconcile' }],
        ['workspace/didChangeWatchedFiles', { watchers: [{ globPattern: '**/*.yaml' }, { globPattern: '**/*.yml' }] }],
      ],
    );

    // Unsaved text of the open deploy.yaml now matches the selector: the unopened service.yaml is cleared.
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: deployUri, languageId: 'yaml', version: 1, text: DEPLOYMENT('web') },
    });
    await within(
      until(serviceUri, (p) => p.diagnostics.length === 0),
      'service.yaml cleared by the open deployment',
    );
    assert.deepEqual(
      await within(
        until(deployUri, (p) => p.version === 1),
        'deploy.yaml diagnostics',
      ),
      { uri: deployUri, version: 1, diagnostics: [] },
    );

    // Close it: the disk still says app: api, so the warning returns.
    await conn.sendNotification('textDocument/didClose', { textDocument: { uri: deployUri } });
    await within(
      until(serviceUri, (p) => p.diagnostics.length === 1),
      'warning back after close',
    );
    // A file deleted on disk loses its diagnostics.
    assert.deepEqual(
      (
        await within(
          until(badUri, (p) => p.diagnostics.length > 0),
          'bad.yaml diagnostics',
        )
      ).diagnostics.map((d) => d.code),
      ['unknown-kind'],
    );
    rmSync(join(dir, 'bad.yaml'));
    await conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: badUri, type: 3 }] });
    await within(
      until(badUri, (p) => p.diagnostics.length === 0),
      'bad.yaml cleared after delete',
    );
    assert.equal(
      published.some((p) => p.uri.includes('skipped')),
      false,
    );

    await within(conn.sendRequest('shutdown'), 'shutdown');
    await conn.sendNotification('exit');
    assert.equal(await within(exited, 'server exit'), 0, stderr);
  } finally {
    conn.dispose();
    if (child.exitCode === null) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
