/**
 * `kubectl cordon` and `kubectl uncordon` (kubectl pkg/drain/cordon.go,
 * `CordonHelper.UpdateIfRequired` and `PatchOrReplace`; pkg/cmd/drain
 * `RunCordonOrUncordon`): a strategic merge patch of `spec.unschedulable`,
 * skipped when the node already is as asked. The node lifecycle controller
 * then adds or removes the `node.kubernetes.io/unschedulable` taint.
 */
import type { ApiServer } from '../apiserver/apiServer';
import type { KubeObject } from '../api/types';

export interface CordonResult {
  node: KubeObject;
  /** False when the node already was (un)schedulable as asked: nothing was written. */
  changed: boolean;
  /** kubectl's line: `node/node-1 cordoned`, `node/node-1 already uncordoned`. */
  message: string;
}

function setUnschedulable(api: ApiServer, name: string, desired: boolean): CordonResult {
  const node = api.get('nodes', undefined, name);
  const verb = desired ? 'cordoned' : 'uncordoned';
  const current = (node.spec as { unschedulable?: boolean } | undefined)?.unschedulable === true;
  if (current === desired) return { node, changed: false, message: `node/${name} already ${verb}` };
  // The patch kubectl computes from the node before and after: `false` is Go's zero value, omitted, so null.
  const patched = api.patch('nodes', undefined, name, 'strategic', { spec: { unschedulable: desired ? true : null } });
  return { node: patched, changed: true, message: `node/${name} ${verb}` };
}

/** `kubectl cordon NODE`: marks the node unschedulable. 404 for an unknown node. */
export function cordon(api: ApiServer, name: string): CordonResult {
  return setUnschedulable(api, name, true);
}

/** `kubectl uncordon NODE`: makes the node schedulable again. */
export function uncordon(api: ApiServer, name: string): CordonResult {
  return setUnschedulable(api, name, false);
}
