/**
 * Node health as the node lifecycle controller judges it (upstream
 * `tryUpdateNodeHealth`): when a node was last heard from, and the
 * conditions it gets once it has been silent longer than the grace period.
 */
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Node, NodeCondition } from 'kubernetes-types/core/v1';
import { formatTimestamp, parseTimestamp } from '../../clock/clock';
import { nodeCondition } from './taints';

/** The conditions the controller turns Unknown; NetworkUnavailable belongs to the network provider. */
export const MONITORED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

export const REASON_UNKNOWN = 'NodeStatusUnknown';
export const MESSAGE_UNKNOWN = 'Kubelet stopped posting node status.';
export const REASON_NEVER_UPDATED = 'NodeStatusNeverUpdated';
export const MESSAGE_NEVER_UPDATED = 'Kubelet never posted node status.';

function time(text: string | null | undefined): number {
  if (!text) return Number.NEGATIVE_INFINITY;
  const t = parseTimestamp(text);
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

/**
 * When the node was last heard from (epoch ms): the later of its Lease's
 * `renewTime` and its Ready condition's `lastHeartbeatTime`; a node that
 * never posted a Ready condition counts from its creation. `-Infinity` when
 * none of these is known.
 */
export function lastHeartbeat(node: Node, lease: Lease | undefined): number {
  const ready = nodeCondition(node, 'Ready');
  const posted = ready ? time(ready.lastHeartbeatTime) : time(node.metadata?.creationTimestamp);
  return Math.max(posted, time(lease?.spec?.renewTime));
}

/**
 * The node's conditions after the controller gives up on it: each monitored
 * condition not already Unknown becomes Unknown (`NodeStatusUnknown`, "Kubelet
 * stopped posting node status.", lastTransitionTime now); a monitored
 * condition never posted is added as `NodeStatusNeverUpdated`. Undefined when
 * nothing changes.
 */
export function conditionsWhenSilent(node: Node, now: number): NodeCondition[] | undefined {
  const stamp = formatTimestamp(now);
  const conditions = (node.status?.conditions ?? []).map((c) => ({ ...c }));
  let changed = false;
  for (const type of MONITORED_CONDITIONS) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      const heartbeat = node.metadata?.creationTimestamp ?? stamp;
      conditions.push({
        type,
        status: 'Unknown',
        reason: REASON_NEVER_UPDATED,
        message: MESSAGE_NEVER_UPDATED,
        lastHeartbeatTime: heartbeat,
        lastTransitionTime: stamp,
      });
      changed = true;
    } else if (c.status !== 'Unknown') {
      Object.assign(c, {
        status: 'Unknown',
        reason: REASON_UNKNOWN,
        message: MESSAGE_UNKNOWN,
        lastTransitionTime: stamp,
      });
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
