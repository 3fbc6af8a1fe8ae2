/**
 * Why a Pending pod does not fit, in numbers: what it requests against each
 * node's allocatable and what the pods already there request — the sums the
 * scheduler's NodeResourcesFit filter makes (upstream:
 * pkg/scheduler/framework/plugins/noderesources/fit.go: fitsRequest), shown
 * the way `kubectl describe node` shows "Allocated resources".
 */
import type { Node } from 'kubernetes-types/core/v1';
import { asResource } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import { parseQuantity, quantityToMilli } from '../../../sandbox/api/quantity';
import { podRequestsAndLimits } from '../../../sandbox/printers/describe/describe';

/** One resource on one node, in milli-units (millicores, millibytes). */
export interface FitCell {
  allocatable: number;
  requested: number;
  /** What this pod asks for. */
  wanted: number;
}

export interface NodeFit {
  node: string;
  cpu: FitCell;
  memory: FitCell;
  /** Resources this pod does not fit on the node by (`cpu`, `memory`). */
  short: string[];
  /** Not schedulable or not Ready: the scheduler rejects it before counting. */
  unschedulable?: string;
}

export interface ResourceFit {
  /** What the pod requests: `64 CPU, 64Mi memory`. */
  requests: { cpu: number; memory: number };
  nodes: NodeFit[];
}

function allocatableOf(node: Node, resource: string): number {
  const v = node.status?.allocatable?.[resource] ?? node.status?.capacity?.[resource];
  const q = v === undefined ? undefined : parseQuantity(v as string);
  return q ? quantityToMilli(q) : 0;
}

/** The fit of `pod` on every node, counting the non-terminated pods bound to each (not the pod itself). */
export function resourceFit(pod: KubeObject, nodes: readonly KubeObject[], pods: readonly KubeObject[]): ResourceFit {
  const own = podRequestsAndLimits(asResource('pods', pod)).requests;
  const requests = { cpu: own.get('cpu') ?? 0, memory: own.get('memory') ?? 0 };
  const rows = nodes.map((n) => {
    const node = asResource('nodes', n);
    const name = n.metadata.name!;
    const used = { cpu: 0, memory: 0 };
    for (const p of pods) {
      const other = asResource('pods', p);
      if (other.spec?.nodeName !== name || p.metadata.uid === pod.metadata.uid) continue;
      if (other.status?.phase === 'Succeeded' || other.status?.phase === 'Failed') continue;
      const r = podRequestsAndLimits(other).requests;
      used.cpu += r.get('cpu') ?? 0;
      used.memory += r.get('memory') ?? 0;
    }
    const cell = (resource: 'cpu' | 'memory'): FitCell => ({
      allocatable: allocatableOf(node, resource),
      requested: used[resource],
      wanted: requests[resource],
    });
    const fit: NodeFit = { node: name, cpu: cell('cpu'), memory: cell('memory'), short: [] };
    for (const r of ['cpu', 'memory'] as const)
      if (fit[r].wanted > 0 && fit[r].wanted > fit[r].allocatable - fit[r].requested) fit.short.push(r);
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    if (node.spec?.unschedulable) fit.unschedulable = 'cordoned (SchedulingDisabled)';
    else if (!ready) fit.unschedulable = 'NotReady';
    return fit;
  });
  return { requests, nodes: rows };
}

/** `64`, `1.5`, `100m` for CPU; `64Mi`, `1.5Gi` for memory: readable amounts of milli-units. */
export function formatAmount(resource: 'cpu' | 'memory', milli: number): string {
  if (resource === 'cpu')
    return milli % 1000 === 0 ? String(milli / 1000) : milli >= 1000 ? String(milli / 1000) : `${milli}m`;
  const bytes = milli / 1000;
  for (const [unit, size] of [
    ['Gi', 1024 ** 3],
    ['Mi', 1024 ** 2],
    ['Ki', 1024],
  ] as const)
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))}${unit}`;
  return String(Math.round(bytes));
}
