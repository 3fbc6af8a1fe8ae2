import type { ResourceType } from '../api/resources';

/** The store's key for a kind: `apps/Deployment`, `/Pod` (version-independent). */
export function kindKey(r: ResourceType): string {
  return `${r.group}/${r.kind}`;
}
