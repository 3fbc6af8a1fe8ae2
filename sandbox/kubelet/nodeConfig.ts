/**
 * A simulated node's configuration and the addresses derived from it: the
 * node's InternalIP (10.0.0.x) and its pod CIDR (10.244.<i>.0/24), both from
 * its index in the cluster so every run gives the same addresses.
 */
import type { Taint } from 'kubernetes-types/core/v1';
import { kubernetesVersion } from '../schema/schema';
import type { KubeletDelays } from './delays';

export interface NodeCapacity {
  cpu?: string;
  memory?: string;
  pods?: number | string;
  'ephemeral-storage'?: string;
}

export interface NodeConfig {
  name: string;
  /**
   * Position in the cluster (0-based); picks the node's IP and pod CIDR. Default: the trailing number of the name, else
   * 0.
   */
  index?: number;
  capacity?: NodeCapacity;
  /** Extra labels, over the standard `kubernetes.io/*` ones. */
  labels?: Record<string, string>;
  /** Taints the node registers with. */
  taints?: Taint[];
  delays?: Partial<KubeletDelays>;
}

export const DEFAULT_NODE_CAPACITY = { cpu: '4', memory: '16Gi', pods: 110, 'ephemeral-storage': '100Gi' } as const;

/** The default release's kubelet version; a node reports {@link kubeletVersion}. */
export const KUBELET_VERSION = 'v1.32.0';

/** The kubelet version a node reports: the active Kubernetes release's (`v1.32.0` by default). */
export function kubeletVersion(): string {
  return `v${kubernetesVersion()}.0`;
}

/** The node's capacity as the API reports it (strings), defaults filled in. */
export function nodeCapacity(config: NodeConfig): Record<string, string> {
  const c = { ...DEFAULT_NODE_CAPACITY, ...(config.capacity ?? {}) };
  return {
    cpu: String(c.cpu),
    'ephemeral-storage': String(c['ephemeral-storage']),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: String(c.memory),
    pods: String(c.pods),
  };
}

export function nodeIndex(config: NodeConfig): number {
  if (config.index !== undefined) return config.index;
  const m = /(\d+)$/.exec(config.name);
  return m ? Number(m[1]) : 0;
}

function ipv4(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}

const NODE_BASE = (10 << 24) >>> 0;
const POD_BASE = ((10 << 24) | (244 << 16)) >>> 0;

/** 10.0.0.2 for index 0, 10.0.0.3 for index 1, … */
export function nodeInternalIP(index: number): string {
  return ipv4(NODE_BASE + index + 2);
}

/** 10.244.<index>.0/24 */
export function nodePodCIDR(index: number): string {
  return `${ipv4(POD_BASE + index * 256)}/24`;
}

/** Hands out pod IPs from the node's /24 (from .2, as host-local IPAM does), lowest free first. */
export class PodIPAllocator {
  private readonly used = new Set<number>();
  private readonly base: number;

  constructor(index: number) {
    this.base = POD_BASE + index * 256;
  }

  allocate(): string {
    for (let host = 2; host < 255; host++) {
      if (!this.used.has(host)) {
        this.used.add(host);
        return ipv4(this.base + host);
      }
    }
    throw new Error('no pod IPs left on this node');
  }

  /** An address given out before (a pod resumed from a saved cluster): not given out again. */
  reserve(ip: string): void {
    this.used.add(Number(ip.slice(ip.lastIndexOf('.') + 1)));
  }

  release(ip: string): void {
    const host = Number(ip.slice(ip.lastIndexOf('.') + 1));
    this.used.delete(host);
  }
}
