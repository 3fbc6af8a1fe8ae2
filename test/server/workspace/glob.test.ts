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

  test('[...] classes: sets, ranges and [!...] / [^...] negation (VS Code glob)', () => {
    assert.deepEqual(matched('**/*.[yY]aml', ['a.yaml', 'dir/b.Yaml', 'c.YAML', 'd.xaml']), ['a.yaml', 'dir/b.Yaml']);
    assert.deepEqual(matched('v[0-9].yaml', ['v1.yaml', 'vx.yaml', 'v10.yaml']), ['v1.yaml']);
    assert.deepEqual(matched('*.[!y]aml', ['a.yaml', 'a.xaml']), ['a.xaml']);
    assert.deepEqual(matched('*.[^y]aml', ['a.yaml', 'a.xaml']), ['a.xaml']);
  });

  test('a/** matches the folder a itself, as VS Code does', () => {
    assert.deepEqual(matched('dir/**', ['dir', 'dir/a.yaml', 'dirt', 'dirt/a.yaml']), ['dir', 'dir/a.yaml']);
    assert.deepEqual(matched('**/node_modules/**', ['node_modules', 'x/node_modules']), [
      'node_modules',
      'x/node_modules',
    ]);
  });

  test('dot files match * and **; case matters; the pattern is trimmed', () => {
    assert.deepEqual(matched('*.yaml', ['.hidden.yaml', 'a.yaml']), ['.hidden.yaml', 'a.yaml']);
    assert.deepEqual(matched('**/*.yaml', ['.github/ci.yaml']), ['.github/ci.yaml']);
    assert.deepEqual(matched('*.YAML', ['a.yaml', 'b.YAML']), ['b.YAML']);
    assert.deepEqual(matched('  *.yaml ', ['a.yaml']), ['a.yaml']);
  });

  test('no extglobs and no leading-! negation: they match themselves', () => {
    assert.deepEqual(matched('!a.yaml', ['!a.yaml', 'b.yaml']), ['!a.yaml']);
    assert.deepEqual(matched('@(a).yaml', ['@(a).yaml', 'a.yaml']), ['@(a).yaml']);
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
