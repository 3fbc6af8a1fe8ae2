import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TextEdit } from 'vscode-languageserver-types';
import { completeAt } from '../../../server/src/services/completion/complete';
import { fillDefaults, withUniqueName } from '../../../server/src/services/completion/skeletonItems';
import { SKELETONS } from '../../../server/src/services/completion/skeletonTemplates';
import { validateManifestText } from '../../../server/src/services/validateDocument';
import { applyEdits, lines, withCursor } from './cursor';

describe('skeletons', () => {
  for (const s of SKELETONS) {
    test(`${s.kind} (${s.apiVersion}) validates clean once its placeholders keep their defaults`, () => {
      const text = `${fillDefaults(s.snippet)}\n`;
      assert.deepEqual(validateManifestText(text), []);
      assert.ok(text.startsWith(`apiVersion: ${s.apiVersion}\nkind: ${s.kind}\n`));
    });
  }

  test('fillDefaults: placeholders, choices and mirrors', () => {
    assert.equal(
      fillDefaults('name: ${1:web}\napp: $1\npolicy: ${2|Never,OnFailure|}\nport: ${3:80}$0'),
      'name: web\napp: web\npolicy: Never\nport: 80',
    );
  });

  test('offered in an empty document after ---, replacing the word typed', () => {
    const { doc, position } = withCursor(
      lines('apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: a', '---', '# a comment', 'Dep|'),
    );
    const items = completeAt(doc, position);
    assert.deepEqual(
      items.map((i) => i.label),
      SKELETONS.map((s) => `${s.kind} (${s.apiVersion})`),
    );
    const deployment = items[0];
    assert.equal(deployment.filterText, 'Deployment');
    const inserted = applyEdits(doc.getText(), [
      { ...(deployment.textEdit as TextEdit), newText: fillDefaults((deployment.textEdit as TextEdit).newText) },
    ]);
    assert.equal(
      inserted,
      lines(
        'apiVersion: v1',
        'kind: Namespace',
        'metadata:',
        '  name: a',
        '---',
        '# a comment',
        fillDefaults(SKELETONS[0].snippet),
      ),
    );
    assert.deepEqual(validateManifestText(inserted), []);
  });

  test('offered in an empty file, not in a document with content', () => {
    assert.equal(completeAt(withCursor('|').doc, { line: 0, character: 0 }).length, SKELETONS.length);
    const labels = completeAt(withCursor(lines('apiVersion: v1', 'kind: ConfigMap', '|')).doc, {
      line: 2,
      character: 0,
    }).map((i) => i.label);
    assert.deepEqual(labels, ['binaryData', 'data', 'immutable', 'metadata']);
  });
});

describe('skeleton names', () => {
  test('the default name is kept when free, else the first free `-N`; mirrors follow the tab stop', () => {
    const deployment = SKELETONS[0].snippet;
    assert.equal(withUniqueName(deployment, new Set()), deployment);
    const renamed = withUniqueName(deployment, new Set(['web', 'web-2']));
    assert.match(renamed, /^ {2}name: \$\{1:web-3\}$/m);
    const filled = fillDefaults(renamed);
    assert.match(filled, /^ {2}name: web-3\n {2}labels:\n {4}app: web-3$/m);
    assert.deepEqual(validateManifestText(`${filled}\n`), []);
  });

  test('offered with the names declared in the workspace taken: a new Deployment never reuses `web`', () => {
    const { doc, position } = withCursor('Dep|');
    const taken = (kind: string) => new Set(kind === 'Deployment' ? ['web'] : []);
    const items = completeAt(doc, position, { takenNames: taken });
    const edit = (label: string) => (items.find((i) => i.label === label)?.textEdit as TextEdit).newText;
    assert.match(edit('Deployment (apps/v1)'), /name: \$\{1:web-2\}/);
    assert.match(edit('Service (v1)'), /name: \$\{1:web\}/, 'a Service named web is another object');
  });
});
