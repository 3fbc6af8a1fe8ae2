/**
 * The fault actions of the tree's context menus, run against the cluster.
 * Each returns kubectl's wording of what it did; failures throw (the API
 * server's ApiError, or an Error with a message for the user).
 */
import type { Cluster } from '../../../sandbox/cluster/cluster';
import { formatTimestamp } from '../../../sandbox/clock/clock';
import { qualifiedResource } from '../../../sandbox/api/resources';
import { objectRef } from '../../../sandbox/operations/apply/apply';
import type { FaultAction } from '../sandbox/protocol';
import { rollBack } from './rollBack';

export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

function drain(cluster: Cluster, name: string): string {
  const result = cluster.drain(name, { ignoreDaemonSets: true, deleteEmptyDirData: true });
  const evicted = result.evicted.map((p) => `evicting pod ${p}`);
  return [...result.warnings, ...evicted, `node/${name} drained`].join('\n');
}

function nodeAction(
  cluster: Cluster,
  type: 'failNode' | 'recoverNode' | 'cordon' | 'uncordon' | 'drain',
  name: string,
): string {
  switch (type) {
    case 'failNode':
      cluster.failNode(name);
      return `node/${name} failed: its kubelet stopped`;
    case 'recoverNode':
      cluster.recoverNode(name);
      return `node/${name} recovered: its kubelet started`;
    case 'cordon':
      cluster.cordon(name);
      return `node/${name} cordoned`;
    case 'uncordon':
      cluster.uncordon(name);
      return `node/${name} uncordoned`;
    case 'drain':
      return drain(cluster, name);
  }
}

/** Runs one fault action; returns the message to show. */
export function runAction(cluster: Cluster, action: FaultAction): string {
  const api = cluster.api;
  switch (action.type) {
    case 'killPod':
      cluster.killPod(action.namespace, action.name);
      return `pod "${action.name}" deleted`;
    case 'crashContainer':
      cluster.crashContainer(action.namespace, action.name, action.container);
      return `pod/${action.name}: container ${action.container ? `"${action.container}" ` : ''}crashed`;
    case 'scale':
      return `${objectRef(cluster.scale(action.resource, action.namespace, action.name, action.replicas), api)} scaled`;
    case 'restartRollout': {
      const patch = {
        spec: { template: { metadata: { annotations: { [RESTARTED_AT]: formatTimestamp(api.clock.now()) } } } },
      };
      return `${objectRef(api.patch(action.resource, action.namespace, action.name, 'merge', patch), api)} restarted`;
    }
    case 'rollBack':
      return rollBack(api, action.namespace, action.name);
    case 'delete': {
      const r = api.resolve(action.resource);
      api.delete(r, action.namespace, action.name, { propagationPolicy: 'Background' });
      return `${qualifiedResource(r)} "${action.name}" deleted`;
    }
    case 'replaceLive':
      return `${objectRef(api.update(action.object), api)} replaced`;
    case 'failNode':
    case 'recoverNode':
    case 'cordon':
    case 'uncordon':
    case 'drain':
      return nodeAction(cluster, action.type, action.name);
    default:
      throw new Error(`unknown action ${JSON.stringify((action as { type?: unknown }).type)}`);
  }
}
