import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { parse } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import { CrdCatalogue, diskCrdFolderHost } from '../../../server/src/handlers/crdFolders';
import { customSchemaLookup } from '../../../server/src/handlers/customSchemas';
import { WorkspaceDiagnostics } from '../../../server/src/handlers/workspaceDiagnostics';
import type { WorkspaceHost } from '../../../server/src/handlers/workspaceDiagnostics';
import {
  crdsInText,
  ExternalCrds,
  resolveCrdFolder,
  sandboxCrdsOf,
} from '../../../server/src/services/customSchema/externalCrds';
import { relativePath } from '../../../server/src/services/workspace/folders';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../../server/src/settings';

const FOLDER = 'file:///w';

/** A Widget CRD whose `spec.size` has the given type. */
function widgetCrdText(sizeType: string, group = 'example.com'): string {
  return [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    `metadata: {name: widgets.${group}}`,
    'spec:',
    `  group: ${group}`,
    '  scope: Namespaced',
    '  names: {plural: widgets, kind: Widget}',
    '  versions:',
    `  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: ${sizeType}, description: how many}}}}}}}`,
    '',
  ].join('\n');
}
const widgetCrd = (sizeType: string): KubeObject => parse(widgetCrdText(sizeType)) as KubeObject;
const WIDGET = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n';

function fixture(files: Record<string, string>) {
  const disk = new Map(Object.entries(files).map(([name, text]) => [`${FOLDER}/${name}`, text]));
  const sent: PublishDiagnosticsParams[] = [];
  const host: WorkspaceHost = {
    send: (p) => void sent.push(p),
    readFile: async (uri) => (disk.has(uri) ? { text: disk.get(uri)! } : 'missing'),
    listFiles: async (folder, filter) => [...disk.keys()].filter((u) => filter(relativePath(folder, u) ?? '')).sort(),
    now: () => performance.now(),
    yieldToEventLoop: () => new Promise((resolve) => setImmediate(resolve)),
  };
  const work = new WorkspaceDiagnostics(host, 0);
  /** Each file's diagnostics now (last publish wins), as `line:code`, files without any left out. */
  const shown = (): Record<string, string[]> => {
    const last = new Map<string, PublishDiagnosticsParams>();
    for (const p of sent) last.set(p.uri, p);
    const out: Record<string, string[]> = {};
    for (const [uri, p] of last)
      if (p.diagnostics.length > 0)
        out[uri.slice(FOLDER.length + 1)] = p.diagnostics.map((d) => `${d.range.start.line}:${String(d.code)}`);
    return out;
  };
  const messages = (name: string): string[] =>
    sent
      .filter((p) => p.uri === `${FOLDER}/${name}`)
      .at(-1)
      ?.diagnostics.map((d) => String(d.message)) ?? [];
  return { disk, sent, work, shown, messages };
}

describe('kubeReconcile.crdFolders setting', () => {
  test('normalized: a list of non-empty strings, [] by default or when mistyped', () => {
    assert.deepEqual(DEFAULT_SETTINGS.crdFolders, []);
    assert.deepEqual(normalizeSettings({ crdFolders: ['vendor/crds', '', 3, '/abs'] }).crdFolders, [
      'vendor/crds',
      '/abs',
    ]);
    assert.deepEqual(normalizeSettings({ crdFolders: 'vendor/crds' }).crdFolders, []);
  });

  test('folders resolve: relative under the first workspace folder, absolute and file: URIs as they are', () => {
    const ws = ['file:///home/me/repo/', 'file:///other'];
    assert.equal(resolveCrdFolder('vendor/crds', ws), 'file:///home/me/repo/vendor/crds');
    assert.equal(resolveCrdFolder('./a/../b c/', ws), 'file:///home/me/repo/b%20c');
    assert.equal(resolveCrdFolder('.', ws), 'file:///home/me/repo');
    assert.equal(resolveCrdFolder('/opt/crds', ws), 'file:///opt/crds');
    assert.equal(resolveCrdFolder('C:\\crds\\x', ws), 'file:///C:/crds/x');
    assert.equal(resolveCrdFolder('file:///srv/crds/', ws), 'file:///srv/crds');
    assert.equal(resolveCrdFolder('vendor/crds', []), undefined);
    assert.equal(resolveCrdFolder('  ', ws), undefined);
  });

  test("a file's CRDs: every document, a List's items and JSON; other kinds and broken documents left out", () => {
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [widgetCrd('string'), { kind: 'Pod' }] });
    const text = `${widgetCrdText('integer')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\nkind: [\n`;
    assert.deepEqual(
      crdsInText(text).map((c) => c.metadata.name),
      ['widgets.example.com'],
    );
    const fromList = crdsInText(list);
    assert.equal(fromList.length, 1);
    assert.equal(fromList[0].kind, 'CustomResourceDefinition');
    assert.deepEqual(crdsInText('not: a manifest'), []);
  });

  test('the catalogue reads .yaml/.yml/.json below each folder, warns once about a missing folder, reads it once it exists', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kr-crdfolders-'));
    try {
      mkdirSync(join(root, 'vendor', 'crds', 'nested'), { recursive: true });
      writeFileSync(join(root, 'vendor', 'crds', 'widgets.yaml'), widgetCrdText('integer'));
      writeFileSync(join(root, 'vendor', 'crds', 'nested', 'gadgets.json'), JSON.stringify(gadgetCrd()));
      writeFileSync(join(root, 'vendor', 'crds', 'notes.txt'), widgetCrdText('string', 'ignored.io'));
      mkdirSync(join(root, 'vendor', 'crds', 'node_modules'));
      writeFileSync(join(root, 'vendor', 'crds', 'node_modules', 'x.yaml'), widgetCrdText('string', 'skipped.io'));
      const warnings: string[] = [];
      const loads: string[][] = [];
      const catalogue = new CrdCatalogue(
        diskCrdFolderHost((m) => void warnings.push(m)),
        (crds) => void loads.push(crds.map((c) => c.metadata.name!)),
      );
      const ws = [pathToFileURL(root).href];
      await catalogue.load(['vendor/crds', 'missing'], ws);
      assert.deepEqual(loads, [['gadgets.example.com', 'widgets.example.com']]);
      assert.deepEqual(warnings, [
        'Kube Reconcile: the CRD folder "missing" (kubeReconcile.crdFolders) does not exist; its CRDs are not read.',
      ]);
      await catalogue.load(['vendor/crds', 'missing'], ws);
      assert.equal(warnings.length, 1, 'reported once');
      await catalogue.load(['relative'], []);
      assert.match(warnings[1], /"relative" \(kubeReconcile\.crdFolders\) is relative and no workspace folder is open/);

      mkdirSync(join(root, 'missing'));
      writeFileSync(join(root, 'missing', 'w.yml'), widgetCrdText('string', 'late.io'));
      await catalogue.load(['missing', join(root, 'vendor', 'crds')], ws);
      assert.deepEqual(loads.at(-1), ['widgets.late.io', 'gadgets.example.com', 'widgets.example.com']);
      // A file changed below a catalogue folder reads it again; elsewhere it does not.
      writeFileSync(join(root, 'missing', 'w2.yaml'), widgetCrdText('string', 'later.io'));
      assert.equal(catalogue.filesChanged([`${ws[0]}/elsewhere/x.yaml`]), undefined);
      await catalogue.filesChanged([`${ws[0]}/missing/w2.yaml`]);
      assert.deepEqual(loads.at(-1), [
        'widgets.late.io',
        'widgets.later.io',
        'gadgets.example.com',
        'widgets.example.com',
      ]);
      assert.equal(warnings.length, 2, 'a folder found again is not reported');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

function gadgetCrd(): KubeObject {
  const crd = widgetCrd('string') as KubeObject & { spec: Record<string, unknown> };
  return {
    ...crd,
    metadata: { name: 'gadgets.example.com' },
    spec: { ...crd.spec, names: { plural: 'gadgets', kind: 'Gadget' } },
  };
}

describe('CRDs from outside the workspace serve custom resources in the language server', () => {
  test("a catalogue CRD clears the kind's unknown-kind warning and validates its resources; removing it brings the warning back", async () => {
    const f = fixture({ 'w.yaml': WIDGET.replace('size: 3', 'size: three') });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'w.yaml': ['1:unknown-kind'] });
    f.work.setExternalCrds([widgetCrd('integer')]);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'w.yaml': ['3:custom-resource-validation'] });
    assert.match(f.messages('w.yaml')[0], /^Widget\.example\.com "w" is invalid: spec\.size: Invalid value: "string"/);
    f.work.setExternalCrds([]);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'w.yaml': ['1:unknown-kind'] });
  });

  test("the workspace's CRD wins over an external one serving the same kind", async () => {
    const f = fixture({ 'crd.yaml': widgetCrdText('integer'), 'w.yaml': WIDGET });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    f.work.setExternalCrds([widgetCrd('string')]);
    await f.work.idle();
    assert.deepEqual(f.shown(), {}, 'size: 3 is valid for the workspace CRD (integer), not for the external (string)');
    // Without the workspace CRD, the external one decides.
    f.disk.delete(`${FOLDER}/crd.yaml`);
    f.work.filesChanged([], [`${FOLDER}/crd.yaml`]);
    await f.work.idle();
    assert.deepEqual(f.shown(), { 'w.yaml': ['3:custom-resource-validation'] });
  });

  test('an open file outside every folder is checked against external CRDs too', async () => {
    const f = fixture({});
    f.work.setSettings(DEFAULT_SETTINGS);
    const uri = 'file:///loose/w.yaml';
    const codes = (): unknown[] | undefined =>
      f.sent
        .filter((p) => p.uri === uri)
        .at(-1)
        ?.diagnostics.map((d) => d.code);
    f.work.documentChanged({ uri, version: 1, languageId: 'yaml', text: WIDGET }, true);
    while (codes() === undefined) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(codes(), ['unknown-kind']);
    f.work.setExternalCrds([widgetCrd('string')]);
    assert.deepEqual(codes(), ['custom-resource-validation']);
  });

  test("the sandbox's CRDs come after the catalogue's; unchanged sets are no change; garbage params are ignored", () => {
    const external = new ExternalCrds();
    const sandbox = gadgetCrd();
    assert.equal(external.setSandbox([sandbox]), true);
    assert.equal(external.setCatalogue([widgetCrd('integer')]), true);
    assert.deepEqual(
      external.objects.map((c) => c.metadata.name),
      ['widgets.example.com', 'gadgets.example.com'],
    );
    assert.equal(external.setSandbox([JSON.parse(JSON.stringify(sandbox)) as KubeObject]), false);
    assert.deepEqual(sandboxCrdsOf(undefined), []);
    assert.deepEqual(sandboxCrdsOf({ crds: 'x' }), []);
    assert.deepEqual(
      sandboxCrdsOf({ crds: [sandbox, { kind: 'Pod' }, null, 3] }).map((c) => c.metadata.name),
      ['gadgets.example.com'],
    );
  });

  test('completion and hover learn external kinds, after the folder: the folder CRD wins', async () => {
    const f = fixture({ 'w.yaml': WIDGET });
    f.work.index.addFolder(FOLDER);
    f.work.setSettings(DEFAULT_SETTINGS);
    await f.work.idle();
    const uri = `${FOLDER}/w.yaml`;
    const size = (external: readonly KubeObject[]): unknown =>
      customSchemaLookup(f.work.index, uri, external)('example.com/v1', 'Widget')?.properties?.spec?.properties?.size
        ?.type;
    assert.equal(size([]), undefined);
    assert.equal(size([widgetCrd('string')]), 'string');
    f.disk.set(`${FOLDER}/crd.yaml`, widgetCrdText('integer'));
    f.work.filesChanged([`${FOLDER}/crd.yaml`], []);
    await f.work.idle();
    assert.equal(size([widgetCrd('string')]), 'integer');
  });
});
