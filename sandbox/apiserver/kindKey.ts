import type { ResourceType } from '../api/resources';

/** Each resource's key, built once (resources are immutable): every write asks for it several times. */
const keys = new WeakMap<ResourceType, string>();

/** The store's key for a kind: `apps/Deployment`, `/Pod` (version-independent). */
export function kindKey(r: ResourceType): string {
  let key = keys.get(r);
  if (key === undefined) {
    key = `${r.group}/${r.kind}`;
    keys.set(r, key);
  }
  return key;
}
