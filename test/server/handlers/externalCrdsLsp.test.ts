import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-languageserver/node';
import type { ConfigurationParams, PublishDiagnosticsParams, ShowMessageParams } from 'vscode-languageserver/node';
import { parse } from 'yaml';
import { SANDBOX_CRDS_NOTIFICATION } from '../../../server/src/services/customSchema/externalCrds';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DEADLINE_MS = 60_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${DEADLINE_MS} ms waiting for ${what}`)), DEADLINE_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const crdText = (group: string, kind: string, plural: string): string =>
  [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    `metadata: {name: ${plural}.${group}}`,
    'spec:',
    `  group: ${group}`,
    '  scope: Namespaced',
    `  names: {plural: ${plural}, kind: ${kind}}`,
    '  versions:',
    '  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}}',
    '',
  ].join('\n');

test('over stdio: kubeReconcile.crdFolders and the sandbox notification give custom kinds their schema', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kr-lsp-crds-'));
  mkdirSync(join(dir, 'vendor', 'crds'), { recursive: true });
  writeFileSync(join(dir, 'vendor', 'crds', 'widgets.yaml'), crdText('example.com', 'Widget', 'widgets'));
  writeFileSync(
    join(dir, 'w.yaml'),
    'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: x}\n',
  );
  writeFileSync(join(dir, 'g.yaml'), 'apiVersion: ops.io/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {size: y}\n');
  const folder = pathToFileURL(dir).href;
  const widgetUri = `${folder}/w.yaml`;
  const gadgetUri = `${folder}/g.yaml`;

  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts', '--stdio'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  const shownMessages: ShowMessageParams[] = [];
  const waiting: Array<() => void> = [];
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (const w of waiting.splice(0)) w();
  });
  conn.onNotification('window/showMessage', (p: ShowMessageParams) => void shownMessages.push(p));
  conn.onRequest('window/showMessageRequest', (p: ShowMessageParams) => {
    shownMessages.push(p);
    return null;
  });
  const codes = (uri: string): unknown[] | undefined =>
    published
      .filter((p) => p.uri === uri)
      .at(-1)
      ?.diagnostics.map((d) => d.code);
  const until = async (uri: string, expected: string[]): Promise<void> => {
    while (JSON.stringify(codes(uri)) !== JSON.stringify(expected))
      await new Promise<void>((resolve) => waiting.push(resolve));
  };
  conn.onRequest('workspace/configuration', (p: ConfigurationParams) =>
    p.items.map(() => ({ crdFolders: ['vendor/crds', 'no/such/folder'] })),
  );
  conn.listen();
  try {
    await within(
      conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: folder,
        workspaceFolders: [{ uri: folder, name: 'w' }],
        capabilities: { workspace: { configuration: true, workspaceFolders: true } },
      }),
      'initialize',
    );
    await conn.sendNotification('initialized', {});

    // The catalogue's Widget CRD checks w.yaml; Gadget has no CRD anywhere yet.
    await within(until(widgetUri, ['custom-resource-validation']), 'w.yaml checked against the catalogue CRD');
    await within(until(gadgetUri, ['unknown-kind']), 'g.yaml: no CRD');
    assert.deepEqual(
      shownMessages.map((m) => [m.type, m.message]),
      [
        [
          2,
          'Kube Reconcile: the CRD folder "no/such/folder" (kubeReconcile.crdFolders) does not exist; its CRDs are not read.',
        ],
      ],
    );

    // The sandbox serves a Gadget CRD: g.yaml is now checked against its schema; then it is gone again.
    const gadget = parse(crdText('ops.io', 'Gadget', 'gadgets')) as unknown;
    await conn.sendNotification(SANDBOX_CRDS_NOTIFICATION, { crds: [gadget] });
    await within(until(gadgetUri, ['custom-resource-validation']), 'g.yaml checked against the sandbox CRD');
    await conn.sendNotification(SANDBOX_CRDS_NOTIFICATION, { crds: [] });
    await within(until(gadgetUri, ['unknown-kind']), 'g.yaml unknown again');
    assert.equal(shownMessages.length, 1, 'the missing folder is reported once');

    await within(conn.sendRequest('shutdown'), 'shutdown');
    await conn.sendNotification('exit');
    assert.equal(await within(exited, 'server exit'), 0, stderr);
  } finally {
    conn.dispose();
    if (child.exitCode === null) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
