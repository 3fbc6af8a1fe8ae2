import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffName, objectDiff, unifiedDiff } from '../../../sandbox/plan/diff';
import { aConfigMap, aDeployment } from '../../builders';

test('unifiedDiff writes the hunks GNU diff -u writes: three lines of context, separate hunks, line counts', () => {
  const a = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
  const b = ['a', 'b', 'C', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'K', 'l'];
  // `diff -u A B` of these files, headers aside
  const expected = [
    '--- A',
    '+++ B',
    '@@ -1,6 +1,6 @@',
    ' a',
    ' b',
    '-c',
    '+C',
    ' d',
    ' e',
    ' f',
    '@@ -8,4 +8,5 @@',
    ' h',
    ' i',
    ' j',
    '-k',
    '+K',
    '+l',
    '',
  ].join('\n');
  assert.equal(unifiedDiff(a, b, 'A', 'B'), expected);
  assert.equal(unifiedDiff(a, a, 'A', 'B'), '');
});

test('unifiedDiff names the line before an empty side, as diff -u does for a pure insertion', () => {
  assert.equal(unifiedDiff(['x'], ['x', 'y'], 'A', 'B'), '--- A\n+++ B\n@@ -1 +1,2 @@\n x\n+y\n');
  assert.equal(unifiedDiff([], ['y'], 'A', 'B'), '--- A\n+++ B\n@@ -0,0 +1 @@\n+y\n');
});

test('diffName is kubectl diff’s file name: group.version.kind.namespace.name, core group without a group', () => {
  assert.equal(diffName(aDeployment('web')), 'apps.v1.Deployment.default.web');
  assert.equal(diffName(aConfigMap('cfg')), 'v1.ConfigMap.default.cfg');
});

test('objectDiff leaves out managedFields and keeps the live status and resourceVersion, as a dry run answers', () => {
  const live = {
    ...aConfigMap('cfg', { mode: 'slow' }),
    status: { seen: 1 },
  };
  live.metadata = {
    ...live.metadata,
    resourceVersion: '7',
    managedFields: [{ manager: 'kubectl', operation: 'Update' }],
  };
  const merged = { ...aConfigMap('cfg', { mode: 'fast' }), status: { seen: 2 } };
  merged.metadata = { ...merged.metadata, resourceVersion: '8', managedFields: [{ manager: 'other' }] };
  assert.equal(
    objectDiff(live, merged),
    [
      '--- LIVE/v1.ConfigMap.default.cfg',
      '+++ MERGED/v1.ConfigMap.default.cfg',
      '@@ -1,6 +1,6 @@',
      ' apiVersion: v1',
      ' data:',
      '-  mode: slow',
      '+  mode: fast',
      ' kind: ConfigMap',
      ' metadata:',
      '   name: cfg',
      '',
    ].join('\n'),
  );
});
