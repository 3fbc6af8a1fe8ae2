import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { validateManifestText } from '../../server/src/services/validateDocument';

const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

/** The text each diagnostic of `code` (whose message starts with `prefix`) covers, with its 0-based line. */
function covered(text: string, code: string, prefix = ''): string[] {
  const all = text.split('\n');
  return validateManifestText(text)
    .filter((d) => d.code === code && typeof d.message === 'string' && d.message.startsWith(prefix))
    .map((d) => {
      const { start, end } = d.range;
      assert.equal(start.line, end.line, 'one line');
      return `${start.line}:${all[start.line].slice(start.character, end.character)}`;
    });
}

const DEPLOYMENT = (labels: string[], annotations: string[] = []): string =>
  lines(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    '  labels:',
    ...labels.map((l) => `    ${l}`),
    ...(annotations.length > 0 ? ['  annotations:', ...annotations.map((a) => `    ${a}`)] : []),
    'spec:',
    '  selector:',
    '    matchLabels: {app: web}',
    '  template:',
    '    metadata:',
    '      labels: {app: web, tier: "-front"}',
    '    spec:',
    '      nodeSelector:',
    '        disktype: ssd',
    '        "bad key!": x',
    '      containers:',
    '        - name: web',
    '          image: nginx',
    '          resources:',
    '            limits: {cpu: 1, cpuu: 2, memory: 12x}',
  );

describe('map entries: each finding sits on the exact key or value', () => {
  test('a bad label value is marked on the value, a bad label key on the key (not on `labels:`)', () => {
    const text = DEPLOYMENT(['app: web', 'version: "-1.0"', '-team: core']);
    assert.deepEqual(covered(text, 'metadata-labels'), ['6:"-1.0"', '7:-team']);
  });

  test('annotation keys', () => {
    const text = DEPLOYMENT(['app: web'], ['ok.example.com/a: "1"', 'bad key: "2"']);
    assert.deepEqual(covered(text, 'metadata-annotations'), ['8:bad key']);
  });

  test('pod template labels in flow style: the value inside `{…}`', () => {
    const text = DEPLOYMENT(['app: web']);
    assert.deepEqual(covered(text, 'pod-template-metadata'), ['11:"-front"']);
  });

  test('nodeSelector keys', () => {
    const text = DEPLOYMENT(['app: web']);
    assert.deepEqual(covered(text, 'pod-node-selector'), ['15:"bad key!"']);
  });

  test('resource names are keys, quantities are values', () => {
    const text = DEPLOYMENT(['app: web']);
    const limits = 'spec.template.spec.containers[0].resources.limits';
    assert.deepEqual(covered(text, 'container-resources', limits), ['20:cpuu']);
    assert.deepEqual(covered(text, 'wrong-type'), ['20:12x']);
  });

  test('ConfigMap data keys', () => {
    const text = lines(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: c',
      'data:',
      '  good: "1"',
      '  "no way": "2"',
    );
    assert.deepEqual(covered(text, 'configmap-data'), ['6:"no way"']);
  });

  test('Service selector values and keys', () => {
    const text = lines(
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: s',
      'spec:',
      '  selector:',
      '    app: "web app"',
      '    "x/y/z": web',
      '  ports: [{port: 80}]',
    );
    assert.deepEqual(covered(text, 'service-selector'), ['6:"web app"', '7:"x/y/z"']);
  });
});
