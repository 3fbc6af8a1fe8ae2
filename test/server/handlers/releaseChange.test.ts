import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { WorkspaceDiagnostics } from '../../../server/src/handlers/workspaceDiagnostics';
import { kubernetesVersion, setKubernetesVersion } from '../../../server/src/schema/schema';
import { normalizeSettings } from '../../../server/src/settings';

test('changing kubernetesVersion re-validates an open document in the new release (its unchanged pieces too)', async () => {
  const release = kubernetesVersion();
  const sent: PublishDiagnosticsParams[] = [];
  const work = new WorkspaceDiagnostics(
    {
      send: (p) => void sent.push(p),
      readFile: async () => 'missing',
      listFiles: async () => [],
      now: () => performance.now(),
      yieldToEventLoop: () => new Promise((resolve) => setImmediate(resolve)),
    },
    0,
  );
  const uri = 'file:///loose/fs.yaml';
  const codes = (): unknown[] | undefined =>
    sent
      .filter((p) => p.uri === uri)
      .at(-1)
      ?.diagnostics.map((d) => d.code);
  /** Resolves once a publish beyond the first `n` arrived (a deadline for a loaded machine, not a timing). */
  const published = async (n: number): Promise<void> => {
    for (let waited = 0; sent.length <= n; waited += 10) {
      assert.ok(waited < 20_000, `no publish after ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  try {
    work.setSettings(normalizeSettings({ kubernetesVersion: '1.32' }));
    // flowcontrol v1beta3: served by 1.31, removed in 1.32.
    const text =
      'apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata: {name: f}\nspec:\n  priorityLevelConfiguration: {name: global-default}\n';
    work.documentChanged({ uri, version: 1, languageId: 'yaml', text }, true);
    await published(0);
    assert.deepEqual(codes(), ['removed-api-version']);
    const before = sent.length;
    work.setSettings(normalizeSettings({ kubernetesVersion: '1.31' }));
    await published(before);
    assert.deepEqual(codes(), []);
  } finally {
    work.dispose();
    setKubernetesVersion(release);
  }
});
