import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, normalizeSettings, settingsSection } from '../../../server/src/settings';
import { createFileFilter, createFolderFilter } from '../../../server/src/services/workspace/fileFilter';
import { folderFor, relativePath } from '../../../server/src/services/workspace/folders';

describe('settings', () => {
  test('missing or mistyped values take their defaults; given ones are kept', () => {
    assert.deepEqual(normalizeSettings(undefined), DEFAULT_SETTINGS);
    assert.deepEqual(
      normalizeSettings({ validation: { enable: 'no', include: '**/*.yaml', exclude: [1, 'gen/**', ' '] } }),
      {
        validation: { enable: true, include: ['**/*.yaml', '**/*.yml'], exclude: ['gen/**'] },
        kubernetesVersion: '1.32',
        crdFolders: [],
      },
    );
    assert.deepEqual(normalizeSettings({ validation: { enable: false, include: ['k8s/**/*.yaml'] } }), {
      validation: { enable: false, include: ['k8s/**/*.yaml'], exclude: ['**/node_modules/**', '**/.git/**'] },
      kubernetesVersion: '1.32',
      crdFolders: [],
    });
  });

  test('kubernetesVersion: a supported release (written 1.33, v1.33 or 1.33.2), else the default 1.32', () => {
    assert.equal(normalizeSettings({ kubernetesVersion: '1.33' }).kubernetesVersion, '1.33');
    assert.equal(normalizeSettings({ kubernetesVersion: 'v1.34.1' }).kubernetesVersion, '1.34');
    assert.equal(normalizeSettings({ kubernetesVersion: '1.29' }).kubernetesVersion, '1.32');
    assert.equal(normalizeSettings({ kubernetesVersion: 33 }).kubernetesVersion, '1.32');
  });

  test('pushed payloads may or may not be wrapped in the kubeReconcile section', () => {
    assert.deepEqual(settingsSection({ kubeReconcile: { validation: {} } }), { validation: {} });
    assert.deepEqual(settingsSection({ validation: {} }), { validation: {} });
  });
});

describe('file selection', () => {
  test('default include/exclude select YAML files outside node_modules and .git', () => {
    const selects = createFileFilter(DEFAULT_SETTINGS.validation);
    const paths = ['a.yaml', 'k8s/b.yml', 'c.json', 'node_modules/p/d.yaml', '.git/e.yaml', 'x/node_modules/f.yaml'];
    assert.deepEqual(paths.filter(selects), ['a.yaml', 'k8s/b.yml']);
  });

  test('the directory walk prunes wholly excluded folders only', () => {
    const enter = createFolderFilter({ exclude: ['**/node_modules/**', 'test/*'] });
    assert.deepEqual(['node_modules', 'a/node_modules', 'test', 'src'].filter(enter), ['test', 'src']);
  });

  test('folder URIs: relative paths are decoded, the innermost folder wins', () => {
    assert.equal(relativePath('file:///w/', 'file:///w/a%20b/c.yaml'), 'a b/c.yaml');
    assert.equal(relativePath('file:///w', 'file:///wx/c.yaml'), undefined);
    assert.equal(folderFor(['file:///w', 'file:///w/inner'], 'file:///w/inner/a.yaml'), 'file:///w/inner');
    assert.equal(folderFor(['file:///w'], 'untitled:a.yaml'), undefined);
  });
});
