/**
 * `ownString`: the parsed objects' strings and a manifest's `apiVersion` and `kind` are copies, not views into the
 * text (V8 makes a `slice` of 13 or more characters a view that keeps the whole text alive). Same characters; and
 * what a parse keeps must not hold the text: measured in a child process with `--expose-gc` (heap after a full
 * collection, not time).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ownString, parseManifestText } from '../../../sandbox/manifests/parseManifests';

const ROOT = join(__dirname, '..', '..', '..');

describe('ownString', () => {
  test('gives the same characters at every length around the cut-over, one-byte and two-byte', () => {
    const text = 'x'.repeat(5) + 'apiextensions.k8s.io/v1 — ünïcødé 🚀 and more characters to cut' + 'y'.repeat(5);
    for (let start = 0; start < 10; start++)
      for (let end = start; end <= text.length; end++) {
        const cut = text.slice(start, end);
        assert.equal(ownString(cut), cut);
      }
    assert.equal(ownString(''), '');
  });

  test('the objects a parse keeps do not keep the text alive', () => {
    // 200 files of ~100 KB each, one long value and a long apiVersion apiece: kept as views, the texts would be
    // ~20 MB; as copies, a few KB.
    const script = `
      require('tsx/cjs');
      const { parseManifestText } = require(${JSON.stringify(join(ROOT, 'sandbox/manifests/parseManifests.ts'))});
      const kept = [];
      globalThis.gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 200; i++) {
        const filler = '#' + 'c'.repeat(99) + '\\n';
        const text = 'apiVersion: example.k8s.io/v1beta' + i + '\\nkind: SomethingLongEnough\\nmetadata:\\n  name: a-name-of-some-length-' + i +
          '\\ndata:\\n  key: a value long enough to be a view ' + i + '\\n' + filler.repeat(1000);
        const m = parseManifestText(text).manifests[0];
        kept.push({ apiVersion: m.apiVersion, kind: m.kind, object: m.object });
      }
      globalThis.gc();
      const grown = process.memoryUsage().heapUsed - before;
      process.stdout.write(JSON.stringify({ grown, count: kept.length, sample: kept[7] }));
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', '-e', script], { cwd: ROOT, encoding: 'utf8' }),
    ) as { grown: number; count: number; sample: { apiVersion: string; kind: string; object: unknown } };
    assert.equal(out.count, 200);
    assert.deepEqual(out.sample, {
      apiVersion: 'example.k8s.io/v1beta7',
      kind: 'SomethingLongEnough',
      object: {
        apiVersion: 'example.k8s.io/v1beta7',
        kind: 'SomethingLongEnough',
        metadata: { name: 'a-name-of-some-length-7' },
        data: { key: 'a value long enough to be a view 7' },
      },
    });
    assert.ok(out.grown < 5_000_000, `the kept objects hold ${out.grown} bytes: the texts (~20 MB) are kept`);
  });

  test('a parse answers as before', () => {
    const text = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\n';
    const m = parseManifestText(text).manifests[0];
    assert.equal(m.apiVersion, 'apiextensions.k8s.io/v1');
    assert.equal(m.kind, 'CustomResourceDefinition');
  });
});
