/** The pods-by-node index both node controllers read (upstream's `spec.nodeName` indexer). */
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { ObjectCache } from '../../client/cache';

export const POD_NODE_INDEX = 'spec.nodeName';

type CachedPod = ObjectsByResource['pods'];

function nodeNameOf(pod: CachedPod): readonly string[] {
  const name = pod.spec?.nodeName;
  return typeof name === 'string' && name !== '' ? [name] : [];
}

/** Adds the index to the shared pod cache unless it is already there. */
export function ensurePodNodeIndex(cache: ObjectCache<CachedPod>): void {
  if (!cache.hasIndex(POD_NODE_INDEX)) cache.addIndex(POD_NODE_INDEX, nodeNameOf);
}

/** Pods bound to `node`, sorted by namespace/name so that work on them happens in a stable order. */
export function podsOnNode(cache: ObjectCache<CachedPod>, node: string): CachedPod[] {
  return cache.byIndex(POD_NODE_INDEX, node).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
}

function keyOf(o: CachedPod): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}
