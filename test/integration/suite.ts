/**
 * The @vscode/test-electron suite, run inside a desktop VS Code by
 * test/integration/run.mjs (bundled to out/integration/suite.js first). No
 * mocha: `run()` runs each check in order and rejects with every failure,
 * which VS Code's test host reports as a failed run. The same scenarios run
 * through the UI in test/e2e/ (code-server), where desktop VS Code cannot be
 * downloaded.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import * as vscode from 'vscode';

const EXTENSION_ID = 'kube-reconcile.kube-reconcile';
const DEADLINE_MS = 30_000;

interface Contributes {
  contributes: { commands: { command: string }[] };
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in the test host`);
  return ext;
}

const checks: [string, () => Promise<void>][] = [
  [
    'the extension activates',
    async () => {
      await extension().activate();
      assert.equal(extension().isActive, true);
    },
  ],
  [
    'every contributed command is registered',
    async () => {
      const declared = (extension().packageJSON as Contributes).contributes.commands.map((c) => c.command).sort();
      const registered = new Set(await vscode.commands.getCommands(true));
      assert.deepEqual(
        declared.filter((c) => !registered.has(c)),
        [],
      );
    },
  ],
  [
    'the Cluster view has a tree data provider (focusing it succeeds)',
    async () => {
      await vscode.commands.executeCommand('kubeReconcile.cluster.focus');
    },
  ],
  [
    'a misspelled field gets an Unknown field diagnostic',
    async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder, 'the test host opens a workspace folder');
      const uri = vscode.Uri.joinPath(folder.uri, 'typo.yaml');
      const text =
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: typo\nspec:\n  replicsa: 3\n  selector:\n    matchLabels:\n      app: typo\n  template:\n    metadata:\n      labels:\n        app: typo\n    spec:\n      containers:\n        - name: c\n          image: nginx\n';
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      await vscode.window.showTextDocument(uri);
      const found = await until('the diagnostic', () =>
        vscode.languages.getDiagnostics(uri).find((d) => d.message.startsWith('Unknown field `replicsa`')),
      );
      assert.equal(found.range.start.line, 5);
    },
  ],
];

/** Entry point VS Code's test host calls. */
export async function run(): Promise<void> {
  const failures: string[] = [];
  for (const [name, check] of checks) {
    try {
      await check();
      console.log(`ok - ${name}`);
    } catch (e) {
      failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      console.log(`not ok - ${name}`);
    }
  }
  console.log(`${checks.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length > 0) throw new Error(failures.join('\n'));
}
