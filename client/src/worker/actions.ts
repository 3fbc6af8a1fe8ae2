/**
 * The fault actions of the tree's context menus, run against the cluster.
 * What kubectl does — scale, rollout restart and undo, cordon, uncordon,
 * drain — goes through sandbox/operations, on the API verbs, as kubectl would.
 * Each returns kubectl's wording of what it did; failures throw (the API
 * server's ApiError, or an Error with a message for the user). A drain goes on
 * after the answer: its id comes back with it.
 */
import type { Cluster } from '../../../sandbox/cluster/cluster';
import { qualifiedResource } from '../../../sandbox/api/resources';
import { objectRef } from '../../../sandbox/operations/apply/apply';
import { cordon, uncordon } from '../../../sandbox/operations/cordon';
import { rolloutRestart, rolloutUndo } from '../../../sandbox/operations/rollout';
import { formatLabelSelector } from '../../../sandbox/api/selectors/labelSelector';
import type { KubeObject } from '../../../sandbox/api/types';
import { parseUsage } from '../../../sandbox/client/metrics/usage';
import type { FaultAction } from '../sandbox/protocol';
import type { Operations, Started } from './operations';

function nodeAction(
  cluster: Cluster,
  operations: Operations,
  type: 'failNode' | 'recoverNode' | 'cordon' | 'uncordon' | 'drain',
  name: string,
): Started {
  switch (type) {
    case 'failNode':
      cluster.failNode(name);
      return { message: `node/${name} failed: its kubelet stopped` };
    case 'recoverNode':
      cluster.recoverNode(name);
      return { message: `node/${name} recovered: its kubelet started` };
    case 'cordon':
      return { message: cordon(cluster.api, name).message };
    case 'uncordon':
      return { message: uncordon(cluster.api, name).message };
    case 'drain':
      return operations.drain(cluster.api, cluster.clock, name);
  }
}

/**
 * Set Load…: the total CPU the workload's pods share, as `simulate --at load=SELECTOR:cpu=…` sets it
 * (sandbox/cluster/actions.ts), on the workload's own pod selector; the HPA's metrics read it.
 */
function setLoad(cluster: Cluster, action: Extract<FaultAction, { type: 'setLoad' }>): Started {
  const o = cluster.api.get(cluster.api.resolve(action.resource), action.namespace, action.name) as KubeObject & {
    spec?: { selector?: unknown };
  };
  const raw = o.spec?.selector;
  // A ReplicationController's selector is a plain map; the apps kinds' a LabelSelector.
  const selector =
    raw && typeof raw === 'object' && !('matchLabels' in raw) && !('matchExpressions' in raw)
      ? formatLabelSelector({ matchLabels: raw as Record<string, string> })
      : formatLabelSelector(raw as Parameters<typeof formatLabelSelector>[0]);
  if (selector === '<none>' || selector === '<error>')
    throw new Error(`${o.kind.toLowerCase()}/${action.name} has no pod selector to put load on`);
  let cpuMilli: number | undefined;
  try {
    cpuMilli = parseUsage(`cpu=${action.cpu.trim()}`).cpuMilli;
  } catch (e) {
    throw new Error(`Set Load: ${(e as Error).message}`);
  }
  cluster.setLoad(action.namespace, selector, { cpuMilli });
  return { message: `load on pods ${action.namespace}/${selector} set to cpu=${cpuMilli}m` };
}

/** Runs one fault action; returns the message to show (and the id of a drain that goes on). */
export function runAction(cluster: Cluster, action: FaultAction, operations: Operations): Started {
  const api = cluster.api;
  switch (action.type) {
    case 'killPod':
      cluster.killPod(action.namespace, action.name);
      return { message: `pod "${action.name}" deleted` };
    case 'crashContainer':
      cluster.crashContainer(action.namespace, action.name, action.container);
      return { message: `pod/${action.name}: container ${action.container ? `"${action.container}" ` : ''}crashed` };
    case 'scale':
      return { message: cluster.scale(action.resource, action.namespace, action.name, action.replicas).message };
    case 'restartRollout':
      return { message: rolloutRestart(api, action.resource, action.namespace, action.name).message };
    case 'rollBack':
      return { message: rolloutUndo(api, action.resource, action.namespace, action.name).message };
    case 'setLoad':
      return setLoad(cluster, action);
    case 'delete': {
      const r = api.resolve(action.resource);
      api.delete(r, action.namespace, action.name, { propagationPolicy: 'Background' });
      return { message: `${qualifiedResource(r)} "${action.name}" deleted` };
    }
    case 'replaceLive':
      return { message: `${objectRef(api.update(action.object), api)} replaced` };
    case 'failNode':
    case 'recoverNode':
    case 'cordon':
    case 'uncordon':
    case 'drain':
      return nodeAction(cluster, operations, action.type, action.name);
    default:
      throw new Error(`unknown action ${JSON.stringify((action as { type?: unknown }).type)}`);
  }
}
