/**
 * The shortcuts batch `validate` takes over YAML nodes answer as the long ways did: `nodeType` (one read of a node's
 * kind) agrees with yaml's predicates on every node of every example and fixture file, read by `yaml` and by the fast
 * reader; a fast-read document says it defines anchors exactly when one of its nodes has one (the plain-JSON pass
 * looks for anchors and aliases only then); a digit-led plain scalar the reader leaves a string without trying the
 * core schema's number forms is one `yaml` reads as a string too; and objectKey gives one key per identity.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { Scalar, YAMLMap } from 'yaml';
import { yamlFiles } from '../../yamlFiles';
import { parseFastYaml } from '../../../sandbox/manifests/fastYaml/parse';
import {
  ALIAS_TYPE,
  MAP_TYPE,
  PAIR_TYPE,
  SCALAR_TYPE,
  SEQ_TYPE,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  nodeType,
} from '../../../sandbox/manifests/yamlNodes';
import { objectKey } from '../../../server/src/services/crossDocument/rule';

const ROOT = join(__dirname, '..', '..', '..');
const FILES = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test', 'fixtures'))];

/** Every node, pair and value under `node` (itself included). */
function everything(node: unknown, out: unknown[] = []): unknown[] {
  out.push(node);
  if (isMap(node) || isSeq(node)) for (const item of node.items as unknown[]) everything(item, out);
  else if (isPair(node)) {
    everything(node.key, out);
    everything(node.value, out);
  }
  return out;
}

function checkKinds(nodes: unknown[], where: string): void {
  for (const n of nodes) {
    const t = nodeType(n);
    assert.equal(t === MAP_TYPE, isMap(n), where);
    assert.equal(t === SEQ_TYPE, isSeq(n), where);
    assert.equal(t === SCALAR_TYPE, isScalar(n), where);
    assert.equal(t === ALIAS_TYPE, isAlias(n), where);
    assert.equal(t === PAIR_TYPE, isPair(n), where);
  }
}

describe('node kinds read once', () => {
  test('nodeType agrees with the predicates on every node, both readers', () => {
    assert.ok(FILES.length > 50, `only ${FILES.length} files found`);
    let fast = 0;
    let nodes = 0;
    for (const f of FILES) {
      const text = readFileSync(f, 'utf8');
      for (const doc of parseAllDocuments(text)) {
        const all = everything(doc.contents);
        nodes += all.length;
        checkKinds(all, f);
      }
      const docs = parseFastYaml(text);
      if (docs === undefined) continue;
      fast++;
      for (const d of docs) checkKinds(everything(d.contents), f);
    }
    assert.ok(fast > 50 && nodes > 10_000, `${fast} files read fast, ${nodes} nodes`);
    for (const v of [null, undefined, 0, 'map', {}, [], () => 1]) checkKinds([v], String(v));
  });

  test('a fast-read document says it defines anchors exactly when a node has one', () => {
    const texts = [
      ...FILES.map((f) => readFileSync(f, 'utf8')),
      'a: &x 1\nb: *x\n---\nc: 2\n',
      'a:\n  - &y {}\n  - *y\n',
      'kind: A\napiVersion: v1\nmetadata: {name: n}\n',
    ];
    let withAnchors = 0;
    for (const text of texts) {
      for (const d of parseFastYaml(text) ?? []) {
        const anchored = everything(d.contents).some((n) => (n as { anchor?: string } | null)?.anchor !== undefined);
        assert.equal(d.anchors, anchored, text.slice(0, 80));
        if (anchored) withAnchors++;
      }
    }
    assert.ok(withAnchors >= 2, `${withAnchors} documents with anchors`);
  });
});

describe('objectKey', () => {
  test('equal exactly when the four fields are', () => {
    const parts = ['', 'a', 'b', 'ab', 'a/b', '1/', '0/0/0/', '["x"]'];
    const seen = new Map<string, string>();
    for (const g of parts)
      for (const k of parts)
        for (const ns of parts)
          for (const n of parts) {
            const identity = JSON.stringify([g, k, ns, n]);
            const key = objectKey(g, k, ns, n);
            const before = seen.get(key);
            assert.ok(before === undefined || before === identity, `${identity} and ${before} share ${key}`);
            seen.set(key, identity);
          }
    assert.equal(seen.size, parts.length ** 4);
    // Not a string (the types rule it out): its own key, never one of a string name.
    const odd = objectKey('', 'Pod', 'default', undefined as unknown as string);
    assert.ok(![...seen.keys()].includes(odd));
    assert.notEqual(odd, objectKey('', 'Pod', 'default', 'undefined'));
  });
});

describe('digit-led plain scalars', () => {
  test('the fast reader resolves them as yaml does (numbers, and strings it no longer tries as numbers)', () => {
    const alphabet = [...'019.eE+-xoafFMimkG:_/nINXO'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let compared = 0;
    let strings = 0;
    for (let i = 0; i < 30_000; i++) {
      let t = String(Math.floor(random() * 10));
      const len = Math.floor(random() * 6);
      for (let j = 0; j < len; j++) t += alphabet[Math.floor(random() * alphabet.length)];
      const docs = parseFastYaml(`v: ${t}\n`);
      if (docs === undefined) continue;
      const fast = ((docs[0].contents as YAMLMap).items[0].value as Scalar).value;
      const expected = (parse(`v: ${t}\n`) as { v: unknown }).v;
      assert.ok(Object.is(fast, expected), `${JSON.stringify(t)}: ${String(fast)} against ${String(expected)}`);
      compared++;
      if (typeof fast === 'string') strings++;
    }
    assert.ok(compared > 20_000 && strings > 10_000 && compared - strings > 1_000, `${compared}, ${strings} strings`);
  });
});
