/**
 * `apiVersion: v1, kind: List` is a kubectl convenience, not an API kind:
 * kubectl sends each item on its own. So do we: each item that is itself a
 * Kubernetes object becomes a manifest of its own, with its own root node, and
 * its errors' paths are relative to the item (as the API server reports them).
 */
import { isMap, isScalar, isSeq } from 'yaml';
import { isPlainObject } from '../../../sandbox/util/json';
import type { ManifestDocument } from './parseManifests';

/** True for a kubectl `List` document. */
export function isKubectlList(m: ManifestDocument): boolean {
  return m.apiVersion === 'v1' && m.kind === 'List';
}

/** The items of a kubectl `List` that are Kubernetes objects, in order. */
export function listItems(m: ManifestDocument): ManifestDocument[] {
  const seq = m.root.get('items', true);
  const values = m.object.items;
  if (!isSeq(seq) || !Array.isArray(values)) return [];
  const out: ManifestDocument[] = [];
  seq.items.forEach((node, i) => {
    const object: unknown = values[i];
    if (!isMap(node) || !isPlainObject(object)) return;
    const apiVersion = node.get('apiVersion', true);
    const kind = node.get('kind', true);
    if (
      !isScalar(apiVersion) ||
      typeof apiVersion.value !== 'string' ||
      !isScalar(kind) ||
      typeof kind.value !== 'string'
    )
      return;
    out.push({ index: m.index, root: node, apiVersion: apiVersion.value, kind: kind.value, object });
  });
  return out;
}
