/**
 * The fast YAML reader (sandbox/manifests/fastYaml) against the `yaml` package: on every example and fixture
 * manifest, on hand-picked edge cases and on generated and mutated YAML, it either declines the text or gives the
 * same node trees (fastYamlCompare.ts); and parseManifestText gives the same answer with it as without it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlFiles } from '../../yamlFiles';
import fc from 'fast-check';
import { isAlias, isMap, isScalar } from 'yaml';
import { parseFastYaml } from '../../../sandbox/manifests/fastYaml/parse';
import { manifestParser, parseManifestText } from '../../../sandbox/manifests/parseManifests';
import { splitDocuments } from '../../../server/src/services/workspace/splitDocuments';
import { compareWithYaml } from './fastYamlCompare';
import { fuzzedYaml, generatedYaml } from './fastYamlArbitrary';

const ROOT = join(__dirname, '..', '..', '..');

const FILES = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test', 'fixtures'))];

/** parseManifestText with the fast reader on or off. */
function parsedWith(fast: boolean, text: string) {
  const before = manifestParser.fast;
  manifestParser.fast = fast;
  try {
    const p = parseManifestText(text);
    return {
      problems: p.problems,
      manifests: p.manifests.map((m) => ({
        index: m.index,
        apiVersion: m.apiVersion,
        kind: m.kind,
        object: m.object,
        range: m.root.range,
        // yaml makes a new symbol for each merge key (`<<`): compared by its text.
        keys: m.root.items.map((i) => (isScalar(i.key) ? [String(i.key.value), i.key.range] : undefined)),
      })),
      lines: p.lineCounter.lineStarts,
    };
  } finally {
    manifestParser.fast = before;
  }
}

describe('fast YAML reader: the same nodes as the yaml package, or none', () => {
  test('every example and fixture manifest, whole and document by document', () => {
    assert.ok(FILES.length > 50, `only ${FILES.length} files found`);
    let same = 0;
    let pieces = 0;
    for (const f of FILES) {
      const text = readFileSync(f, 'utf8');
      for (const t of [text, ...splitDocuments(text).map((p) => p.text)]) {
        const c = compareWithYaml(t);
        assert.notEqual(c.outcome, 'different', `${f}: ${'why' in c ? c.why : ''}`);
        if (c.outcome === 'same') same++;
        pieces++;
      }
    }
    // Not a vacuous pass: the reader takes most of them (what it declines goes to yaml).
    assert.ok(same > pieces * 0.75, `fast reader took ${same} of ${pieces}`);
  });

  test('parseManifestText answers the same with the fast reader as without it', () => {
    for (const f of FILES) {
      const text = readFileSync(f, 'utf8');
      assert.deepEqual(parsedWith(true, text), parsedWith(false, text), f);
    }
  });

  const SAME = [
    // The core schema's scalars, as yaml resolves them; yes/no/on/off are strings in YAML 1.2.
    'a: 0o17\nb: 1e3\nc: 010\nd: ~\ne: yes\nf: .inf\ng: -.Inf\nh: .NaN\ni: 0x1F\nj: +12\nk: -0\nl: 1.50\nm: .5\n',
    'a: null\nb: Null\nc: NULL\nd: nULL\ne: True\nf: FALSE\ng: tRUE\nh: 1_000\ni: 0b1\nj: 12:30\nk: 2001-12-14\n',
    // Quoting styles and escapes.
    `a: "x\\ty\\u00e9\\x41\\"\\\\"\nb: 'it''s'\nc: ""\nd: ''\n"k e y": 1\n'q': 2\n`,
    'a: say "hi" # not part of it\nb: a#b\nc: http://x:80/p\nd: 日本語 😀\ne: C:\\dir\n',
    // Block scalars, chomping, folding, more-indented lines.
    'a: |\n  x\n   y\n\n  z\nb: >\n  p\n  q\n\n   r\n  s\nc: |-\n  k\n\nd: >-\n  m\n',
    // Comments everywhere, including ones indented deeper that yaml hangs on the value before them.
    'a: 1 # c\n  # deeper\nb:\n  - x\n    # deeper\n  # same\n\n  - y\n# col 0\nc:\n  d: 1\n  # end\ne: 2\n',
    // Sequences under a map at the same indent, compact nesting, empty items and values.
    'a:\n- 1\n- - 2\n  - 3\n- k: v\n  l: w\n-\nb:\nc: [x, "y", 1]\nd: []\ne: {}\n',
    // Documents and markers.
    '# lead\n---\na: 1\n...\n---\nb: 2\n--- # c\n---\n',
    // Anchors and aliases, as PyYAML writes them into CRDs.
    'a: &id001\n  type: object\nb: *id001\nc: &x val\nd: *x\ne:\n  - &s\n    - 1\n  - *s\n',
    // Flow collections, JSON-like manifests over lines, trailing commas, comments after commas.
    'a: {b: 1}\nc: [b, [c], {}]\nd: [ ]\n',
    '{\n  "apiVersion": "v1",\n  kind: "Pod", # c\n  spec: {\n    a: [\n      1 ,\n      "x"\n    ],\n  },\n}\n',
    '[1 , 2 ]\n---\n{ "a":1, b: [ ] \n , "c": 2 }\n',
    '{\n  a: [x]\n\n}\n--- # doc\n--- # d\na: 1\n',
    // Double-quoted scalars over lines: folding, blank lines, trailing and escaped spaces, escaped line breaks.
    'a: "multi\n  line"\nb:\n  - "x\n   y"\n  - k: "p\n     q"\nc:\n- "s\n t"\n',
    'a: "x  \n  y\\\n   z \\ \n w"\nb: "\n c\n \n\n d\n  "\nc: "e\\\\\n f\\t\\\n\n g" # c\n',
    'a:\n  "over\n lines"\nb: &x "anchored\n over"\nc: *x\n',
    '{\n  "a": ["x\\\n   y",\n    "p\n q"],\n  b: "s\n\n t"\n}\n',
    'c: ["u\n v", {d: "w\n  x"}]\n',
    // A plain scalar folded over lines.
    'a: plain\n  multi\n\n  line\nb: 1\n',
    // An empty item after empty lines at the start: the look for a comment above it once never ended (issue 16).
    '\n\n- ',
    '\n\n-',
    '\n\n\n- \n',
  ];
  for (const text of SAME) {
    test(`read as yaml reads it: ${JSON.stringify(text.slice(0, 40))}`, () => {
      assert.deepEqual(compareWithYaml(text), { outcome: 'same' });
    });
  }

  const DECLINED = [
    'a: !!str 1\n', // tags
    'a: &a 1\n<<: *a\n', // merge keys
    '<<: {a: 1}\n',
    'a: 1\na: 2\n', // a duplicate key: yaml's error
    '? a\n: b\n', // an explicit key
    '1: a\n', // a key that is not a string
    'a:\n\t- b\n', // a tab in the indentation
    "a: 'multi\n  line'\n", // a single-quoted scalar over lines
    '"multi\n line": 1\n', // a double-quoted key over lines: yaml's MULTILINE_IMPLICIT_KEY
    'a:\n  "multi\n  line": 1\n',
    'a:\n  b: "multi\n  line"\n', // a continuation line not indented past the map: yaml's error
    'a:\n  - b: "x\n   y"\n',
    'a: "x\n\n"\n', // the closing quote at column 0
    'a: ["x\ny"]\n', // over lines in a flow collection, not indented past the block
    '{"x\n y": 1}\n', // a flow map key over lines
    'a: "x\n\ty"\n', // a tab
    'a: "x\\x4\n1"\n', // an escape cut by a line break
    'a: |+\n  x\n\n', // keep chomping
    'a: |2\n   x\n', // an indentation indicator
    '%YAML 1.2\n---\na: 1\n', // a directive
    'a: b: c\n', // yaml's error
    'a: 1\r\nb: 2\r\n', // CR line ends
    'a: *nothing\n', // an alias without its anchor
    'a: # empty, with a comment\nb: 1\n',
    'a:\n- 1\n# c\n-\n- 2\n', // an empty item after a comment line
    '- # c\n- 1\n', // an empty item with a comment
    'kind\t: x\n', // a tab before a key's colon
    'a: 1\n...\n   ---\nb: 2\n', // an indented `---` after `...`: yaml's error
    'a: [1 # c\n]\n', // a comment in a flow collection before its comma
    'a: [\n1]\n', // a flow collection not indented enough
    'a: {b}\n', // a flow map entry without a value
    'a: [b: 1]\n', // a pair in a flow sequence
  ];
  for (const text of DECLINED) {
    test(`declined, left to yaml: ${JSON.stringify(text.slice(0, 40))}`, () => {
      assert.equal(parseFastYaml(text), undefined);
    });
  }

  test('nodes are the yaml package’s own classes, with anchors and aliases resolved by a Document', () => {
    const docs = parseFastYaml('a: &x [1]\nb: *x\n');
    assert.ok(docs);
    const root = docs[0].contents;
    assert.ok(isMap(root));
    assert.ok(isAlias(root.get('b', true)));
    const parsed = parseManifestText('apiVersion: v1\nkind: ConfigMap\ndata: &d\n  a: "1"\nbinaryData: *d\n');
    assert.deepEqual(parsed.manifests[0].object, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { a: '1' },
      binaryData: { a: '1' },
    });
  });

  test('generated and mutated YAML: never a different answer', () => {
    fc.assert(
      fc.property(fuzzedYaml, (t) => {
        const c = compareWithYaml(t);
        assert.notEqual(c.outcome, 'different', 'why' in c ? c.why : '');
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test('generated YAML: the fast reader takes a fair share, and parseManifestText answers the same', () => {
    let same = 0;
    const texts = fc.sample(generatedYaml, { numRuns: 200, seed: 11 });
    for (const t of texts) {
      if (compareWithYaml(t).outcome === 'same') same++;
      assert.deepEqual(parsedWith(true, t), parsedWith(false, t), JSON.stringify(t));
    }
    assert.ok(same > texts.length / 10, `fast reader took ${same} of ${texts.length}`);
  });
});
