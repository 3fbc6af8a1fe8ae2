/**
 * The one-pass nesting guard gives exactly what the first version (split, regular expressions) gave: on every
 * example and fixture manifest and on generated text full of the characters it looks at.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { nestingDepth, nestingDepthBound } from '../../../sandbox/manifests/nestingDepth';
import { fuzzedYaml } from './fastYamlArbitrary';
import { nestingDepthReference } from './nestingDepthReference';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.ya?ml$/.test(n) ? [p] : [];
  });
}

test('nesting depth: the same as the reference on every example and fixture', () => {
  const root = join(__dirname, '..', '..', '..');
  const all = [...files(join(root, 'examples')), ...files(join(root, 'test', 'fixtures'))];
  assert.ok(all.length > 50);
  for (const f of all) {
    const text = readFileSync(f, 'utf8');
    assert.equal(nestingDepth(text), nestingDepthReference(text), f);
  }
  assert.equal(nestingDepth('a:\n  b:\n    - - [[c]]\n'), nestingDepthReference('a:\n  b:\n    - - [[c]]\n'));
  assert.ok(nestingDepth('[[[[[[[[[[\n') >= 10);
});

test('nesting depth: the same as the reference on generated text', () => {
  const chars = [
    ' ',
    ' ',
    '\t',
    '-',
    '[',
    '{',
    ']',
    '}',
    '"',
    "'",
    '\\',
    '#',
    ':',
    ',',
    '\n',
    '\n',
    '\r',
    '\v',
    '\u00a0',
    '\u2028',
    '\ufeff',
    'a',
    'b',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 120 }), (cs) => {
      const text = cs.join('');
      assert.equal(nestingDepth(text), nestingDepthReference(text), JSON.stringify(text));
      assert.ok(nestingDepthBound(text) >= nestingDepth(text), JSON.stringify(text));
    }),
    { numRuns: 2000, seed: 3 },
  );
});

test('nesting depth bound: never below the exact count, and under the guard’s limit on the seed manifests', () => {
  const root = join(__dirname, '..', '..', '..');
  const all = [...files(join(root, 'examples')), ...files(join(root, 'test', 'fixtures'))];
  let under = 0;
  for (const f of all) {
    const text = readFileSync(f, 'utf8');
    const bound = nestingDepthBound(text);
    assert.ok(bound >= nestingDepth(text), f);
    if (bound <= 200) under++;
  }
  // Not vacuous: the bound spares the exact count on nearly every file.
  assert.ok(under > all.length * 0.9, `${under} of ${all.length}`);
  // Deep flow nesting, deep compact sequences and indents kept under an open bracket.
  for (const text of [
    '[[[[[[[[[[\n',
    '- - - - - - - - - - x\n',
    'a:\n b:\n  c:\n   d: [\n    - - - x\n]\n',
    ' '.repeat(40) + 'a: [\n' + '- '.repeat(60) + '\n',
    '\u00a0a: 1\n',
  ])
    assert.ok(nestingDepthBound(text) >= nestingDepth(text), JSON.stringify(text));
  fc.assert(
    fc.property(fuzzedYaml, (text) => {
      assert.ok(nestingDepthBound(text) >= nestingDepth(text), JSON.stringify(text));
    }),
    { numRuns: 1000, seed: 13 },
  );
});
