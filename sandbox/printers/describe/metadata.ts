/**
 * The multi-line sections of metadata and scheduling: labels, annotations, tolerations and taints, one entry a line
 * under a title (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — printLabelsMultilineWithIndent,
 * printAnnotationsMultiline, printPodTolerationsMultiline, printNodeTaintsMultiline).
 */
import type { Node, Toleration } from 'kubernetes-types/core/v1';
import { sortedKeys } from './format';
import { L0 } from './writer';
import type { PrefixWriter } from './writer';

/** printLabelsMultilineWithIndent. */
export function labelsMultiline(
  w: PrefixWriter,
  title: string,
  labels: Readonly<Record<string, string>> | undefined,
): void {
  w.write(L0, `${title}:\t`);
  const keys = sortedKeys(labels);
  if (keys.length === 0) return w.write(L0, '<none>\n');
  keys.forEach((k, i) => {
    if (i > 0) w.write(L0, '\t');
    w.write(L0, `${k}=${labels![k]}\n`);
  });
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
  w.write(L0, `${title}:\t`);
  const list = tolerations ?? [];
  if (list.length === 0) return w.write(L0, '<none>\n');
  list.forEach((t, i) => {
    if (i > 0) w.write(L0, '\t');
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    w.write(L0, `${s}\n`);
  });
}

export function taintsMultiline(w: PrefixWriter, title: string, node: Node): void {
  w.write(L0, `${title}:\t`);
  const taints = [...(node.spec?.taints ?? [])].sort((a, b) =>
    `${a.effect},${a.key}` < `${b.effect},${b.key}` ? -1 : 1,
  );
  if (taints.length === 0) return w.write(L0, '<none>\n');
  taints.forEach((t, i) => {
    if (i > 0) w.write(L0, '\t');
    w.write(L0, `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`);
  });
}

/** printLabelsMultilineWithIndent(w, "  ", title, "\t", …) of a claim template. */
export function indentedLabels(
  w: PrefixWriter,
  title: string,
  labels: Readonly<Record<string, string>> | undefined,
): void {
  w.write(L0, `  ${title}:\t`);
  const keys = sortedKeys(labels);
  if (keys.length === 0) return w.write(L0, '<none>\n');
  keys.forEach((k, i) => {
    if (i > 0) w.write(L0, '  \t');
    w.write(L0, `${k}=${labels![k]}\n`);
  });
}
