/**
 * Nodes: lease, conditions, addresses, capacity, system info, and the non-terminated pods with what they request
 * (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describeNode, describeNodeResource).
 */
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../api/types';
import { asResource } from '../../api/resourceObjects';
import { parseQuantity, quantityToMilli, quantityValue } from '../../api/quantity';
import { nodeRolesText } from '../kinds/cluster';
import { quantityText, rfc1123z, since } from './format';
import type { DescribeInputs } from './inputs';
import { annotationsMultiline, labelsMultiline, taintsMultiline } from './metadata';
import { L0, L1 } from './writer';
import type { PrefixWriter } from './writer';

export function describeNode(w: PrefixWriter, node: Node, inputs: DescribeInputs, now: number): void {
  const meta = node.metadata ?? {};
  const status = node.status ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Roles:\t${nodeRolesText(node)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(meta.creationTimestamp)}\n`);
  taintsMultiline(w, 'Taints', node);
  w.write(L0, `Unschedulable:\t${node.spec?.unschedulable === true}\n`);
  const lease = inputs.lease && asResource('leases', inputs.lease);
  w.write(L0, 'Lease:\n');
  w.write(L1, `HolderIdentity:\t${lease?.spec?.holderIdentity ?? '<unset>'}\n`);
  w.write(L1, `AcquireTime:\t${lease?.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
  w.write(L1, `RenewTime:\t${lease?.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
  if ((status.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(L1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of status.conditions!)
      w.write(
        L1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
  }
  w.write(L0, 'Addresses:\n');
  for (const a of status.addresses ?? []) w.write(L1, `${a.type}:\t${a.address}\n`);
  const resourceList = (title: string, list: Record<string, unknown> | undefined) => {
    if (!list || Object.keys(list).length === 0) return;
    w.write(L0, `${title}:\n`);
    for (const r of Object.keys(list).sort()) w.write(L1, `${r}:\t${quantityText(list[r])}\n`);
  };
  resourceList('Capacity', status.capacity);
  resourceList('Allocatable', status.allocatable);
  const info = status.nodeInfo;
  w.write(L0, 'System Info:\n');
  w.write(L0, `  Machine ID:\t${info?.machineID ?? ''}\n`);
  w.write(L0, `  System UUID:\t${info?.systemUUID ?? ''}\n`);
  w.write(L0, `  Boot ID:\t${info?.bootID ?? ''}\n`);
  w.write(L0, `  Kernel Version:\t${info?.kernelVersion ?? ''}\n`);
  w.write(L0, `  OS Image:\t${info?.osImage ?? ''}\n`);
  w.write(L0, `  Operating System:\t${info?.operatingSystem ?? ''}\n`);
  w.write(L0, `  Architecture:\t${info?.architecture ?? ''}\n`);
  w.write(L0, `  Container Runtime Version:\t${info?.containerRuntimeVersion ?? ''}\n`);
  w.write(L0, `  Kubelet Version:\t${info?.kubeletVersion ?? ''}\n`);
  w.write(L0, `  Kube-Proxy Version:\t${info?.kubeProxyVersion ?? ''}\n`);
  if (node.spec?.podCIDR) w.write(L0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if ((node.spec?.podCIDRs ?? []).length > 0) w.write(L0, `PodCIDRs:\t${node.spec!.podCIDRs!.join(',')}\n`);
  if (node.spec?.providerID) w.write(L0, `ProviderID:\t${node.spec.providerID}\n`);
  describeNodeResource(w, node, inputs.pods ?? [], now);
}

interface Totals {
  requests: Map<string, number>;
  limits: Map<string, number>;
}

/** A pod's requests and limits as the scheduler counts them (resourcehelper.PodRequestsAndLimits), in milli-units. */
export function podRequestsAndLimits(pod: Pod): Totals {
  const sum = (field: 'requests' | 'limits') => {
    const total = new Map<string, number>();
    for (const c of pod.spec?.containers ?? []) {
      for (const [name, value] of Object.entries(c.resources?.[field] ?? {})) {
        const q = parseQuantity(value as string | number);
        if (q) total.set(name, (total.get(name) ?? 0) + quantityToMilli(q));
      }
    }
    // An init container runs alone: the pod needs the larger of it and the sum of the app containers.
    for (const c of pod.spec?.initContainers ?? []) {
      for (const [name, value] of Object.entries(c.resources?.[field] ?? {})) {
        const q = parseQuantity(value as string | number);
        if (q) total.set(name, Math.max(total.get(name) ?? 0, quantityToMilli(q)));
      }
    }
    for (const [name, value] of Object.entries(pod.spec?.overhead ?? {})) {
      const q = parseQuantity(value as string | number);
      if (q && total.has(name)) total.set(name, total.get(name)! + quantityToMilli(q));
    }
    return total;
  };
  const requests = sum('requests');
  const limits = sum('limits');
  // Requests default to limits (upstream defaulting); the sandbox stores defaulted pods, but a template may not be.
  for (const [name, v] of limits) if (!requests.has(name)) requests.set(name, v);
  return { requests, limits };
}

/** A milli-unit amount in the canonical quantity form of its resource (`300m`, `192Mi`). */
function milliText(resource: string, milli: number): string {
  if (milli === 0) return '0';
  if (resource === 'cpu') {
    const q = parseQuantity(milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`);
    return q ? q.toString() : String(milli);
  }
  const bytes = Math.ceil(milli / 1000);
  const binary = bytes % 1024 === 0 ? parseQuantity(`${bytes / 1024}Ki`) : undefined;
  return (binary ?? parseQuantity(String(bytes)))?.toString() ?? String(bytes);
}

function percent(milli: number, allocatable: unknown, resource: string): number {
  const q = typeof allocatable === 'string' || typeof allocatable === 'number' ? parseQuantity(allocatable) : undefined;
  if (!q) return 0;
  const total = resource === 'cpu' ? quantityToMilli(q) : quantityValue(q) * 1000;
  return total === 0 ? 0 : Math.trunc((milli / total) * 100);
}

/** describeNodeResource: the non-terminated pods on the node and what they request. */
function describeNodeResource(w: PrefixWriter, node: Node, allPods: readonly KubeObject[], now: number): void {
  const pods = allPods
    .map((p) => asResource('pods', p))
    .filter(
      (p) =>
        p.spec?.nodeName === node.metadata?.name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    );
  const allocatable = (node.status?.allocatable ?? node.status?.capacity ?? {}) as Record<string, unknown>;
  w.write(L0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(L1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(L1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const totals: Totals = { requests: new Map(), limits: new Map() };
  for (const p of pods) {
    const { requests, limits } = podRequestsAndLimits(p);
    for (const [k, v] of requests) totals.requests.set(k, (totals.requests.get(k) ?? 0) + v);
    for (const [k, v] of limits) totals.limits.set(k, (totals.limits.get(k) ?? 0) + v);
    const cell = (m: Map<string, number>, r: string) =>
      `${milliText(r, m.get(r) ?? 0)} (${percent(m.get(r) ?? 0, allocatable[r], r)}%)`;
    w.write(
      L1,
      `${p.metadata?.namespace}\t${p.metadata?.name}\t\t${cell(requests, 'cpu')}\t${cell(limits, 'cpu')}\t${cell(requests, 'memory')}\t${cell(limits, 'memory')}\t${since(p.metadata?.creationTimestamp, now)}\n`,
    );
  }
  w.write(L0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(L1, 'Resource\tRequests\tLimits\n');
  w.write(L1, '--------\t--------\t------\n');
  const extended = Object.keys(allocatable).filter((r) => r !== 'cpu' && r !== 'memory' && r !== 'pods');
  for (const r of ['cpu', 'memory', ...extended.sort()]) {
    const req = totals.requests.get(r) ?? 0;
    const lim = totals.limits.get(r) ?? 0;
    w.write(
      L1,
      `${r}\t${milliText(r, req)} (${percent(req, allocatable[r], r)}%)\t${milliText(r, lim)} (${percent(lim, allocatable[r], r)}%)\n`,
    );
  }
}
