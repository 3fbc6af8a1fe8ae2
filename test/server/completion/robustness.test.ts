import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActionsFor } from '../../../server/src/services/codeActions/codeActions';
import { completeAt } from '../../../server/src/services/completion/complete';
import { hoverAt } from '../../../server/src/services/hover/hover';
import { validateManifestText } from '../../../server/src/services/validateDocument';

/** Fragments that make YAML half-written in interesting ways. */
const FRAGMENTS = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'kind: Pod',
  'spec:',
  'containers:',
  '- ',
  '-',
  'name: web',
  'ports:',
  'imagePullPolicy: ',
  ': ',
  '|',
  '>',
  '[',
  '{',
  '"',
  "'",
  '#',
  '---',
  '&a',
  '*a',
  '\t',
  'selector:',
  'matchLabels:',
  'app: web',
  '  ',
  '    ',
  '\n',
  '\n',
  '\n',
];

test('completion, hover and code actions never throw on half-written YAML', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }), fc.nat(), (parts, at) => {
      const text = parts.join('');
      const doc = TextDocument.create('file:///x.yaml', 'yaml', 1, text);
      const position = doc.positionAt(at % (text.length + 1));
      assert.ok(Array.isArray(completeAt(doc, position)));
      hoverAt(doc, position);
      assert.ok(Array.isArray(codeActionsFor(doc, validateManifestText(text))));
    }),
    { numRuns: 300, seed: 42 },
  );
});

test('completion on a 50,000-line file reads only the document under the cursor', () => {
  const one = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: c',
    'data:',
    ...Array.from({ length: 45 }, (_, i) => `  k${i}: v`),
  ].join('\n');
  const text = Array.from({ length: 1000 }, () => one).join('\n---\n');
  const doc = TextDocument.create(
    'file:///big.yaml',
    'yaml',
    1,
    `${text}\n---\napiVersion: v1\nkind: Pod\nspec:\n  restartPolicy: `,
  );
  const position = doc.positionAt(doc.getText().length);
  const lines: string[] = [];
  const counting = {
    ...doc,
    lineCount: doc.lineCount,
    getText: (r?: Parameters<TextDocument['getText']>[0]) => (r !== undefined && lines.push(''), doc.getText(r)),
  } as TextDocument;
  assert.deepEqual(
    completeAt(counting, position).map((i) => i.label),
    ['Always', 'Never', 'OnFailure'],
  );
  assert.ok(lines.length < 100, `read ${lines.length} lines`);
});
