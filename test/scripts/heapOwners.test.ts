/**
 * bench/heapOwners.mjs: the dominator tree of a V8 heap snapshot. A tiny hand-made snapshot: an object reached
 * through two members of the root is retained by the root (not by either member), a weak edge retains nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'bench', 'heapOwners.mjs');

function snapshot(): string {
  const strings = [
    '',
    '(root)',
    'Cluster',
    'Store',
    'Kubelet',
    'Shared',
    'Leaf',
    'Weakly',
    'cluster',
    'store',
    'kubelet',
    'x',
    'y',
    'z',
    'w',
  ];
  const s = (t: string) => strings.indexOf(t);
  // node: type, name, id, self_size, edge_count; edge: type, name, to_node (index into `nodes`).
  const list: [string, number, number][] = [
    ['(root)', 0, 1],
    ['Cluster', 10, 2],
    ['Store', 100, 1],
    ['Kubelet', 200, 1],
    ['Shared', 1000, 1],
    ['Leaf', 5000, 1],
    ['Weakly', 99_999, 0],
  ];
  const nodes = list.flatMap(([name, size, edges], i) => [3, s(name), i + 1, size, edges]);
  const at = (i: number) => i * 5;
  const edges = [
    [2, s('cluster'), at(1)],
    [2, s('store'), at(2)],
    [2, s('kubelet'), at(3)],
    [2, s('x'), at(4)],
    [2, s('y'), at(4)],
    [2, s('z'), at(5)],
    [6, s('w'), at(6)],
  ].flat();
  const meta = {
    node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
    node_types: [['hidden', 'array', 'string', 'object'], 'string', 'number', 'number', 'number'],
    edge_fields: ['type', 'name_or_index', 'to_node'],
    edge_types: [
      ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'],
      'string_or_number',
      'node',
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'heap-owners-'));
  const file = join(dir, 'tiny.heapsnapshot');
  writeFileSync(file, JSON.stringify({ snapshot: { meta }, nodes, edges, strings }));
  return file;
}

test('members are charged what only they keep; what two members reach is the root’s; weak edges keep nothing', () => {
  const out = execFileSync(process.execPath, [SCRIPT, snapshot(), '--min', '0', '--per', '1'], { encoding: 'utf8' });
  const kib = (bytes: number) => (bytes / 1024).toFixed(2);
  assert.match(out, new RegExp(`Cluster +${kib(10 + 100 + 200 + 1000 + 5000)}\\)`));
  assert.match(out, new RegExp(`^ +${kib(100)}  store: Store \\(object\\)$`, 'm'));
  assert.match(out, new RegExp(`^ +${kib(200)}  kubelet: Kubelet \\(object\\)$`, 'm'));
  assert.match(out, new RegExp(`^ +${kib(6000)}  \\(1 × object Shared, shared by its members\\)$`, 'm'));
  assert.doesNotMatch(out, /Weakly/);
});

test('--types sums self sizes under the root by constructor', () => {
  const out = execFileSync(process.execPath, [SCRIPT, snapshot(), '--types'], { encoding: 'utf8' });
  assert.match(out, /^ +4\.88 +1 × object Leaf$/m);
  assert.match(out, /^ +0\.01 +1 × object Cluster$/m);
  assert.doesNotMatch(out, /Weakly/);
});
