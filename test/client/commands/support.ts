/** Small helpers for the command tests. */
import type { MirrorCache } from '../../../client/src/sandbox/mirror';
import { cacheOf, deployment } from '../model/fixtures';

/** A tree node for a pod in `default`, as a context menu passes it. */
export function podNode(name: string): { id: string; ref: { resource: string; namespace: string; name: string } } {
  return { id: `pods/uid-${name}`, ref: { resource: 'pods', namespace: 'default', name } };
}

/** An error shaped like the host's SandboxRequestError: the API server's message. */
export class SandboxRequestErrorLike extends Error {}

/** A cache holding the `web` Deployment with 3 replicas. */
export function webCache(): MirrorCache {
  return cacheOf([{ resource: 'deployments', object: deployment('web', 3, 3) }]);
}
