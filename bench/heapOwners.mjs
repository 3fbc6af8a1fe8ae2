/**
 * `node bench/heapOwners.mjs FILE.heapsnapshot [--root Cluster] [--depth 3] [--per N] [--min KiB]`: who keeps the
 * memory of a V8 heap snapshot (e.g. `bench/converge.ts --only shape --heap-snapshot FILE`). Computes the dominator
 * tree (Cooper, Harvey and Kennedy's iterative algorithm over the strong edges; weak edges retain nothing, as in
 * Chrome's DevTools), then prints, under the first object whose constructor is `--root`, each member's retained size
 * down to `--depth` levels, divided by `--per` (e.g. the pod count, to read KiB a pod). A member reached only through
 * objects outside the root's dominator subtree (shared with something else) is not counted under it. `--types`:
 * instead, the self sizes of everything the root dominates, by constructor (objects) or type (strings, arrays, code).
 * `--owners-of KIND` (e.g. `"hidden system / PropertyArray"`): what holds the objects of that kind, by holder type.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
if (!file) {
  console.error(
    'usage: node bench/heapOwners.mjs FILE.heapsnapshot [--root Cluster] [--depth 3] [--per N] [--min KiB]',
  );
  process.exit(2);
}
const rootName = opt('--root', 'Cluster');
const maxDepth = Number(opt('--depth', '3'));
const per = Number(opt('--per', '1'));
const minKiB = Number(opt('--min', '0.05'));

const snap = JSON.parse(readFileSync(file, 'utf8'));
const meta = snap.snapshot.meta;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const [N_TYPE, N_NAME, N_SELF, N_EDGES] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
  meta.node_fields.indexOf(f),
);
const [E_TYPE, E_NAME, E_TO] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
const nodes = snap.nodes;
const edges = snap.edges;
const strings = snap.strings;
const count = nodes.length / NF;
const firstEdge = new Uint32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += nodes[i * NF + N_EDGES] * EF;
  firstEdge[i + 1] = e;
}
const WEAK = edgeTypes.indexOf('weak');
const SHORTCUT = edgeTypes.indexOf('shortcut');
const strong = (e) => edges[e + E_TYPE] !== WEAK && edges[e + E_TYPE] !== SHORTCUT;
const target = (e) => edges[e + E_TO] / NF;

// Post-order from the root (node 0), iteratively.
const order = new Int32Array(count).fill(-1); // post-order number
const byOrder = new Uint32Array(count);
const visited = new Uint8Array(count);
const stack = [0];
const cursor = new Uint32Array(count);
visited[0] = 1;
cursor[0] = firstEdge[0];
let next = 0;
while (stack.length) {
  const n = stack[stack.length - 1];
  let pushed = false;
  while (cursor[n] < firstEdge[n + 1]) {
    const e = cursor[n];
    cursor[n] += EF;
    if (!strong(e)) continue;
    const t = target(e);
    if (visited[t]) continue;
    visited[t] = 1;
    cursor[t] = firstEdge[t];
    stack.push(t);
    pushed = true;
    break;
  }
  if (!pushed) {
    stack.pop();
    order[n] = next;
    byOrder[next++] = n;
  }
}
// Predecessors (strong edges between reachable nodes).
const predCount = new Uint32Array(count + 1);
for (let n = 0; n < count; n++)
  if (visited[n]) for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += EF) if (strong(e)) predCount[target(e) + 1]++;
for (let i = 0; i < count; i++) predCount[i + 1] += predCount[i];
const preds = new Uint32Array(predCount[count]);
const fill = predCount.slice(0, count);
for (let n = 0; n < count; n++)
  if (visited[n]) for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += EF) if (strong(e)) preds[fill[target(e)]++] = n;
// Dominators by post-order numbers.
const idom = new Int32Array(next).fill(-1);
const rootOrder = order[0];
idom[rootOrder] = rootOrder;
const intersect = (a, b) => {
  while (a !== b) {
    while (a < b) a = idom[a];
    while (b < a) b = idom[b];
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let o = next - 1; o >= 0; o--) {
    if (o === rootOrder) continue;
    const n = byOrder[o];
    let d = -1;
    for (let p = predCount[n]; p < predCount[n + 1]; p++) {
      const po = order[preds[p]];
      if (po < 0 || idom[po] < 0) continue;
      d = d < 0 ? po : intersect(po, d);
    }
    if (d !== idom[o]) {
      idom[o] = d;
      changed = true;
    }
  }
}
// Retained sizes: children before parents in post-order.
const retained = new Float64Array(next);
for (let o = 0; o < next; o++) retained[o] += nodes[byOrder[o] * NF + N_SELF];
for (let o = 0; o < next; o++) if (o !== rootOrder) retained[idom[o]] += retained[o];

const nameOf = (n) => strings[nodes[n * NF + N_NAME]];
const typeOf = (n) => nodeTypes[nodes[n * NF + N_TYPE]];
let root = -1;
for (let n = 0; n < count && root < 0; n++)
  if (typeOf(n) === 'object' && nameOf(n) === rootName && order[n] >= 0) root = n;
if (root < 0) {
  console.error(`no object named ${rootName} in ${file}`);
  process.exit(1);
}
const fmt = (bytes) => (bytes / 1024 / per).toFixed(2).padStart(9);
const unit = per === 1 ? 'KiB' : `KiB ÷ ${per}`;
console.log(`${unit}  (retained; heap total ${fmt(retained[rootOrder])}, ${rootName} ${fmt(retained[order[root]])})`);
// Dominator-tree children of each node, in post-order numbers.
const childCount = new Uint32Array(next + 1);
for (let o = 0; o < next; o++) if (o !== rootOrder && idom[o] >= 0) childCount[idom[o] + 1]++;
for (let o = 0; o < next; o++) childCount[o + 1] += childCount[o];
const kids = new Uint32Array(childCount[next]);
const at = childCount.slice(0, next);
for (let o = 0; o < next; o++) if (o !== rootOrder && idom[o] >= 0) kids[at[idom[o]]++] = o;
/** Children a node dominates: named by the member pointing at them when it points directly; the others (reached
 * through several of its members) grouped by constructor. */
const print = (n, label, depth) => {
  const direct = new Map();
  for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += EF) {
    if (!strong(e)) continue;
    const type = edgeTypes[edges[e + E_TYPE]];
    const name = type === 'element' || type === 'hidden' ? `[${edges[e + E_NAME]}]` : strings[edges[e + E_NAME]];
    if (!direct.has(target(e))) direct.set(target(e), name);
  }
  const rows = [];
  const grouped = new Map();
  for (let k = childCount[order[n]]; k < childCount[order[n] + 1]; k++) {
    const t = byOrder[kids[k]];
    const size = retained[kids[k]];
    const name = direct.get(t);
    if (name !== undefined) rows.push({ t, name, size });
    else {
      const key = `${typeOf(t)} ${nameOf(t).slice(0, 40)}`;
      const g = grouped.get(key) ?? { size: 0, count: 0, t };
      g.size += size;
      g.count++;
      grouped.set(key, g);
    }
  }
  for (const [key, g] of grouped)
    rows.push({ t: g.count === 1 ? g.t : -1, name: `(${g.count} × ${key}, shared by its members)`, size: g.size });
  rows.sort((a, b) => b.size - a.size);
  let shown = 0;
  let rest = 0;
  for (const r of rows) {
    if (r.size / 1024 / per < minKiB || shown >= 14) {
      rest += r.size;
      continue;
    }
    shown++;
    const what = r.t < 0 || r.name.startsWith('(') ? '' : `: ${nameOf(r.t).slice(0, 40)} (${typeOf(r.t)})`;
    console.log(`${fmt(r.size)}  ${'  '.repeat(depth)}${r.name}${what}`);
    if (r.t >= 0 && depth + 1 < maxDepth) print(r.t, r.name, depth + 1);
  }
  if (rest > 0) console.log(`${fmt(rest)}  ${'  '.repeat(depth)}(the rest under ${label})`);
};
if (args.includes('--types')) {
  // Self sizes by constructor over the root's whole dominator subtree.
  const byType = new Map();
  const todo = [order[root]];
  while (todo.length) {
    const o = todo.pop();
    const n = byOrder[o];
    const key = `${typeOf(n)} ${nameOf(n).slice(0, 50)}`;
    const g = byType.get(key) ?? { size: 0, count: 0 };
    g.size += nodes[n * NF + N_SELF];
    g.count++;
    byType.set(key, g);
    for (let k = childCount[o]; k < childCount[o + 1]; k++) todo.push(kids[k]);
  }
  const rows = [...byType].sort((a, b) => b[1].size - a[1].size).slice(0, 30);
  for (const [key, g] of rows) console.log(`${fmt(g.size)}  ${String(g.count).padStart(8)} × ${key}`);
} else if (args.includes('--owners-of')) {
  // Who holds the objects of one kind (e.g. "hidden system / PropertyArray"): their retained sizes by the type of
  // the object holding them by a strong edge (the first such holder), over the root's dominator subtree.
  const wanted = opt('--owners-of');
  const holder = new Int32Array(count).fill(-1);
  for (let n = 0; n < count; n++)
    if (order[n] >= 0)
      for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += EF)
        if (strong(e) && holder[target(e)] < 0) holder[target(e)] = n;
  const byHolder = new Map();
  const todo = [order[root]];
  while (todo.length) {
    const o = todo.pop();
    const n = byOrder[o];
    if (`${typeOf(n)} ${nameOf(n)}`.startsWith(wanted) && holder[n] >= 0) {
      const h = holder[n];
      const props = [];
      for (let e = firstEdge[h]; e < firstEdge[h + 1] && props.length < 6; e += EF)
        if (edgeTypes[edges[e + E_TYPE]] === 'property') props.push(strings[edges[e + E_NAME]]);
      const key = `${typeOf(h)} ${nameOf(h).slice(0, 50)} {${props.join(', ')}}`;
      const g = byHolder.get(key) ?? { size: 0, count: 0 };
      g.size += retained[o];
      g.count++;
      byHolder.set(key, g);
    }
    for (let k = childCount[o]; k < childCount[o + 1]; k++) todo.push(kids[k]);
  }
  const rows = [...byHolder].sort((a, b) => b[1].size - a[1].size).slice(0, 30);
  for (const [key, g] of rows) console.log(`${fmt(g.size)}  ${String(g.count).padStart(8)} held by ${key}`);
} else print(root, rootName, 0);
