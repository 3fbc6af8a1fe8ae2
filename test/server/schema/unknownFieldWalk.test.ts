/**
 * The `unknown-field` rule finds undeclared keys in one of two ways: the API server's strict walk of the document's
 * object (`validate`), or, when the object mirrors the nodes one to one, the schema walk of the nodes the other rules
 * share (`visitor`). Both must give the same diagnostics, in the same order: compared on every example and fixture
 * manifest, on copies of them with keys renamed at random (unknown fields everywhere, some led by a digit, which
 * JavaScript lists first), and on documents built for the strict walk's cap and its one message per path text.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { yamlFiles } from '../../yamlFiles';
import { mirrorsNodes, parseManifestText } from '../../../sandbox/manifests/parseManifests';
import type { ManifestDocument } from '../../../sandbox/manifests/parseManifests';
import { definition, kindEntry } from '../../../sandbox/schema/schema';
import { MAX_STRICT_ERRORS } from '../../../sandbox/schema/strictFields';
import { unknownFieldRule } from '../../../server/src/services/schemaRules/unknownField';
import { runSchemaRules } from '../../../server/src/services/schemaRules';
import { walkSchema } from '../../../server/src/services/schemaRules/walkSchema';
import type { SchemaRuleContext } from '../../../server/src/services/schemaRules';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SEEDS = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test/fixtures/public'))].map((p) =>
  readFileSync(p, 'utf8'),
);

interface Compared {
  /** Documents of a kind the schema knows. */
  documents: number;
  /** Of those, the ones whose object mirrors the nodes (the walk of the nodes answered). */
  mirrored: number;
  /** Unknown fields found. */
  found: number;
}

/** Both ways on every manifest of `text`; throws on the first difference. */
function compareText(text: string, into: Compared): void {
  const parsed = parseManifestText(text);
  for (const doc of parsed.manifests) {
    const entry = kindEntry(doc.apiVersion, doc.kind);
    const def = entry === undefined ? undefined : definition(entry.definition);
    if (entry === undefined || def === undefined) continue;
    const ctx: SchemaRuleContext = { lineCounter: parsed.lineCounter, kind: entry, definition: def };
    const byObject = unknownFieldRule.validate(doc, ctx);
    const byNodes: Diagnostic[] = [];
    walkSchema(doc.root, def, unknownFieldRule.visitor!(doc, ctx, byNodes));
    assert.deepEqual(byNodes, byObject, `${doc.kind} ${String(doc.index)} of:\n${text.slice(0, 2000)}`);
    // The runner of every rule reports the same unknown fields, first.
    const all = runSchemaRules(doc, ctx);
    assert.deepEqual(
      all.filter((d) => d.code === 'unknown-field'),
      byObject,
    );
    into.documents++;
    if (mirrorsNodes(doc)) into.mirrored++;
    into.found += byObject.length;
  }
}

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `text` with about one key in `every` (not apiVersion or kind) renamed: a suffix, a digit in front, or a quoted array
 * index (which JavaScript lists first).
 */
function renameKeys(text: string, next: () => number, every: number): string {
  return text.replace(/^(\s*(?:- )?)([A-Za-z][\w.-]*):/gm, (all, lead: string, key: string) => {
    if (key === 'apiVersion' || key === 'kind' || next() * every >= 1) return all;
    const r = next();
    const renamed = r < 0.8 ? `${key}X` : r < 0.9 ? `9${key}` : `"${String(Math.floor(next() * 5))}"`;
    return `${lead}${renamed}:`;
  });
}

describe('unknown-field: the walk of the nodes and the strict walk of the object agree', () => {
  test('on every example and fixture manifest, most of them through the walk of the nodes', () => {
    const c: Compared = { documents: 0, mirrored: 0, found: 0 };
    for (const text of SEEDS) compareText(text, c);
    assert.ok(c.documents > 100, `only ${String(c.documents)} documents`);
    assert.ok(c.mirrored > 0.9 * c.documents, `${String(c.mirrored)} of ${String(c.documents)} mirrored`);
  });

  test('on the seed manifests with keys renamed at random (four seeds)', () => {
    const c: Compared = { documents: 0, mirrored: 0, found: 0 };
    for (const seed of [1, 2, 3, 4]) {
      const next = random(seed);
      for (const text of SEEDS) compareText(renameKeys(text, next, 10), c);
    }
    assert.ok(c.found > 300, `only ${String(c.found)} unknown fields found`);
    assert.ok(c.mirrored > 0.3 * c.documents, `${String(c.mirrored)} of ${String(c.documents)} mirrored`);
    assert.ok(c.mirrored < c.documents, 'no document took the strict walk of the object');
  });

  test("past the strict walk's cap, one message per path text, keys JavaScript lists first, aliases", () => {
    const many = (n: number, prefix: string, indent: string): string[] =>
      Array.from({ length: n }, (_, i) => `${indent}${prefix}${String(i)}: x`);
    const texts = [
      // 150 unknown fields at the root and in a container: the first 100 in walk order.
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: p}',
        ...many(60, 'top', ''),
        'spec:',
        '  containers:',
        '    - name: c',
        '      image: i',
        ...many(90, 'inner', '      '),
      ].join('\n'),
      // `spec.foo` at the root and `foo` in spec read the same: upstream keeps one message.
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: p}',
        'spec.foo: 1',
        'spec:',
        '  foo: 2',
        '  containers: []',
      ].join('\n'),
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: p}',
        'spec:',
        '  foo: 2',
        '  containers: []',
        'spec.foo: 1',
      ].join('\n'),
      // Array indices come first in the object's keys ("7" before "zzz"), in document order among the nodes.
      ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: a}', 'zzz: 1', '"7": 2', 'data: {}'].join('\n'),
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata: {name: xs.example.com}',
        'spec:',
        '  group: example.com',
        '  names: {kind: X, plural: xs}',
        '  scope: Namespaced',
        '  versions:',
        '    - name: v1',
        '      served: true',
        '      storage: true',
        '      schema:',
        '        openAPIV3Schema:',
        '          type: object',
        '          properties:',
        '            b: {type: string, bogus: 1}',
        '            "0": {type: string, bogus2: 1}',
      ].join('\n'),
      // Aliases: the object holds the anchor's unknown field twice, the nodes once.
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: d}',
        'spec:',
        '  selector: {matchLabels: {a: b}}',
        '  template:',
        '    metadata: {labels: {a: b}}',
        '    spec:',
        '      containers:',
        '        - &c {name: c, image: i, bogus: 1}',
        '        - *c',
      ].join('\n'),
    ];
    const c: Compared = { documents: 0, mirrored: 0, found: 0 };
    for (const text of texts) compareText(text, c);
    assert.equal(c.documents, 6);
    assert.equal(c.mirrored, 3);
    assert.equal(c.found, MAX_STRICT_ERRORS + 1 + 1 + 2 + 2 + 2);
  });

  test("a copy of the object, or another document's nodes, is no mirror", () => {
    const parsed = parseManifestText('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
    const doc = parsed.manifests[0];
    assert.equal(mirrorsNodes(doc), true);
    const copy: ManifestDocument = { ...doc, object: { ...doc.object } };
    assert.equal(mirrorsNodes(copy), false);
    const other = parseManifestText('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n').manifests[0];
    assert.equal(mirrorsNodes({ root: other.root, object: doc.object }), false);
  });
});
