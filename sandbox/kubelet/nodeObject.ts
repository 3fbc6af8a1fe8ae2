/**
 * The Node and Lease objects a kubelet registers and keeps fresh, with the
 * upstream condition reasons and messages (pkg/kubelet/nodestatus/setters.go).
 */
import type { NodeCondition } from 'kubernetes-types/core/v1';
import { formatMicroTime, formatTimestamp } from '../clock/clock';
import type { KubeObject } from '../api/types';
import type { NodeConfig } from './nodeConfig';
import { kubeletVersion, nodeCapacity, nodeIndex, nodeInternalIP, nodePodCIDR } from './nodeConfig';

/** The four conditions a healthy kubelet posts, in upstream order. */
const HEALTHY: readonly [string, string, string, string][] = [
  ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
];

/** Conditions as of `now`; a condition whose status did not change keeps its lastTransitionTime. */
export function healthyConditions(now: number, previous: readonly NodeCondition[] = []): NodeCondition[] {
  return HEALTHY.map(([type, status, reason, message]) => {
    const old = previous.find((c) => c.type === type);
    const since =
      old && old.status === status && old.lastTransitionTime ? old.lastTransitionTime : formatTimestamp(now);
    return { type, status, lastHeartbeatTime: formatTimestamp(now), lastTransitionTime: since, reason, message };
  });
}

/** The same conditions ignoring heartbeat times: what "changed" means for re-posting status. */
export function conditionsKey(conditions: readonly NodeCondition[]): string {
  return JSON.stringify(conditions.map((c) => [c.type, c.status, c.reason, c.message]));
}

export function nodeLabels(config: NodeConfig): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': config.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': 'sandbox',
    ...(config.labels ?? {}),
  };
}

/** The Node status a kubelet posts (capacity, allocatable = capacity, conditions, addresses, nodeInfo). */
export function nodeStatus(
  config: NodeConfig,
  now: number,
  previous?: readonly NodeCondition[],
): Record<string, unknown> {
  const capacity = nodeCapacity(config);
  const index = nodeIndex(config);
  return {
    capacity,
    allocatable: { ...capacity },
    conditions: healthyConditions(now, previous),
    addresses: [
      { type: 'InternalIP', address: nodeInternalIP(index) },
      { type: 'Hostname', address: config.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      architecture: 'amd64',
      bootID: '',
      containerRuntimeVersion: 'containerd://1.7.24',
      kernelVersion: '6.8.0-sandbox',
      kubeProxyVersion: kubeletVersion(),
      kubeletVersion: kubeletVersion(),
      machineID: '',
      operatingSystem: 'linux',
      osImage: 'Kube Reconcile sandbox',
      systemUUID: '',
    },
  };
}

/** A new Node object for registration. */
export function newNode(config: NodeConfig, now: number): KubeObject {
  const cidr = nodePodCIDR(nodeIndex(config));
  const spec: Record<string, unknown> = { podCIDR: cidr, podCIDRs: [cidr] };
  if (config.taints && config.taints.length > 0) spec.taints = config.taints.map((t) => ({ ...t }));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: config.name,
      labels: nodeLabels(config),
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec,
    status: nodeStatus(config, now),
  };
}

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
export const LEASE_DURATION_SECONDS = 40;

/** The node's Lease in `kube-node-lease`, owned by the Node. */
export function newLease(node: KubeObject, now: number): KubeObject {
  const name = node.metadata.name!;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: NODE_LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid ?? '' }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: formatMicroTime(now) },
  };
}
