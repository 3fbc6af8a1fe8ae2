import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, TextEdit } from 'vscode-languageserver-types';
import { codeActionsFor } from '../../../server/src/services/codeActions/codeActions';
import { validateManifestText } from '../../../server/src/services/validateDocument';
import { URI, applyEdits, lines } from '../completion/cursor';

/** Every quick fix for the text's own diagnostics, as [title, preferred, text after the fix]. */
function fixes(text: string): Array<[string, boolean, string]> {
  const doc = TextDocument.create(URI, 'yaml', 1, text);
  return codeActionsFor(doc, validateManifestText(text)).map((a: CodeAction) => [
    a.title,
    a.isPreferred === true,
    applyEdits(text, a.edit?.changes?.[URI] as TextEdit[]),
  ]);
}

const POD = (...container: string[]): string =>
  lines(
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: web',
    'spec:',
    '  containers:',
    '    - name: web',
    ...container,
  );

describe('quick fixes', () => {
  test('a misspelled key', () => {
    const text = POD('      image: nginx', '      poarts:', '        - containerPort: 80');
    assert.deepEqual(fixes(text), [
      ['Change "poarts" to "ports"', true, POD('      image: nginx', '      ports:', '        - containerPort: 80')],
    ]);
  });

  test("an enum value's case", () => {
    assert.deepEqual(fixes(POD('      image: nginx', '      imagePullPolicy: ifNotPresent')), [
      ['Change to "IfNotPresent"', true, POD('      image: nginx', '      imagePullPolicy: IfNotPresent')],
    ]);
  });

  test('a number where a string belongs', () => {
    const text = POD('      image: nginx', '      env:', '        - name: PORT', '          value: 8080');
    assert.deepEqual(fixes(text), [
      [
        'Quote as a string: "8080"',
        true,
        POD('      image: nginx', '      env:', '        - name: PORT', '          value: "8080"'),
      ],
    ]);
  });

  test('a missing required field, after the last entry of its map', () => {
    const text = POD('      image: nginx', '      ports:', '        - name: http', '          protocol: TCP   # web');
    assert.deepEqual(fixes(text), [
      [
        'Add required field "containerPort"',
        true,
        POD(
          '      image: nginx',
          '      ports:',
          '        - name: http',
          '          protocol: TCP   # web',
          '          containerPort: 0',
        ),
      ],
    ]);
  });

  test('a missing required object gets its own required fields', () => {
    const text = lines('apiVersion: v1', 'kind: Pod', 'metadata:', '  name: web', 'spec:', '  restartPolicy: Always');
    assert.deepEqual(fixes(text), [
      [
        'Add required field "containers"',
        true,
        lines(
          'apiVersion: v1',
          'kind: Pod',
          'metadata:',
          '  name: web',
          'spec:',
          '  restartPolicy: Always',
          '  containers:',
          '    - name: ""',
        ),
      ],
    ]);
  });

  test('a removed apiVersion, in the second document', () => {
    const first = lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: c', '---');
    const text = `${first}${lines('apiVersion: batch/v1beta1', 'kind: CronJob', 'metadata:', '  name: c')}`;
    const [title, preferred, fixed] = fixes(text)[0];
    assert.deepEqual([title, preferred], ['Change apiVersion to "batch/v1"', true]);
    assert.equal(fixed, `${first}${lines('apiVersion: batch/v1', 'kind: CronJob', 'metadata:', '  name: c')}`);
  });

  test('no fix when the replacement is not an apiVersion', () => {
    assert.deepEqual(
      fixes(lines('apiVersion: policy/v1beta1', 'kind: PodSecurityPolicy', 'metadata:', '  name: p')),
      [],
    );
  });

  describe('selector does not match the template labels', () => {
    const deployment = (selector: string[], template: string[]): string =>
      lines(
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: web',
        'spec:',
        '  selector:',
        ...selector,
        '  template:',
        ...template,
        '    spec:',
        '      containers:',
        '        - name: web',
        '          image: nginx',
      );

    test('both directions, neither preferred', () => {
      const text = deployment(
        ['    matchLabels:', '      app: web'],
        ['    metadata:', '      labels:', '        app: api', '        tier: front'],
      );
      assert.deepEqual(fixes(text), [
        [
          "Add the selector's labels to the pod template",
          false,
          deployment(
            ['    matchLabels:', '      app: web'],
            ['    metadata:', '      labels:', '        app: web', '        tier: front'],
          ),
        ],
        [
          "Set the selector's matchLabels to the pod template's labels",
          false,
          deployment(
            ['    matchLabels:', '      app: api', '      tier: front'],
            ['    metadata:', '      labels:', '        app: api', '        tier: front'],
          ),
        ],
      ]);
      for (const [, , fixed] of fixes(text)) assert.deepEqual(validateManifestText(fixed), []);
    });

    test('a template without labels gets them', () => {
      const text = deployment(['    matchLabels: {app: web}'], ['    metadata:', '      annotations: {a: b}']);
      assert.deepEqual(fixes(text), [
        [
          "Add the selector's labels to the pod template",
          false,
          deployment(
            ['    matchLabels: {app: web}'],
            ['    metadata:', '      annotations: {a: b}', '      labels:', '        app: web'],
          ),
        ],
      ]);
    });

    test('a template without metadata gets it', () => {
      const text = deployment(['    matchLabels:', '      app: web'], []);
      const [fix] = fixes(text);
      assert.equal(
        fix[2],
        lines(
          'apiVersion: apps/v1',
          'kind: Deployment',
          'metadata:',
          '  name: web',
          'spec:',
          '  selector:',
          '    matchLabels:',
          '      app: web',
          '  template:',
          '    spec:',
          '      containers:',
          '        - name: web',
          '          image: nginx',
          '    metadata:',
          '      labels:',
          '        app: web',
        ),
      );
      assert.deepEqual(validateManifestText(fix[2]), []);
    });
  });

  test('diagnostics of other sources and stale ranges are ignored', () => {
    const text = POD('      image: nginx', '      poarts: []');
    const doc = TextDocument.create(URI, 'yaml', 1, text);
    const [d] = validateManifestText(text);
    assert.deepEqual(codeActionsFor(doc, [{ ...d, source: 'other' }]), []);
    assert.deepEqual(
      codeActionsFor(doc, [{ ...d, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } } }]),
      [],
    );
  });
});
