/**
 * One node as the scheduler sees it (upstream's NodeInfo): what it offers
 * (allocatable, labels, taints, cordon) parsed once per node change, and
 * what its pods already take, kept up to date incrementally.
 */
import type { Node } from 'kubernetes-types/core/v1';
import { parseQuantity, quantityToMilli, quantityValue } from '../api/quantity';
import type { Pod } from 'kubernetes-types/core/v1';
import type { AffinityTerm, WeightedAffinityTerm } from './affinityTerm';
import type { NodeTaint } from './taints';
import { toNodeTaint } from './taints';
import { isScalarResourceName } from '../api/resourceNames';

/** Pods a node takes when its allocatable does not say (the kubelet's default `maxPods`). */
export const DEFAULT_MAX_PODS = 110;

/** What a pod takes from its node. */
export interface PodUsage {
  cpu: number;
  memory: number;
  ephemeral: number;
  nonZeroCpu: number;
  nonZeroMemory: number;
  hostPorts: readonly HostPort[];
  /** Extended resources and hugepages requested, by name (absent or undefined when none). */
  readonly scalar?: Readonly<Record<string, number>>;
}

export interface HostPort {
  readonly ip: string;
  /** `TCP/8080`: protocol and port, the key of a node's used-port table. */
  readonly protocolPort: string;
}

/** A pod counted on a node, with what InterPodAffinity, PodTopologySpread and preemption look at. */
export interface BoundPod {
  readonly key: string;
  readonly uid: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly priority: number;
  /** Being deleted (PodTopologySpread does not count it). */
  readonly deleting: boolean;
  /** Its required anti-affinity terms; undefined when it has none. */
  readonly requiredAntiAffinity: readonly AffinityTerm[] | undefined;
  /** Its other pod (anti-)affinity terms, for InterPodAffinity's score; absent when it has none. */
  readonly requiredAffinity?: readonly AffinityTerm[];
  readonly preferredAffinity?: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity?: readonly WeightedAffinityTerm[];
  readonly usage: PodUsage;
  /** The object (for preemption's victims); the scheduler's own copy for an assumed pod. */
  pod: Pod;
  node: NodeState;
  /** Assumed by the scheduler and not yet confirmed by the informer. */
  assumed: boolean;
}

/** A quantity in millis or base units; 0 when missing or unparsable. */
function amount(raw: string | number | undefined, milli: boolean): number {
  const q = raw === undefined ? undefined : parseQuantity(raw);
  if (!q) return 0;
  return milli ? quantityToMilli(q) : quantityValue(q);
}

export class NodeState {
  /** False once the Node object is gone (its bound pods may still be counted until they go too). */
  exists = false;
  labels: Readonly<Record<string, string>> = {};
  taints: readonly NodeTaint[] = [];
  unschedulable = false;
  allocCpu = 0;
  allocMemory = 0;
  allocEphemeral = 0;
  allocPods = DEFAULT_MAX_PODS;
  /** Allocatable extended resources and hugepages by name (upstream `ScalarResources`); undefined when none. */
  allocScalar: Record<string, number> | undefined;

  reqCpu = 0;
  reqMemory = 0;
  reqEphemeral = 0;
  nonZeroCpu = 0;
  nonZeroMemory = 0;
  podCount = 0;
  /** What the counted pods request of each scalar resource; undefined while none requests any. */
  reqScalar: Map<string, number> | undefined;
  /** ip → `PROTO/port` → number of pods using it; undefined while no pod uses a host port. */
  usedPorts: Map<string, Map<string, number>> | undefined;
  /** The pods counted here. */
  readonly pods = new Set<BoundPod>();

  constructor(readonly name: string) {}

  /** Takes the node's schedulable facts from its latest object. */
  setNode(node: Node): void {
    this.exists = true;
    this.labels = node.metadata?.labels ?? {};
    this.taints = (node.spec?.taints ?? []).map(toNodeTaint);
    this.unschedulable = node.spec?.unschedulable === true;
    const a = (node.status?.allocatable ?? {}) as Record<string, string | number>;
    this.allocCpu = amount(a.cpu, true);
    this.allocMemory = amount(a.memory, false);
    this.allocEphemeral = amount(a['ephemeral-storage'], false);
    this.allocPods = a.pods === undefined ? DEFAULT_MAX_PODS : amount(a.pods, false);
    let scalar: Record<string, number> | undefined;
    for (const name in a) {
      if (name === 'cpu' || name === 'memory' || name === 'ephemeral-storage' || name === 'pods') continue;
      if (isScalarResourceName(name)) (scalar ??= {})[name] = amount(a[name], false);
    }
    this.allocScalar = scalar;
  }

  /** Counts (or stops counting) a pod here. */
  attach(p: BoundPod, sign: 1 | -1): void {
    if (sign > 0) this.pods.add(p);
    else this.pods.delete(p);
    this.addPod(p.usage, sign);
  }

  addPod(u: PodUsage, sign: 1 | -1): void {
    this.reqCpu += sign * u.cpu;
    this.reqMemory += sign * u.memory;
    this.reqEphemeral += sign * u.ephemeral;
    this.nonZeroCpu += sign * u.nonZeroCpu;
    this.nonZeroMemory += sign * u.nonZeroMemory;
    this.podCount += sign;
    for (const p of u.hostPorts) this.usePort(p, sign);
    if (u.scalar !== undefined) {
      const req = (this.reqScalar ??= new Map());
      for (const name in u.scalar) req.set(name, (req.get(name) ?? 0) + sign * u.scalar[name]);
    }
  }

  /** `HostPortInfo.CheckConflict`: 0.0.0.0 clashes with every address, any other address with itself and 0.0.0.0. */
  portConflict(p: HostPort): boolean {
    const used = this.usedPorts;
    if (!used) return false;
    if (p.ip === '0.0.0.0') {
      for (const m of used.values()) if (m.has(p.protocolPort)) return true;
      return false;
    }
    return (used.get('0.0.0.0')?.has(p.protocolPort) ?? false) || (used.get(p.ip)?.has(p.protocolPort) ?? false);
  }

  private usePort(p: HostPort, sign: 1 | -1): void {
    this.usedPorts ??= new Map();
    let m = this.usedPorts.get(p.ip);
    if (!m) this.usedPorts.set(p.ip, (m = new Map()));
    const n = (m.get(p.protocolPort) ?? 0) + sign;
    if (n > 0) m.set(p.protocolPort, n);
    else m.delete(p.protocolPort);
    if (m.size === 0) this.usedPorts.delete(p.ip);
    if (this.usedPorts.size === 0) this.usedPorts = undefined;
  }
}
