/**
 * Workspace files by the sandbox's names: relative to their folder (with the
 * folder's name in a multi-root workspace), never an absolute local path.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sourceLocation, sourceName, sourceOfPath } from '../../../client/src/model/workspacePaths';

const one = [{ name: 'workspace', path: '/tmp/e2e/workspace' }];
const two = [
  { name: 'app', path: '/home/me/app' },
  { name: 'infra', path: '/srv/infra/' },
];

describe('workspace paths', () => {
  test('a single folder: the path relative to it, a stray leading slash ignored', () => {
    assert.deepEqual(sourceLocation(one, 'web.yaml'), { folder: 0, path: 'web.yaml' });
    assert.deepEqual(sourceLocation(one, '/web.yaml'), { folder: 0, path: 'web.yaml' });
    assert.deepEqual(sourceLocation(one, 'deploy/web.yaml'), { folder: 0, path: 'deploy/web.yaml' });
    assert.equal(sourceName(one, 0, 'deploy/web.yaml'), 'deploy/web.yaml');
    assert.equal(sourceOfPath(one, '/tmp/e2e/workspace/web.yaml'), 'web.yaml');
    assert.equal(sourceOfPath(one, '/tmp/e2e/workspace-other/web.yaml'), undefined, 'a sibling folder is outside');
  });

  test('several folders: the first segment names the folder, which is kept', () => {
    assert.deepEqual(sourceLocation(two, 'infra/k8s/web.yaml'), { folder: 1, path: 'k8s/web.yaml' });
    assert.deepEqual(sourceLocation(two, 'app/web.yaml'), { folder: 0, path: 'web.yaml' });
    assert.equal(sourceLocation(two, 'other/web.yaml'), undefined);
    assert.equal(sourceLocation(two, 'web.yaml'), undefined);
    assert.equal(sourceOfPath(two, '/srv/infra/k8s/web.yaml'), 'infra/k8s/web.yaml');
    assert.equal(sourceName(two, 0, 'web.yaml'), 'app/web.yaml');
  });

  test('nested folders: the innermost one holds the file; folders of another scheme can be left out', () => {
    const nested = [
      { name: 'outer', path: '/w' },
      { name: 'inner', path: '/w/inner' },
    ];
    assert.equal(sourceOfPath(nested, '/w/inner/a.yaml'), 'inner/a.yaml');
    assert.equal(
      sourceOfPath(nested, '/w/inner/a.yaml', (i) => i === 0),
      'outer/inner/a.yaml',
    );
  });

  test('no folder: nothing to resolve against', () => {
    assert.equal(sourceLocation([], 'web.yaml'), undefined);
    assert.equal(sourceOfPath([], '/web.yaml'), undefined);
  });
});
