import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic } from 'vscode-languageserver-types';
import { MAX_NESTING_DEPTH, MAX_PARSE_DIAGNOSTICS } from '../../server/src/services/parseManifests';
import { validateManifestText } from '../../server/src/services/validateDocument';
import { Watchdog, watched } from '../fuzz/watchdog';

/** Every range starts no later than it ends and lies inside the text. */
function assertRangesInside(text: string, ds: Diagnostic[]): void {
  const lineLengths = text.split('\n').map((l) => l.length);
  for (const d of ds) {
    const { start, end } = d.range;
    assert.ok(
      start.line < end.line || (start.line === end.line && start.character <= end.character),
      JSON.stringify(d),
    );
    for (const p of [start, end]) {
      assert.ok(p.line >= 0 && p.line < lineLengths.length, JSON.stringify(d));
      assert.ok(p.character >= 0 && p.character <= lineLengths[p.line], JSON.stringify(d));
    }
  }
}

const yamlish = fc
  .array(
    fc.constantFrom(
      'apiVersion: v1\n',
      'kind: Pod\n',
      'kind: ConfigMap\n',
      'metadata:\n',
      '  name: x\n',
      '- ',
      ': ',
      '[',
      ']',
      '{',
      '}',
      '&a ',
      '*a ',
      '"',
      "'",
      '\t',
      '\n',
      '---\n',
      'spec:\n',
      '  containers:\n',
      '    - name: c\n',
      'x',
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('hostile input', () => {
  test('arbitrary text never throws and every range lies inside the text', async () => {
    // A new seed each run explores new inputs; fast-check prints it with a failure, and the watchdog prints it with
    // the input when one hangs (a hang cannot fail on its own: the thread never returns).
    const seed = Date.now() ^ (Math.random() * 0x7fffffff);
    const dog = new Watchdog('hostile input property');
    try {
      fc.assert(
        watched(
          fc.property(fc.oneof(fc.string(), yamlish), (text) => {
            assertRangesInside(text, validateManifestText(text));
          }),
          dog,
          seed,
        ),
        { numRuns: 1000, seed },
      );
    } finally {
      await dog.stop();
    }
  });

  test('an empty sequence item after empty lines at the start is answered (the fast reader once looped forever)', () => {
    // Found by the property above with a seed of its own: `"\n\n- "` hung the language server and `validate`.
    for (const text of ['\n\n- ', '\n\n-', '\n\n\n- \n', '\n\n- a\n-\n']) {
      const ds = validateManifestText(text);
      assertRangesInside(text, ds);
    }
  });

  test('runaway nesting is declined before the parser recurses', () => {
    const deepBlock = Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    for (const text of [
      '['.repeat(100_000),
      '{a: '.repeat(20_000),
      '- '.repeat(50_000),
      deepBlock,
      `a: [${'['.repeat(300)}] # [[[`,
    ]) {
      assert.deepEqual(validateManifestText(text), [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
          severity: 1,
          code: 'yaml-too-deep',
          source: 'kube-reconcile',
          message: `YAML nests deeper than ${MAX_NESTING_DEPTH} levels; not validated`,
        },
      ]);
    }
  });

  test('the nesting guard ignores brackets in comments and quoted strings', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x # ${'['.repeat(500)}\ndata:\n  a: "${'{'.repeat(500)}"\n  b: '${'['.repeat(500)}'\n`;
    assert.deepEqual(validateManifestText(text), []);
  });

  test('parser complaints are de-duplicated and capped', () => {
    const text = Array.from({ length: 300 }, (_, i) => `k${i}: "a\n  x: 1\n`).join('');
    const ds = validateManifestText(text);
    assert.ok(ds.length <= MAX_PARSE_DIAGNOSTICS, `${ds.length} diagnostics`);
    assert.equal(new Set(ds.map((d) => JSON.stringify(d))).size, ds.length);
  });
});
