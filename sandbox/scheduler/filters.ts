/**
 * The default filter plugins, in upstream order, stopping at the first one
 * that rejects the node. The verdict is one integer so the hot loop
 * allocates nothing: `plugin | fitReasons << 3 | taintIndex << 8`, 0 when
 * the node fits.
 */
import type { NodeState } from './nodeState';
import type { PodInfo } from './podInfo';
import { TAINT_NODE_UNSCHEDULABLE, firstUntoleratedTaint, tolerationsTolerate } from './taints';

export const FILTER_PLUGINS = [
  '',
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'VolumeBinding',
] as const;
export type FilterPluginName = Exclude<(typeof FILTER_PLUGINS)[number], ''>;

export const NODE_UNSCHEDULABLE = 1;
export const NODE_NAME = 2;
export const TAINT_TOLERATION = 3;
export const NODE_AFFINITY = 4;
export const NODE_PORTS = 5;
export const NODE_RESOURCES_FIT = 6;
export const VOLUME_BINDING = 7;

/** NodeResourcesFit reasons, as bits of `verdict >> 3`. */
export const FIT_PODS = 1;
export const FIT_CPU = 2;
export const FIT_MEMORY = 4;
export const FIT_EPHEMERAL = 8;
/**
 * The request exceeds the node's whole allocatable: removing pods would not help (UnschedulableAndUnresolvable since
 * 1.34).
 */
export const FIT_UNRESOLVABLE = 16;

const UNSCHEDULABLE_TAINT = { key: TAINT_NODE_UNSCHEDULABLE, value: '', effect: 'NoSchedule' };

export const REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const REASON_NODE_NAME = "node(s) didn't match the requested node name";
export const REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
export const REASON_VOLUME_NODE_AFFINITY = 'node(s) had volume node affinity conflict';

export function pluginOf(verdict: number): number {
  return verdict & 7;
}

/** Runs the filters for `pod` on `node`. */
export function filterNode(pod: PodInfo, node: NodeState): number {
  if (node.unschedulable && !tolerationsTolerate(pod.tolerations, UNSCHEDULABLE_TAINT)) return NODE_UNSCHEDULABLE;
  if (pod.nodeName !== '' && pod.nodeName !== node.name) return NODE_NAME;
  if (node.taints.length > 0) {
    const i = firstUntoleratedTaint(node.taints, pod.tolerations);
    if (i >= 0) return TAINT_TOLERATION | (i << 8);
  }
  if (pod.required && !pod.required(node)) return NODE_AFFINITY;
  for (const p of pod.hostPorts) if (node.portConflict(p)) return NODE_PORTS;
  const fit = fitReasons(pod, node);
  if (fit !== 0) return NODE_RESOURCES_FIT | (fit << 3);
  if (pod.volumeNodes && !pod.volumeNodes(node)) return VOLUME_BINDING;
  return 0;
}

/** `fitsRequest`: pod count, then cpu, memory and ephemeral storage; zero requests always fit. */
export function fitReasons(pod: PodInfo, node: NodeState): number {
  let mask = 0;
  if (node.podCount + 1 > node.allocPods) mask |= FIT_PODS;
  const r = pod.requests;
  if (r.cpu > 0 && r.cpu > node.allocCpu - node.reqCpu)
    mask |= FIT_CPU | (r.cpu > node.allocCpu ? FIT_UNRESOLVABLE : 0);
  if (r.memory > 0 && r.memory > node.allocMemory - node.reqMemory)
    mask |= FIT_MEMORY | (r.memory > node.allocMemory ? FIT_UNRESOLVABLE : 0);
  if (r.ephemeral > 0 && r.ephemeral > node.allocEphemeral - node.reqEphemeral)
    mask |= FIT_EPHEMERAL | (r.ephemeral > node.allocEphemeral ? FIT_UNRESOLVABLE : 0);
  return mask;
}

/**
 * The reasons a verdict stands for (several for NodeResourcesFit). `taintReason` is the node's taint reason when the
 * plugin is TaintToleration.
 */
export function verdictReasons(verdict: number, taintReason: string): string[] {
  switch (verdict & 7) {
    case NODE_UNSCHEDULABLE:
      return [REASON_UNSCHEDULABLE];
    case NODE_NAME:
      return [REASON_NODE_NAME];
    case TAINT_TOLERATION:
      return [taintReason];
    case NODE_AFFINITY:
      return [REASON_NODE_AFFINITY];
    case NODE_PORTS:
      return [REASON_NODE_PORTS];
    case VOLUME_BINDING:
      return [REASON_VOLUME_NODE_AFFINITY];
    case NODE_RESOURCES_FIT: {
      const m = verdict >> 3;
      const out: string[] = [];
      if (m & FIT_PODS) out.push('Too many pods');
      if (m & FIT_CPU) out.push('Insufficient cpu');
      if (m & FIT_MEMORY) out.push('Insufficient memory');
      if (m & FIT_EPHEMERAL) out.push('Insufficient ephemeral-storage');
      return out;
    }
    default:
      return [];
  }
}

/**
 * Whether preemption could not help on this node (the plugin returned
 * UnschedulableAndUnresolvable). NodeResourcesFit does so for a request
 * larger than the whole node only since Kubernetes 1.34 (kubernetes#131345);
 * `tooSmallIsUnresolvable` selects that behaviour.
 */
export function isUnresolvable(verdict: number, tooSmallIsUnresolvable = false): boolean {
  const p = verdict & 7;
  if (p === NODE_PORTS) return false;
  if (p === NODE_RESOURCES_FIT) return tooSmallIsUnresolvable && ((verdict >> 3) & FIT_UNRESOLVABLE) !== 0;
  return p !== 0;
}
