import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseFieldPath } from '../../sandbox/manifests/fieldPath';
import { parseManifests } from '../../server/src/services/parseManifests';
import { fieldRange, locateField } from '../../sandbox/manifests/pathToRange';

const SOURCE = [
  'apiVersion: apps/v1', // 0
  'kind: Deployment', // 1
  'metadata:', // 2
  '  name: web', // 3
  '  labels:', // 4
  '    app.kubernetes.io/name: web', // 5
  'spec:', // 6
  '  selector:', // 7
  '    matchLabels: {app: web}', // 8
  '  template:', // 9
  '    spec:', // 10
  '      containers:', // 11
  '        - name: web', // 12
  '          image: ""', // 13
  '          ports:', // 14
  '            - containerPort: 80', // 15
  '            - containerPort: 70000', // 16
  '        - name: side', // 17
  '          image:', // 18
  '',
].join('\n');

function r(line: number, from: number, to: number) {
  return { start: { line, character: from }, end: { line, character: to } };
}

describe('fieldRange', () => {
  const parsed = parseManifests(SOURCE);
  const root = parsed.manifests[0].root;
  const cases: Array<[path: string, range: ReturnType<typeof r>, exact: boolean]> = [
    ['spec.template.spec.containers[0].ports[1].containerPort', r(16, 29, 34), true],
    ['spec.template.spec.containers[0].image', r(13, 17, 19), true],
    ['spec.template.spec.containers[1].image', r(18, 10, 15), true],
    ['metadata.labels', r(4, 2, 8), true],
    ['metadata.labels[app.kubernetes.io/name]', r(5, 28, 31), true],
    ['spec.selector.matchLabels', r(8, 17, 27), true],
    ['spec.selector', r(7, 2, 10), true],
    ['spec.template.spec.containers[1].imagePullPolicy', r(17, 10, 14), false],
    ['spec.template.metadata.labels', r(9, 2, 10), false],
    ['spec.replicas', r(6, 0, 4), false],
    ['status.phase', r(1, 0, 4), false],
    ['spec.template.spec.containers[5].image', r(11, 6, 16), false],
    ['metadata.name[0]', r(3, 2, 6), false],
  ];
  for (const [path, range, exact] of cases) {
    test(path, () => {
      assert.deepEqual(parsed.diagnostics, []);
      assert.deepEqual(fieldRange(root, path, parsed.lineCounter), range);
      assert.equal(locateField(root, path).exact, exact);
    });
  }
});

describe('parseFieldPath', () => {
  test('names, indexes and dotted keys', () => {
    assert.deepEqual(parseFieldPath('spec.containers[0].env[1].name'), [
      { kind: 'name', name: 'spec' },
      { kind: 'name', name: 'containers' },
      { kind: 'bracket', text: '0' },
      { kind: 'name', name: 'env' },
      { kind: 'bracket', text: '1' },
      { kind: 'name', name: 'name' },
    ]);
    assert.deepEqual(parseFieldPath('metadata.annotations[example.com/a[b]]'), [
      { kind: 'name', name: 'metadata' },
      { kind: 'name', name: 'annotations' },
      { kind: 'bracket', text: 'example.com/a[b]' },
    ]);
    assert.deepEqual(parseFieldPath(''), []);
  });
});

describe('fieldRange with keys and a source hint', () => {
  const parsed = parseManifests(SOURCE);
  const root = parsed.manifests[0].root;
  const at = (field: string | (string | number)[], hint?: { entry?: string; part?: 'key' | 'value' }) =>
    fieldRange(root, field, parsed.lineCounter, hint);

  test('keys and indices keep dots inside a key', () => {
    assert.deepEqual(at(['metadata', 'labels', 'app.kubernetes.io/name']), r(5, 28, 31));
    assert.deepEqual(at(['spec', 'template', 'spec', 'containers', 0, 'ports', 1]), r(16, 14, 27));
  });

  test('an entry of the map the path ends at: its value, or its key', () => {
    assert.deepEqual(at('metadata.labels', { entry: 'app.kubernetes.io/name' }), r(5, 28, 31));
    assert.deepEqual(at('metadata.labels', { entry: 'app.kubernetes.io/name', part: 'key' }), r(5, 4, 26));
    assert.deepEqual(at('spec.selector.matchLabels', { entry: 'app' }), r(8, 23, 26));
    assert.deepEqual(at('spec.selector.matchLabels', { entry: 'app', part: 'key' }), r(8, 18, 21));
  });

  test('the key of the last step', () => {
    assert.deepEqual(at('spec.template.spec.containers[0].image', { part: 'key' }), r(13, 10, 15));
  });

  test('an entry that is not in the source falls back to the map', () => {
    assert.deepEqual(at('metadata.labels', { entry: 'absent', part: 'key' }), r(4, 2, 8));
  });
});
