import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LARGE_PIECE, analyzeFile, analyzePieceText } from '../../../server/src/services/workspace/analyzeFile';
import { kubernetesVersion, setKubernetesVersion } from '../../../server/src/schema/schema';
import { splitDocuments } from '../../../server/src/services/workspace/splitDocuments';
import { validateManifestText } from '../../../server/src/services/validateDocument';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: Web_1
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: other}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 70000}]
`;

describe('splitDocuments', () => {
  test('cuts at --- marker lines only, keeping every character and counting lines', () => {
    const text = '# lead\n---\na: 1\nb: "---"\n--- # c\n---x: 1\n  ---\n...\n---\n';
    assert.deepEqual(splitDocuments(text), [
      { text: '# lead\n', startLine: 0 },
      { text: '---\na: 1\nb: "---"\n', startLine: 1 },
      { text: '--- # c\n---x: 1\n  ---\n...\n', startLine: 4 },
      { text: '---\n', startLine: 8 },
    ]);
  });

  test('a text with directives stays whole', () => {
    const text = '%YAML 1.2\n---\na: 1\n---\nb: 2\n';
    assert.deepEqual(splitDocuments(text), [{ text, startLine: 0 }]);
  });
});

describe('analyzeFile', () => {
  test('reports exactly what validateManifestText reports for the whole text', () => {
    const texts = [
      DEPLOY,
      `---\n${DEPLOY}---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 0}]}\n---\nkind: a: b\n---\n${DEPLOY}`,
      `# comment\n\n${DEPLOY}...\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: BAD}\n`,
      'a: 1\na: 2\n---\napiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: x}\n',
    ];
    for (const text of texts) assert.deepEqual(analyzeFile(text).diagnostics, validateManifestText(text));
  });

  test('a syntax error running to the end of its document stops there instead of at the next marker', () => {
    const text = `kind: [\n---\n${DEPLOY}`;
    const whole = validateManifestText(text);
    const pieces = analyzeFile(text).diagnostics;
    assert.deepEqual(pieces.slice(1), whole.slice(1));
    assert.deepEqual(pieces[0], {
      ...whole[0],
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
    });
    assert.deepEqual(whole[0].range, { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } });
  });

  test('facts of later documents carry ranges in the whole file', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n${DEPLOY}`;
    const { objects } = analyzeFile(text);
    assert.deepEqual(
      objects.map((o) => [o.kind, o.name, o.nameRange.start.line, o.nameRange.start.character]),
      [
        ['ConfigMap', 'a', 2, 17],
        ['Deployment', 'Web_1', 7, 8],
      ],
    );
  });

  test('binary or oversized text is declined whole, with no objects', () => {
    const binary = analyzeFile(`${DEPLOY}\u0000`);
    assert.deepEqual(binary, { diagnostics: validateManifestText(`${DEPLOY}\u0000`), objects: [] });
    assert.equal(binary.diagnostics[0].code, 'binary-content');
  });
});

describe('analyzePieceText: large pieces remembered by text and release', () => {
  // flowcontrol.apiserver.k8s.io/v1beta3 is served by 1.31 and removed in 1.32: the analysis depends on the release.
  const big = [
    'apiVersion: flowcontrol.apiserver.k8s.io/v1beta3',
    'kind: FlowSchema',
    'metadata:',
    '  name: big',
    `  annotations: {note: "${'x'.repeat(LARGE_PIECE)}"}`,
    'spec:',
    '  priorityLevelConfiguration: {name: global-default}',
    '',
  ].join('\n');

  test('the same large text in the same release is analysed once; another release analyses it again', () => {
    const release = kubernetesVersion();
    try {
      setKubernetesVersion('1.32');
      const first = analyzePieceText(big);
      assert.equal(analyzePieceText(big), first, 'remembered');
      assert.deepEqual(
        first.validation.map((d) => d.code),
        ['removed-api-version'],
      );
      setKubernetesVersion('1.31');
      const older = analyzePieceText(big);
      assert.notEqual(older, first);
      assert.deepEqual(older.validation, []);
      setKubernetesVersion('1.32');
      assert.equal(analyzePieceText(big), first, "1.32's analysis is still remembered");
      // A small piece is analysed each time (cheaper than keeping it).
      const small = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n';
      assert.notEqual(analyzePieceText(small), analyzePieceText(small));
      assert.deepEqual(analyzePieceText(small), analyzePieceText(small));
    } finally {
      setKubernetesVersion(release);
    }
  });
});
