import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGlob, matchesAny } from '../../../server/src/services/workspace/glob';

/** Which of `paths` the pattern matches. */
function matched(pattern: string, paths: readonly string[]): string[] {
  const m = compileGlob(pattern);
  return paths.filter((p) => m(p));
}

const PATHS = [
  'a.yaml',
  'a.yml',
  'dir/a.yaml',
  'dir/sub/b.yml',
  'node_modules/x/a.yaml',
  'dir/node_modules/a.yaml',
  '.git/config.yaml',
  'a.yaml.bak',
  'ab.json',
  'dir/a.b.yaml',
];

describe('compileGlob', () => {
  test('**/ matches any number of leading segments, including none', () => {
    assert.deepEqual(matched('**/*.yaml', PATHS), [
      'a.yaml',
      'dir/a.yaml',
      'node_modules/x/a.yaml',
      'dir/node_modules/a.yaml',
      '.git/config.yaml',
      'dir/a.b.yaml',
    ]);
  });

  test('* and ? stay within one segment', () => {
    assert.deepEqual(matched('*.yaml', PATHS), ['a.yaml']);
    assert.deepEqual(matched('dir/*.yaml', PATHS), ['dir/a.yaml', 'dir/a.b.yaml']);
    assert.deepEqual(matched('?.yml', PATHS), ['a.yml']);
    assert.deepEqual(matched('dir/?', ['dir/a', 'dir/ab', 'dir/a/b']), ['dir/a']);
  });

  test('/** at the end matches everything below a folder', () => {
    assert.deepEqual(matched('**/node_modules/**', PATHS), ['node_modules/x/a.yaml', 'dir/node_modules/a.yaml']);
    assert.deepEqual(matched('**/.git/**', PATHS), ['.git/config.yaml']);
    assert.deepEqual(matched('dir/**', PATHS), [
      'dir/a.yaml',
      'dir/sub/b.yml',
      'dir/node_modules/a.yaml',
      'dir/a.b.yaml',
    ]);
  });

  test('{a,b} alternatives, nested, and an unbalanced brace taken literally', () => {
    assert.deepEqual(matched('**/*.{yaml,yml}', PATHS), [
      'a.yaml',
      'a.yml',
      'dir/a.yaml',
      'dir/sub/b.yml',
      'node_modules/x/a.yaml',
      'dir/node_modules/a.yaml',
      '.git/config.yaml',
      'dir/a.b.yaml',
    ]);
    assert.deepEqual(matched('{dir/{sub,x}/*,a}.yml', PATHS), ['a.yml', 'dir/sub/b.yml']);
    assert.deepEqual(matched('a{.yaml', ['a{.yaml', 'a.yaml']), ['a{.yaml']);
  });

  test('regular-expression characters match themselves', () => {
    assert.deepEqual(matched('a+(b).yaml', ['a+(b).yaml', 'aa(b).yaml', 'a+b.yaml']), ['a+(b).yaml']);
    assert.deepEqual(matched('a.yaml', ['a.yaml', 'axyaml']), ['a.yaml']);
  });

  test('a ** glued to other characters acts like *', () => {
    assert.deepEqual(matched('a**.yaml', ['a.yaml', 'abc.yaml', 'a/b.yaml']), ['a.yaml', 'abc.yaml']);
  });

  test('matchesAny is true when one of the patterns matches', () => {
    const ms = ['**/*.yaml', '**/*.yml'].map(compileGlob);
    assert.deepEqual(
      ['a.yaml', 'b.yml', 'c.json'].map((p) => matchesAny(ms, p)),
      [true, true, false],
    );
    assert.equal(matchesAny([], 'a.yaml'), false);
  });
});
