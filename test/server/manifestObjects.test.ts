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
import fc from 'fast-check';
import { yamlFiles } from '../yamlFiles';
import { isMap, isScalar, parseAllDocuments } from 'yaml';
import { MAX_ALIAS_COUNT, parseManifestText } from '../../sandbox/manifests/parseManifests';
import { copyJson } from '../../sandbox/util/json';
import { parseFastYaml } from '../../sandbox/manifests/fastYaml/parse';

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

/** An anchor s aliased twice in m, m aliased three times in n, and n aliased `uses` times. */
function threeLevels(uses: number): string {
  return `s: &s v\nm: &m\n  - *s\n  - *s\nn: &n\n  - *m\n  - *m\n  - *m\nl:\n${'  - *n\n'.repeat(uses)}`;
}

/** `first` then `levels` maps nested in block style, the innermost holding `leaf` (a 1 by default). */
function nestedMaps(first: string, levels: number, leaf = '1'): string {
  const lines = [first];
  for (let i = 1; i <= levels; i++) lines.push(`${'  '.repeat(i)}m${i}:`);
  lines[lines.length - 1] += ` ${leaf}`;
  return lines.join('\n') + '\n';
}

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
    'an anchored map and two aliases: separate copies': `${HEAD}a: &m\n  x:\n    - 1\n    - y: 2\nb: *m\nc:\n  - *m\n`,
    'an alias inside an anchored map, aliased again': `${HEAD}a: &s v\nb: &m\n  p: *s\n  q:\n    - *s\n    - *s\nc: *m\nd: *m\ne: *s\n`,
    '99 aliases of a scalar (yaml counts 1 + 99: at the limit)': `${HEAD}a: &s v\nl:\n${'  - *s\n'.repeat(99)}`,
    '100 aliases of a scalar (over the limit)': `${HEAD}a: &s v\nl:\n${'  - *s\n'.repeat(100)}`,
    // yaml: s counts 1 + 9 = 10, so m weighs 10 and its 9 aliases make 10 × 10 = 100 (at the limit), 10 make 110.
    'aliases of an anchor holding aliases multiply': `${HEAD}a: &s v\nb: &m\n${'  - *s\n'.repeat(9)}l:\n${'  - *m\n'.repeat(9)}`,
    'aliases of an anchor holding aliases, over the limit': `${HEAD}a: &s v\nb: &m\n${'  - *s\n'.repeat(9)}l:\n${'  - *m\n'.repeat(10)}`,
    // Three levels: s counts 3, m weighs 3 and counts 4, n weighs 4 × 3 = 12: 7 aliases make 96, 8 make 108.
    'aliases three levels deep, at the limit': `${HEAD}${threeLevels(7)}`,
    'aliases three levels deep, over the limit': `${HEAD}${threeLevels(8)}`,
    'an anchored empty map aliased 150 times (yaml counts nothing)': `${HEAD}a: &e {}\nl:\n${'  - *e\n'.repeat(150)}`,
    'an alias of a nested map copied past the depth limit': `${HEAD}${nestedMaps('a: &d', 60)}${nestedMaps('b:', 40, '*d')}`,
    'an alias of a nested map copied to the depth limit': `${HEAD}${nestedMaps('a: &d', 60)}${nestedMaps('b:', 39, '*d')}`,
    'aliases of a large value over the size limit': `${HEAD}a: &big ${'x'.repeat(1_000_000)}\nl:\n  - *big\n  - *big\n  - *big\n`,
    'aliases of a large value under the size limit': `${HEAD}a: &big ${'x'.repeat(1_000_000)}\nl:\n  - *big\n`,
    'several documents, one with errors': `${HEAD}---\n${HEAD}data:\n  a: 1\n  a: 2\n---\n${HEAD}data: {b: [1, 2]}\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    test(name, () => assertSameObjects(text, name));
  }

  test('the alias cases above are read by the fast reader (so the aliases are resolved off its nodes)', () => {
    for (const [name, text] of Object.entries(cases))
      if (/alias/.test(name) && !/^an alias and an anchor$/.test(name))
        assert.notEqual(parseFastYaml(text), undefined, name);
  });

  test('an alias is a copy of its anchor: changing one (as defaulting does) leaves the other', () => {
    const parsed = parseManifestText(`${HEAD}a: &m\n  x:\n    - 1\nb: *m\n`);
    const object = parsed.manifests[0].object as { a: { x: number[] }; b: { x: number[] } };
    object.a.x.push(2);
    assert.deepEqual(object.b, { x: [1] });
  });

  test('generated documents with anchors and aliases (limits included): the objects toJS + copyJson made', () => {
    // Anchors defined in order, each a scalar or a list or map of scalars and aliases to earlier anchors, then uses.
    const anchored = fc.array(
      fc.oneof(
        fc.constantFrom('v', '1', 'true', '~', '"q"', '{}', '[]'),
        fc.array(
          fc.oneof(
            fc.constant('s'),
            fc.nat(7).map((i) => `*a${i}`),
          ),
          { maxLength: 9 },
        ),
      ),
      { minLength: 1, maxLength: 8 },
    );
    const text = fc
      .tuple(anchored, fc.array(fc.tuple(fc.nat(7), fc.boolean()), { maxLength: 120 }))
      .map(([anchors, uses]) => {
        const lines = [HEAD.trimEnd(), 'anchors:'];
        anchors.forEach((a, i) => {
          if (typeof a === 'string') lines.push(`  k${i}: &a${i} ${a}`);
          else if (a.length === 0) lines.push(`  k${i}: &a${i} []`);
          else {
            lines.push(`  k${i}: &a${i}`);
            // An alias to an anchor not defined before it is left to yaml (an error there): keep the earlier ones.
            for (const v of a) lines.push(`    - ${v.startsWith('*a') && Number(v.slice(2)) >= i ? 's' : v}`);
          }
        });
        lines.push('uses:');
        for (const [i, nested] of uses) {
          const target = `*a${i % anchors.length}`;
          lines.push(nested ? `  - x: ${target}` : `  - ${target}`);
        }
        return lines.join('\n') + '\n';
      });
    let fast = 0;
    fc.assert(
      fc.property(text, (t) => {
        if (parseFastYaml(t) !== undefined) fast++;
        assertSameObjects(t, t);
      }),
      { numRuns: 300, seed: 16 },
    );
    assert.ok(fast > 250, `the fast reader took ${fast} of 300`);
  });

  test('a refused document is a problem, not a manifest', () => {
    const parsed = parseManifestText(`${HEAD}data:\n  a: .inf\n`);
    assert.equal(parsed.manifests.length, 0);
    assert.deepEqual(
      parsed.problems.map((p) => p.code),
      ['yaml-not-json'],
    );
  });
});
