import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-languageserver/node';
import type {
  CodeAction,
  CompletionItem,
  Hover,
  InitializeResult,
  PublishDiagnosticsParams,
  TextEdit,
} from 'vscode-languageserver/node';
import { applyEdits, lines } from './cursor';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DEADLINE_MS = 30_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${DEADLINE_MS} ms waiting for ${what}`)), DEADLINE_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

test('completion, hover and code actions over stdio', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts', '--stdio'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const uri = 'file:///workspace/pod.yaml';
  const published = new Promise<PublishDiagnosticsParams>((resolve) =>
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      if (p.uri === uri) resolve(p);
    }),
  );
  conn.listen();
  try {
    const init = (await within(
      conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} }),
      'initialize',
    )) as InitializeResult;
    assert.deepEqual(
      [init.capabilities.completionProvider, init.capabilities.hoverProvider, init.capabilities.codeActionProvider],
      [{ triggerCharacters: [':', ' ', '-'] }, true, { codeActionKinds: ['quickfix'] }],
    );
    await conn.sendNotification('initialized', {});
    const text = lines(
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: web',
      'spec:',
      '  containers:',
      '    - name: web',
      '      image: nginx',
      '      imagePullPolicy: ',
      '      poarts: []',
    );
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });

    const items = (await within(
      conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 8, character: 23 } }),
      'completion',
    )) as CompletionItem[];
    assert.deepEqual(
      items.map((i) => i.label),
      ['Always', 'IfNotPresent', 'Never'],
    );

    const hover = (await within(
      conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 7, character: 8 } }),
      'hover',
    )) as Hover;
    assert.deepEqual(hover.range, { start: { line: 7, character: 6 }, end: { line: 7, character: 11 } });
    assert.match((hover.contents as { value: string }).value, /^\*\*image\*\* `string` \*\(optional\)\*/);

    const { diagnostics } = await within(published, 'diagnostics');
    const unknown = diagnostics.filter((d) => d.code === 'unknown-field');
    assert.equal(unknown.length, 1);
    const actions = (await within(
      conn.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: unknown[0].range,
        context: { diagnostics: unknown },
      }),
      'code actions',
    )) as CodeAction[];
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Change "poarts" to "ports"'],
    );
    assert.equal(applyEdits(text, actions[0].edit!.changes![uri] as TextEdit[]), text.replace('poarts', 'ports'));

    await within(conn.sendRequest('shutdown'), 'shutdown');
    await conn.sendNotification('exit');
    assert.equal(await within(exited, 'server exit'), 0, stderr);
  } finally {
    conn.dispose();
    if (child.exitCode === null) child.kill();
  }
});
