import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { WorkspaceDiagnostics } from '../../../server/src/handlers/workspaceDiagnostics';
import type { WorkspaceHost } from '../../../server/src/handlers/workspaceDiagnostics';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../../server/src/settings';
import { relativePath } from '../../../server/src/services/workspace/folders';
import { largeManifest } from '../workspace/largeManifest';

const FOLDER = 'file:///w';
const SERVICE =
  'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n';
const pod = (app: string): string =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: ${app}}}\nspec: {containers: [{name: c, image: nginx}]}\n`;

/** An in-memory workspace: files by URI, and every publishDiagnostics the coordinator sends. */
function fixture(files: Record<string, string>, delayMs: number | undefined = 0) {
  const disk = new Map(Object.entries(files).map(([name, text]) => [`${FOLDER}/${name}`, text]));
  const sent: PublishDiagnosticsParams[] = [];
  const listeners: Array<(p: PublishDiagnosticsParams) => void> = [];
  let onYield = (): void => undefined;
  const host: WorkspaceHost = {
    send: (p) => {
      sent.push(p);
      for (const l of [...listeners]) l(p);
    },
    readFile: async (uri) => (disk.has(uri) ? { text: disk.get(uri)! } : 'missing'),
    listFiles: async (folder, filter) => [...disk.keys()].filter((u) => filter(relativePath(folder, u) ?? '')).sort(),
    now: () => performance.now(),
    yieldToEventLoop: () => {
      onYield();
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
  const work = new WorkspaceDiagnostics(host, delayMs);
  /** The codes each URI shows now (last publish wins), URIs without diagnostics left out. */
  const shown = (): Record<string, string[]> => {
    const last = new Map<string, PublishDiagnosticsParams>();
    for (const p of sent) last.set(p.uri, p);
    const out: Record<string, string[]> = {};
    for (const [uri, p] of last)
      if (p.diagnostics.length > 0)
        out[uri.slice(FOLDER.length + 1)] = p.diagnostics.map((d) => `${d.range.start.line}:${String(d.code)}`);
    return out;
  };
  const publishOf = (uri: string, version: number): Promise<PublishDiagnosticsParams> =>
    new Promise((resolve) => listeners.push((p) => p.uri === uri && p.version === version && resolve(p)));
  return { disk, sent, work, shown, publishOf, setOnYield: (f: () => void) => (onYield = f) };
}

describe('WorkspaceDiagnostics', () => {
  test('by default (no debounce) edits arriving together are validated once: only the newest publishes', async () => {
    const f = fixture({}, undefined);
    f.work.setSettings(DEFAULT_SETTINGS);
    const uri = 'file:///loose/pod.yaml';
    const newest = f.publishOf(uri, 3);
    f.work.documentChanged({ uri, version: 1, languageId: 'yaml', text: pod('a') });
    f.work.documentChanged({ uri, version: 2, languageId: 'yaml', text: 'kind: [' });
    f.work.documentChanged({ uri, version: 3, languageId: 'yaml', text: pod('c') });
    assert.equal(f.sent.length, 0, 'nothing validated within the turn of the edits');
    await newest;
    assert.deepEqual(
      f.sent.filter((p) => p.uri === uri).map((p) => p.version),
      [3],
    );
  });

  test('indexes the folder and publishes for files never opened, cross-document checks included, excludes honoured', async () => {
    const f = fixture({
      'svc.yaml': SERVICE,
      'pod.yaml': pod('api'),
      'node_modules/x.yaml': 'kind: [',
      'notes.txt': 'kind: [',
    });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'svc.yaml': ['4:service-selector-matches-nothing'] });
    assert.deepEqual(
      [...f.work.index.labelsInWorkspace(FOLDER)].map(([k, v]) => [k, [...v]]),
      [['app', ['api']]],
    );
  });

  test("a CRD in the folder resolves its kind's unknown-kind warning in other files; deleting it brings it back", async () => {
    const crd = [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata: {name: widgets.example.com}',
      'spec:',
      '  group: example.com',
      '  scope: Namespaced',
      '  names: {plural: widgets, kind: Widget}',
      '  versions:',
      '  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}}',
      '',
    ].join('\n');
    const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n';
    const f = fixture({ 'w.yaml': widget });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'w.yaml': ['1:unknown-kind'] });
    // The CRD arrives: w.yaml's own diagnostics and its cross-document ones are unchanged, yet it is republished.
    f.disk.set(`${FOLDER}/crd.yaml`, crd);
    f.work.filesChanged([`${FOLDER}/crd.yaml`], []);
    await f.work.idle();
    assert.deepEqual(f.shown(), {});
    f.disk.delete(`${FOLDER}/crd.yaml`);
    f.work.filesChanged([], [`${FOLDER}/crd.yaml`]);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'w.yaml': ['1:unknown-kind'] });
  });

  test('unsaved text of an open document wins; closing it falls back to the disk', async () => {
    const f = fixture({ 'svc.yaml': SERVICE, 'pod.yaml': pod('api') });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    await f.work.idle();
    const opened = f.publishOf(`${FOLDER}/pod.yaml`, 1);
    f.work.documentChanged({ uri: `${FOLDER}/pod.yaml`, version: 1, languageId: 'yaml', text: pod('web') });
    await opened;
    assert.deepEqual(f.shown(), {});
    f.work.documentClosed(`${FOLDER}/pod.yaml`);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'svc.yaml': ['4:service-selector-matches-nothing'] });
  });

  test("files changed and deleted on disk update the folder, a deleted file's diagnostics are cleared", async () => {
    const f = fixture({ 'svc.yaml': SERVICE, 'pod.yaml': pod('api'), 'bad.yaml': 'apiVersion: v1\nkind: Podd\n' });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'bad.yaml': ['1:unknown-kind'], 'svc.yaml': ['4:service-selector-matches-nothing'] });
    // A file whose own diagnostics change while the folder's cross-document result stays the same is republished.
    f.disk.set(
      `${FOLDER}/bad.yaml`,
      'apiVersion: v1\nkind: Pod\nmetadata: {name: X}\nspec: {containers: [{name: c, image: x}]}\n',
    );
    f.work.filesChanged([`${FOLDER}/bad.yaml`], []);
    await f.work.idle();
    assert.deepEqual(f.shown(), {
      'bad.yaml': ['2:metadata-name'],
      'svc.yaml': ['4:service-selector-matches-nothing'],
    });
    f.disk.set(`${FOLDER}/pod.yaml`, pod('web'));
    f.disk.delete(`${FOLDER}/bad.yaml`);
    f.work.filesChanged([`${FOLDER}/pod.yaml`], [`${FOLDER}/bad.yaml`]);
    await f.work.idle();
    assert.deepEqual(f.shown(), {});
    assert.deepEqual(f.sent.filter((p) => p.uri.endsWith('bad.yaml')).at(-1), {
      uri: `${FOLDER}/bad.yaml`,
      diagnostics: [],
    });
  });

  test('a newer version cancels the run validating an older one: only the newest is published', async () => {
    const f = fixture({});
    const uri = 'untitled:big.yaml';
    let yields = 0;
    const done = f.publishOf(uri, 2);
    f.setOnYield(() => {
      if (++yields === 2) f.work.documentChanged({ uri, version: 2, languageId: 'yaml', text: SERVICE });
    });
    f.work.documentChanged({ uri, version: 1, languageId: 'yaml', text: largeManifest(50_000) });
    const published = await done;
    assert.deepEqual(
      published.diagnostics.map((d) => d.code),
      ['service-selector-matches-nothing'],
    );
    assert.deepEqual(
      f.sent.map((p) => p.version),
      [2],
    );
    assert.ok(yields < 10, `the superseded run stopped after ${yields} yields`);
  });

  test('validation.enable false clears everything; exclude settings drop files', async () => {
    const f = fixture({ 'svc.yaml': SERVICE, 'gen/pod.yaml': 'apiVersion: v1\nkind: Podd\n' });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    await f.work.idle();
    assert.deepEqual(Object.keys(f.shown()), ['gen/pod.yaml', 'svc.yaml']);
    f.work.setSettings(normalizeSettings({ validation: { exclude: ['gen/**'] } }));
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'svc.yaml': ['4:service-selector-matches-nothing'] });
    f.work.setSettings(normalizeSettings({ validation: { enable: false } }));
    await f.work.idle();
    assert.deepEqual(f.shown(), {});
  });
});
