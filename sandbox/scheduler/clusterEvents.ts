/**
 * Which cluster events may make a waiting pod schedulable (the plugins'
 * `EventsToRegister`): a waiting pod is retried only when an event concerns
 * a plugin that rejected it. Masks are bits `1 << plugin id`.
 */
import type { Node } from 'kubernetes-types/core/v1';
import { jsonEqual } from '../util/json';
import {
  NODE_AFFINITY,
  NODE_NAME,
  NODE_PORTS,
  NODE_RESOURCES_FIT,
  NODE_UNSCHEDULABLE,
  TAINT_TOLERATION,
  INTER_POD_AFFINITY,
  POD_TOPOLOGY_SPREAD,
  VOLUME_BINDING,
} from './filters';

export function pluginBit(plugin: number): number {
  return 1 << plugin;
}

/** A node was added: any rejection may now be lifted. */
export const NODE_ADDED =
  pluginBit(NODE_UNSCHEDULABLE) |
  pluginBit(NODE_NAME) |
  pluginBit(TAINT_TOLERATION) |
  pluginBit(NODE_AFFINITY) |
  pluginBit(NODE_PORTS) |
  pluginBit(NODE_RESOURCES_FIT) |
  pluginBit(POD_TOPOLOGY_SPREAD) |
  pluginBit(INTER_POD_AFFINITY) |
  pluginBit(VOLUME_BINDING);

/** A PersistentVolumeClaim, PersistentVolume or StorageClass was added or changed (VolumeBinding's events). */
export const VOLUME_CHANGED = pluginBit(VOLUME_BINDING);

/** A pod's placement changed: what InterPodAffinity and PodTopologySpread count. */
export const ASSIGNED_POD_ADDED = pluginBit(POD_TOPOLOGY_SPREAD) | pluginBit(INTER_POD_AFFINITY);

/** A bound pod was deleted or finished: its node has room and ports again, and the counts change. */
export const ASSIGNED_POD_GONE = pluginBit(NODE_RESOURCES_FIT) | pluginBit(NODE_PORTS) | ASSIGNED_POD_ADDED;

/** The plugins a node update concerns: allocatable, labels, taints, cordon. 0 for a heartbeat. */
export function nodeUpdateMask(old: Node, node: Node): number {
  let mask = 0;
  if (!jsonEqual(old.status?.allocatable ?? {}, node.status?.allocatable ?? {})) mask |= pluginBit(NODE_RESOURCES_FIT);
  if (!jsonEqual(old.metadata?.labels ?? {}, node.metadata?.labels ?? {}))
    mask |= pluginBit(NODE_AFFINITY) | ASSIGNED_POD_ADDED;
  if (!jsonEqual(old.spec?.taints ?? [], node.spec?.taints ?? []))
    mask |= pluginBit(TAINT_TOLERATION) | pluginBit(NODE_UNSCHEDULABLE);
  if ((old.spec?.unschedulable ?? false) !== (node.spec?.unschedulable ?? false)) mask |= pluginBit(NODE_UNSCHEDULABLE);
  return mask;
}
