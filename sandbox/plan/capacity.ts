/**
 * What each node has free for the pods of an owner that has Pending pods: allocatable less what the pods of other
 * owners bound there request, summed as the scheduler's NodeResourcesFit sums them
 * (upstream: pkg/scheduler/framework/plugins/noderesources/fit.go: fitsRequest over NodeInfo.Requested, with
 * component-helpers/resource.PodRequests per pod). The owner's own pods are left out, since a change to its requests
 * replaces them; the editor's "lower the request to what fits" quick fix is computed from it.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { Quantity, formatQuantity, parseQuantity, quantityToMilli, quantityValue } from '../api/quantity';
import type { KubeObject } from '../api/types';
import type { Cluster } from '../cluster/cluster';
import { isPodTerminal } from '../controllers/util/pods';
import { DEFAULT_MAX_PODS } from '../scheduler/nodeState';
import { podRequests } from '../scheduler/podRequests';
import type { PlanCapacity, PlanNodeCapacity, PlanPendingPod } from './types';

/** Millicores as a quantity string (`500m`, `2`). */
export function cpuQuantity(milli: number): string {
  return formatQuantity(new Quantity(BigInt(Math.max(0, Math.floor(milli))) * 1_000_000n, 'DecimalSI'));
}

/** Bytes as a quantity string (`1536Mi`, `1Gi`, or bytes when not a multiple of 1Ki). */
export function memoryQuantity(bytes: number): string {
  return formatQuantity(new Quantity(BigInt(Math.max(0, Math.floor(bytes))) * 1_000_000_000n, 'BinarySI'));
}

function amount(raw: string | number | undefined, milli: boolean): number {
  const q = raw === undefined ? undefined : parseQuantity(raw);
  if (!q) return 0;
  return milli ? quantityToMilli(q) : quantityValue(q);
}

/** The filter whose rejection a smaller cpu/memory request can cure. */
const RESOURCES_FIT = 'NodeResourcesFit';

/**
 * Per owner of Pending pods (the first Pending pod of each stands for the owner's pods), each node's free capacity
 * for them. `ownerOf` names the owner of any pod (as the plan's `pending[].owner`), or undefined for a pod of its own.
 */
export function pendingCapacity(
  cluster: Cluster,
  pending: readonly PlanPendingPod[],
  ownerOf: (pod: Pod & KubeObject) => string | undefined,
): PlanCapacity[] {
  if (pending.length === 0) return [];
  const api = cluster.api;
  const pods = api.list('pods').items as (Pod & KubeObject)[];
  const podKey = (p: Pod & KubeObject) => `${p.metadata.namespace}/${p.metadata.name}`;
  const ownerKey = (p: Pod & KubeObject) => ownerOf(p) ?? `Pod ${podKey(p)}`;
  const bound = pods.filter((p) => p.spec?.nodeName && !isPodTerminal(p));
  const owners = new Map<string, Set<string>>(); // owner → its pods' keys
  for (const p of pods) {
    const o = ownerKey(p);
    let set = owners.get(o);
    if (!set) owners.set(o, (set = new Set()));
    set.add(podKey(p));
  }
  const nodes = api.list('nodes').items as (Node & KubeObject)[];
  const out: PlanCapacity[] = [];
  const seen = new Set<string>();
  for (const entry of pending) {
    const owner = entry.owner ?? `Pod ${entry.pod}`;
    if (seen.has(owner)) continue;
    seen.add(owner);
    const [namespace, name] = entry.pod.split('/', 2);
    const pod = pods.find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
    if (!pod) continue;
    const own = owners.get(owner) ?? new Set<string>();
    const request = podRequests(pod.spec);
    const explained = new Map((cluster.explain(namespace, name)?.nodes ?? []).map((n) => [n.node, n]));
    const perNode: PlanNodeCapacity[] = nodes.map((node) => {
      const alloc = node.status?.allocatable ?? {};
      const cpu = amount(alloc.cpu, true);
      const memory = amount(alloc.memory, false);
      const maxPods = alloc.pods === undefined ? DEFAULT_MAX_PODS : amount(alloc.pods, false);
      let usedCpu = 0;
      let usedMemory = 0;
      let usedPods = 0;
      for (const p of bound) {
        if (p.spec!.nodeName !== node.metadata.name || own.has(podKey(p))) continue;
        const r = podRequests(p.spec);
        usedCpu += r.cpu;
        usedMemory += r.memory;
        usedPods++;
      }
      const n: PlanNodeCapacity = {
        node: node.metadata.name!,
        allocatable: { cpu: cpuQuantity(cpu), memory: memoryQuantity(memory), pods: maxPods },
        free: {
          cpu: cpuQuantity(cpu - usedCpu),
          memory: memoryQuantity(memory - usedMemory),
          pods: Math.max(0, maxPods - usedPods),
        },
      };
      const x = explained.get(n.node);
      if (x?.rejectedBy && x.rejectedBy !== RESOURCES_FIT) n.blocked = x.reasons ?? [x.rejectedBy];
      return n;
    });
    out.push({
      owner,
      request: { cpu: cpuQuantity(request.cpu), memory: memoryQuantity(request.memory) },
      nodes: perNode,
    });
  }
  return out;
}
