/**
 * The multi-line sections of metadata and scheduling: labels, annotations, tolerations and taints, one entry a line
 * under a title (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — printLabelsMultilineWithIndent,
 * printAnnotationsMultiline, printPodTolerationsMultiline, printNodeTaintsMultiline).
 */
import type { Node, Toleration } from 'kubernetes-types/core/v1';
import { sortedKeys } from './format';
import { L0 } from './writer';
import type { PrefixWriter } from './writer';

/**
 * The shape the multi-line sections share: `<indent>title:\t` then the first entry, each further entry after
 * `<indent>\t`, or `<none>` when there is none.
 */
function multiline(w: PrefixWriter, title: string, entries: readonly string[], indent = ''): void {
  w.write(L0, `${indent}${title}:\t`);
  if (entries.length === 0) return w.write(L0, '<none>\n');
  entries.forEach((e, i) => {
    if (i > 0) w.write(L0, `${indent}\t`);
    w.write(L0, `${e}\n`);
  });
}

/** printLabelsMultilineWithIndent. */
export function labelsMultiline(
  w: PrefixWriter,
  title: string,
  labels: Readonly<Record<string, string>> | undefined,
): void {
  multiline(
    w,
    title,
    sortedKeys(labels).map((k) => `${k}=${labels![k]}`),
  );
}

/** Annotations kubectl leaves out (skipAnnotations). */
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);
const MAX_ANNOTATION_LEN = 140;

/** printAnnotationsMultiline. */
export function annotationsMultiline(
  w: PrefixWriter,
  title: string,
  annotations: Readonly<Record<string, string>> | undefined,
): void {
  w.write(L0, `${title}:\t`);
  const keys = sortedKeys(annotations).filter((k) => !SKIP_ANNOTATIONS.has(k));
  if (keys.length === 0) return w.write(L0, '<none>\n');
  keys.forEach((k, i) => {
    if (i > 0) w.write(L0, '\t');
    const value = annotations![k].replace(/\n$/, '');
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(L0, `${k}:\n`);
      for (const s of value.split('\n'))
        w.write(L0, `\t  ${s.length > MAX_ANNOTATION_LEN - 2 ? `${s.slice(0, MAX_ANNOTATION_LEN - 2)}...` : s}\n`);
    } else w.write(L0, `${k}: ${value}\n`);
  });
}

/** printPodTolerationsMultiline. */
export function tolerationsMultiline(
  w: PrefixWriter,
  title: string,
  tolerations: readonly Toleration[] | undefined,
): void {
  const entries = (tolerations ?? []).map((t) => {
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    return s;
  });
  multiline(w, title, entries);
}

export function taintsMultiline(w: PrefixWriter, title: string, node: Node): void {
  const taints = [...(node.spec?.taints ?? [])].sort((a, b) =>
    `${a.effect},${a.key}` < `${b.effect},${b.key}` ? -1 : 1,
  );
  multiline(
    w,
    title,
    taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
  );
}

/** printLabelsMultilineWithIndent(w, "  ", title, "\t", …) of a claim template. */
export function indentedLabels(
  w: PrefixWriter,
  title: string,
  labels: Readonly<Record<string, string>> | undefined,
): void {
  multiline(
    w,
    title,
    sortedKeys(labels).map((k) => `${k}=${labels![k]}`),
    '  ',
  );
}
