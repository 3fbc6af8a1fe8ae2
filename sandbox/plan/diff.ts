/**
 * What `kubectl diff` shows for one object: the live object and the object as the apply leaves it, each as YAML
 * (sigs.k8s.io/yaml: keys sorted, list items not indented), compared by `diff -u -N` with three lines of context.
 * upstream: staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go — `Object.Merged` is a server-side dry run, so status
 * and resourceVersion keep their live values; `--show-managed-fields` is false by default, so managedFields are
 * omitted from both sides.
 */
import type { KubeObject } from '../api/types';
import { cloneJson } from '../util/json';
import { yamlText } from '../util/yamlText';

/** The file name kubectl diff gives an object: `apps.v1.Deployment.default.web` (group.version.kind.namespace.name). */
export function diffName(obj: KubeObject): string {
  const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
  const gvk = group ? `${group}.${version}.${obj.kind}` : `${version}.${obj.kind}`;
  return obj.metadata.namespace
    ? `${gvk}.${obj.metadata.namespace}.${obj.metadata.name}`
    : `${gvk}.${obj.metadata.name}`;
}

function asYaml(obj: KubeObject): string[] {
  const text = yamlText(obj, { sortMapEntries: true, indentSeq: false, lineWidth: 0 });
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/** The merged side as a dry run answers it: the applied spec with the live status and resourceVersion. */
function comparable(live: KubeObject, merged: KubeObject): [KubeObject, KubeObject] {
  const before = cloneJson(live);
  const after = cloneJson(merged);
  delete before.metadata.managedFields;
  delete after.metadata.managedFields;
  after.metadata.resourceVersion = live.metadata.resourceVersion;
  if (live.status === undefined) delete after.status;
  else after.status = cloneJson(live.status);
  return [before, after];
}

type Op = { kind: ' ' | '-' | '+'; text: string };

/** A shortest edit script by longest common subsequence (objects are a few hundred lines at most). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo] === b[lo]) lo++;
  let hiA = a.length;
  let hiB = b.length;
  while (hiA > lo && hiB > lo && a[hiA - 1] === b[hiB - 1]) {
    hiA--;
    hiB--;
  }
  const n = hiA - lo;
  const m = hiB - lo;
  // lcs[i][j]: LCS length of a[lo+i..hiA) and b[lo+j..hiB)
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[lo + i] === b[lo + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = a.slice(0, lo).map((text) => ({ kind: ' ', text }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[lo + i] === b[lo + j]) {
      ops.push({ kind: ' ', text: a[lo + i] });
      i++;
      j++;
    } else if (j === m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push({ kind: '-', text: a[lo + i++] }); // deletions first, as diff prints a change
    } else {
      ops.push({ kind: '+', text: b[lo + j++] });
    }
  }
  for (const text of a.slice(hiA)) ops.push({ kind: ' ', text });
  return ops;
}

const CONTEXT = 3;

function range(start: number, count: number): string {
  // diff -u: a hunk with no lines on one side names the line before it
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/** Unified diff of two line lists (`diff -u` hunks), empty when equal. */
export function unifiedDiff(a: readonly string[], b: readonly string[], from: string, to: string): string {
  const ops = editScript(a, b);
  const changed = ops.map((o, k) => (o.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  const out = [`--- ${from}`, `+++ ${to}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - CONTEXT);
    let end = Math.min(ops.length, changed[k] + CONTEXT + 1);
    while (k + 1 < changed.length && changed[k + 1] - CONTEXT <= end)
      end = Math.min(ops.length, changed[++k] + CONTEXT + 1);
    k++;
    let lineA = 1;
    let lineB = 1;
    for (let x = 0; x < start; x++) {
      if (ops[x].kind !== '+') lineA++;
      if (ops[x].kind !== '-') lineB++;
    }
    const hunk = ops.slice(start, end);
    const countA = hunk.filter((o) => o.kind !== '+').length;
    const countB = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${range(lineA, countA)} +${range(lineB, countB)} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.text}`);
  }
  return `${out.join('\n')}\n`;
}

/** `kubectl diff`'s output for one object (LIVE before, MERGED after the apply); empty when nothing changes. */
export function objectDiff(live: KubeObject, merged: KubeObject): string {
  const [before, after] = comparable(live, merged);
  const name = diffName(live);
  return unifiedDiff(asYaml(before), asYaml(after), `LIVE/${name}`, `MERGED/${name}`);
}
