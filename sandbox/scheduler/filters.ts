/**
 * The default filter plugins, in upstream order, stopping at the first one
 * that rejects the node. The verdict is one integer so the hot loop
 * allocates nothing: `plugin | reasons << 4 | taintIndex << 9`, 0 when
 * the node fits. PodTopologySpread and InterPodAffinity read the state their
 * PreFilter computed for the cycle (`CycleState`).
 */
import type { NodeState } from './nodeState';
import type { NominatedPod } from './nominator';
import type { ScoreHook } from './scores';
import type { InterPodState, NamespaceLabels } from './podAffinity';
import { AFFINITY_NOT_MATCH, interPodAddPods, interPodFilter, interPodReason } from './podAffinity';
import type { PodInfo } from './podInfo';
import type { SpreadState } from './topologySpread';
import {
  REASON_SPREAD,
  REASON_SPREAD_MISSING_LABEL,
  SPREAD_MISSING_LABEL,
  spreadAddPods,
  spreadFilter,
} from './topologySpread';
import { TAINT_NODE_UNSCHEDULABLE, firstUntoleratedTaint, tolerationsTolerate } from './taints';

export const FILTER_PLUGINS = [
  '',
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'PodTopologySpread',
  'InterPodAffinity',
  'VolumeBinding',
] as const;
export type FilterPluginName = Exclude<(typeof FILTER_PLUGINS)[number], ''>;

export const NODE_UNSCHEDULABLE = 1;
export const NODE_NAME = 2;
export const TAINT_TOLERATION = 3;
export const NODE_AFFINITY = 4;
export const NODE_PORTS = 5;
export const NODE_RESOURCES_FIT = 6;
export const POD_TOPOLOGY_SPREAD = 7;
export const INTER_POD_AFFINITY = 8;
export const VOLUME_BINDING = 9;

/** The plugin part of a verdict. */
export const PLUGIN_MASK = 15;
const REASON_SHIFT = 4;
const TAINT_SHIFT = 9;

/** What PreFilter computed for one cycle; absent parts have nothing to check. */
export interface CycleState {
  readonly spread?: SpreadState;
  readonly interPod?: InterPodState;
  readonly nsLabels: NamespaceLabels;
  /** PreScore and Score of PodTopologySpread and InterPodAffinity over the feasible nodes. */
  readonly score?: ScoreHook;
  /** The pods nominated to a node (absent: none anywhere). */
  readonly nominated?: (nodeName: string) => readonly NominatedPod[];
}

/** NodeResourcesFit reasons, as bits of `verdict >> 4`. */
export const FIT_PODS = 1;
export const FIT_CPU = 2;
export const FIT_MEMORY = 4;
export const FIT_EPHEMERAL = 8;
/**
 * The request exceeds the node's whole allocatable: removing pods would not help (UnschedulableAndUnresolvable since
 * 1.34).
 */
export const FIT_UNRESOLVABLE = 16;
/**
 * Insufficient scalar resources (extended resources, hugepages): one bit each from here, by the resource's slot in
 * `SCALAR_NAMES`. Shifted into the verdict they take bits 9 to 30, which a NodeResourcesFit verdict leaves free (only
 * TaintToleration's carries a taint index there).
 */
const FIT_SCALAR_SHIFT = 5;
const SCALAR_SLOTS = 22;

/** Scalar resource names in the order first seen (process-wide); a verdict names them by slot. */
const SCALAR_NAMES: string[] = [];
const SCALAR_SLOT = new Map<string, number>();

function scalarSlot(name: string): number {
  let i = SCALAR_SLOT.get(name);
  if (i === undefined) {
    // Past the last slot every further name shares it (and its message): more than 22 distinct names in one process.
    i = Math.min(SCALAR_NAMES.length, SCALAR_SLOTS - 1);
    if (SCALAR_NAMES.length < SCALAR_SLOTS) SCALAR_NAMES.push(name);
    SCALAR_SLOT.set(name, i);
  }
  return i;
}

const UNSCHEDULABLE_TAINT = { key: TAINT_NODE_UNSCHEDULABLE, value: '', effect: 'NoSchedule' };

export const REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const REASON_NODE_NAME = "node(s) didn't match the requested node name";
export const REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
export const REASON_VOLUME_NODE_AFFINITY = 'node(s) had volume node affinity conflict';

export function pluginOf(verdict: number): number {
  return verdict & PLUGIN_MASK;
}

/** The taint index of a TaintToleration verdict. */
export function taintIndexOf(verdict: number): number {
  return verdict >> TAINT_SHIFT;
}

function reasonsOf(verdict: number): number {
  return (verdict >> REASON_SHIFT) & 31;
}

/** The scalar resources a NodeResourcesFit verdict found insufficient, sorted by name. */
function insufficientScalars(verdict: number): string[] {
  const bits = verdict >>> (REASON_SHIFT + FIT_SCALAR_SHIFT);
  const out: string[] = [];
  for (let i = 0; i < SCALAR_NAMES.length; i++) if (bits & (1 << i)) out.push(SCALAR_NAMES[i]);
  return out.sort();
}

/**
 * Runs the filters for `pod` on `node` (upstream `RunFilterPluginsWithNominatedPods`): first with the node's nominated
 * pods of higher or equal priority counted there, then, if they were and the node passed, without them. Nominated pods
 * take their resources and host ports, and count in PodTopologySpread's and InterPodAffinity's cycle state (upstream
 * `addGlobalNominatedPods` → `RunPreFilterExtensionAddPod` on a copy of the state; a plugin PreFilter skipped stays
 * skipped).
 */
export function filterNode(pod: PodInfo, node: NodeState, cycle?: CycleState): number {
  const nominated = cycle?.nominated?.(node.name);
  if (nominated === undefined || nominated.length === 0) return filterOnce(pod, node, cycle);
  const added = nominated.filter((n) => n.uid !== pod.uid && n.priority >= pod.priority);
  if (added.length === 0) return filterOnce(pod, node, cycle);
  for (const n of added) node.addPod(n.usage, 1);
  let verdict: number;
  try {
    const withNominated: CycleState = {
      ...cycle!,
      spread: cycle!.spread && spreadAddPods(cycle!.spread, node, added),
      interPod: cycle!.interPod && interPodAddPods(cycle!.interPod, node, added, cycle!.nsLabels),
    };
    verdict = filterOnce(pod, node, withNominated);
  } finally {
    for (const n of added) node.addPod(n.usage, -1);
  }
  return verdict !== 0 ? verdict : filterOnce(pod, node, cycle);
}

function filterOnce(pod: PodInfo, node: NodeState, cycle?: CycleState): number {
  if (node.unschedulable && !tolerationsTolerate(pod.tolerations, UNSCHEDULABLE_TAINT)) return NODE_UNSCHEDULABLE;
  if (pod.nodeName !== '' && pod.nodeName !== node.name) return NODE_NAME;
  if (node.taints.length > 0) {
    const i = firstUntoleratedTaint(node.taints, pod.tolerations);
    if (i >= 0) return TAINT_TOLERATION | (i << TAINT_SHIFT);
  }
  if (pod.required && !pod.required(node)) return NODE_AFFINITY;
  for (const p of pod.hostPorts) if (node.portConflict(p)) return NODE_PORTS;
  const fit = fitReasons(pod, node);
  if (fit !== 0) return NODE_RESOURCES_FIT | (fit << REASON_SHIFT);
  // upstream's filter order (pkg/scheduler/apis/config/v1 default plugins): VolumeBinding, then PodTopologySpread,
  // then InterPodAffinity; a node's first failing filter gives its reason.
  if (pod.volumeNodes && !pod.volumeNodes(node)) return VOLUME_BINDING;
  if (cycle?.spread) {
    const r = spreadFilter(cycle.spread, node);
    if (r !== 0) return POD_TOPOLOGY_SPREAD | (r << REASON_SHIFT);
  }
  if (cycle?.interPod) {
    const r = interPodFilter(cycle.interPod, node, cycle.nsLabels);
    if (r !== 0) return INTER_POD_AFFINITY | (r << REASON_SHIFT);
  }
  return 0;
}

/**
 * `fitsRequest`: pod count, then cpu, memory and ephemeral storage, then each scalar resource (extended resources,
 * hugepages: "Insufficient example.com/dongle" when the node does not advertise enough); zero requests always fit.
 */
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
  const scalar = r.scalar;
  if (scalar !== undefined) {
    for (const name in scalar) {
      const want = scalar[name];
      if (want === 0) continue;
      const alloc = node.allocScalar?.[name] ?? 0;
      if (want > alloc - (node.reqScalar?.get(name) ?? 0))
        mask |= (1 << (FIT_SCALAR_SHIFT + scalarSlot(name))) | (want > alloc ? FIT_UNRESOLVABLE : 0);
    }
  }
  return mask;
}

/**
 * The reasons a verdict stands for (several for NodeResourcesFit). `taintReason` is the node's taint reason when the
 * plugin is TaintToleration.
 */
export function verdictReasons(verdict: number, taintReason: string): string[] {
  switch (verdict & PLUGIN_MASK) {
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
    case POD_TOPOLOGY_SPREAD:
      return [reasonsOf(verdict) & SPREAD_MISSING_LABEL ? REASON_SPREAD_MISSING_LABEL : REASON_SPREAD];
    case INTER_POD_AFFINITY:
      return [interPodReason(reasonsOf(verdict))];
    case VOLUME_BINDING:
      return [REASON_VOLUME_NODE_AFFINITY];
    case NODE_RESOURCES_FIT: {
      const m = reasonsOf(verdict);
      const out: string[] = [];
      if (m & FIT_PODS) out.push('Too many pods');
      if (m & FIT_CPU) out.push('Insufficient cpu');
      if (m & FIT_MEMORY) out.push('Insufficient memory');
      if (m & FIT_EPHEMERAL) out.push('Insufficient ephemeral-storage');
      if (verdict >>> (REASON_SHIFT + FIT_SCALAR_SHIFT) !== 0)
        for (const name of insufficientScalars(verdict)) out.push(`Insufficient ${name}`);
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
  const p = verdict & PLUGIN_MASK;
  if (p === NODE_PORTS) return false;
  if (p === NODE_RESOURCES_FIT) return tooSmallIsUnresolvable && (reasonsOf(verdict) & FIT_UNRESOLVABLE) !== 0;
  // upstream: a missing topology label and unmet pod affinity are UnschedulableAndUnresolvable; skew and
  // anti-affinity are Unschedulable (removing pods may help).
  if (p === POD_TOPOLOGY_SPREAD) return (reasonsOf(verdict) & SPREAD_MISSING_LABEL) !== 0;
  if (p === INTER_POD_AFFINITY) return (reasonsOf(verdict) & AFFINITY_NOT_MATCH) !== 0;
  return p !== 0;
}
