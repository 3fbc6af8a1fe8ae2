/** The pods-by-node index both node controllers read (upstream's `spec.nodeName` indexer). */
import type { ObjectCache } from '../../client/cache';
import type { KubeObject } from '../../api/types';

export const POD_NODE_INDEX = 'spec.nodeName';

function nodeNameOf(pod: KubeObject): readonly string[] {
  const name = (pod.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof name === 'string' && name !== '' ? [name] : [];
}

/**
 * Adds the index to the shared pod cache unless it is already there
 * (ObjectCache has no `hasIndex`; `byIndex` throws for an unknown index).
 */
export function ensurePodNodeIndex(cache: ObjectCache): void {
  try {
    cache.byIndex(POD_NODE_INDEX, '');
  } catch {
    cache.addIndex(POD_NODE_INDEX, nodeNameOf);
  }
}

/** Pods bound to `node`, sorted by namespace/name so that work on them happens in a stable order. */
export function podsOnNode(cache: ObjectCache, node: string): KubeObject[] {
  return cache.byIndex(POD_NODE_INDEX, node).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
}

function keyOf(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}
