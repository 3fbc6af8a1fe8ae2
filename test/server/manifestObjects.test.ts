/**
 * The object of each manifest is read straight off the YAML nodes for plain documents (one pass, no intermediate
 * value) and through `copyJson(doc.toJS())` for the rest: both must give the same object, members in the same order,
 * and the same problems. Compared on every manifest of the examples and public fixtures, and on documents made to
 * take the general path (aliases, merge keys, tags, non-string keys, non-JSON values, depth and size limits).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlFiles } from '../yamlFiles';
import { isMap, isScalar, parseAllDocuments } from 'yaml';
import { MAX_ALIAS_COUNT, parseManifestText } from '../../sandbox/manifests/parseManifests';
import { copyJson } from '../../sandbox/util/json';

const ROOT = join(__dirname, '..', '..');

/** What each document's object was before the direct reading: copyJson of toJS, or the error it threw. */
function generalObjects(text: string): unknown[] {
  const out: unknown[] = [];
  for (const doc of parseAllDocuments(text, { prettyErrors: false, merge: true, uniqueKeys: true })) {
    if (doc.errors.length > 0 || !isMap(doc.contents)) continue;
    const root = doc.contents;
    const kind = root.get('kind', true);
    const apiVersion = root.get('apiVersion', true);
    if (!isScalar(kind) || typeof kind.value !== 'string') continue;
    if (!isScalar(apiVersion) || typeof apiVersion.value !== 'string') continue;
    try {
      out.push(copyJson(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })));
    } catch {
      out.push('refused');
    }
  }
  return out;
}

/** JSON text keeps member order, so equal texts mean equal objects with members in the same order. */
function assertSameObjects(text: string, what: string): void {
  const parsed = parseManifestText(text);
  const expected = generalObjects(text).filter((o) => o !== 'refused');
  assert.equal(
    JSON.stringify(parsed.manifests.map((m) => m.object)),
    JSON.stringify(expected),
    `objects of ${what} differ`,
  );
  const refused = generalObjects(text).length - expected.length;
  assert.equal(
    parsed.problems.filter((p) => p.code === 'yaml-not-json' || p.code === 'yaml-alias-limit').length,
    refused,
    `refusals of ${what} differ`,
  );
}

const HEAD = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';

describe('manifest objects read off the YAML nodes', () => {
  test('every manifest of the examples and the public fixtures is the object toJS + copyJson made', () => {
    const files = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test/fixtures/public'))];
    assert.ok(files.length > 50, 'the corpus is there');
    let manifests = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      assertSameObjects(text, file);
      manifests += parseManifestText(text).manifests.length;
    }
    assert.ok(manifests > 100, `${manifests} manifests compared`);
  });

  const cases: Record<string, string> = {
    'scalars of every type': `${HEAD}data:\n  a: "1"\n  b: 1\n  c: 1.5\n  d: true\n  e: null\n  f: ~\n  g:\n  h: 0x1F\n  i: 'q'\n  j: |\n    block\n  k: -0\n`,
    'numeric and odd keys keep their order': `${HEAD}data:\n  "b": 1\n  "10": 2\n  "2": 3\n  a: 4\n  constructor: 5\n  toString: 6\n`,
    'lists, nulls in lists, flow collections': `${HEAD}spec:\n  l: [1, "a", null, {x: 1}, []]\n  m:\n    -\n    - a\n    - {}\n`,
    'an alias and an anchor': `${HEAD}data:\n  a: &v hello\n  b: *v\n`,
    'a merge key': `${HEAD}base: &b\n  x: 1\nspec:\n  <<: *b\n  y: 2\n`,
    'a __proto__ key': `${HEAD}data:\n  __proto__: polluted\n  ok: "1"\n`,
    'a number key and a boolean key': `${HEAD}data:\n  80: http\n  true: yes\n`,
    'a null key': `${HEAD}data:\n  ? \n  : v\n`,
    'non-JSON numbers': `${HEAD}data:\n  a: .inf\n  b: .nan\n`,
    'a tagged collection and tagged scalars': `${HEAD}data: !!map\n  a: !!str 1\n  b: !!int "2"\nset: !!set\n  ? a\n`,
    binary: `${HEAD}data:\n  a: !!binary aGVsbG8=\n`,
    'nesting at the depth limit': `${HEAD}spec: ${'['.repeat(99)}1${']'.repeat(99)}\n`,
    'nesting over the depth limit': `${HEAD}spec: ${'['.repeat(100)}1${']'.repeat(100)}\n`,
    'over the size limit': `${HEAD}data:\n${Array.from({ length: 40 }, (_, i) => `  k${i}: ${'x'.repeat(80_000)}\n`).join('')}`,
    'just under the size limit': `${HEAD}data:\n${Array.from({ length: 30 }, (_, i) => `  k${i}: ${'x'.repeat(100_000)}\n`).join('')}`,
    'several documents, one with errors': `${HEAD}---\n${HEAD}data:\n  a: 1\n  a: 2\n---\n${HEAD}data: {b: [1, 2]}\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    test(name, () => assertSameObjects(text, name));
  }

  test('a refused document is a problem, not a manifest', () => {
    const parsed = parseManifestText(`${HEAD}data:\n  a: .inf\n`);
    assert.equal(parsed.manifests.length, 0);
    assert.deepEqual(
      parsed.problems.map((p) => p.code),
      ['yaml-not-json'],
    );
  });
});
