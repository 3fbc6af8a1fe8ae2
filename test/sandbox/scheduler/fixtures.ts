/** Node and pod builders for the scheduler tests. */
import type { Node, NodeSpec, Pod, PodSpec, Taint } from 'kubernetes-types/core/v1';
import type { Typed } from '../../../sandbox/api/types';

export interface NodeSpecInput {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
}

export function node(name: string, o: NodeSpecInput = {}): Typed<Node> {
  const allocatable: Record<string, string> = { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi' };
  if (o.pods) allocatable.pods = o.pods;
  const spec: NodeSpec = {};
  if (o.taints) spec.taints = o.taints;
  if (o.unschedulable) spec.unschedulable = true;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) } },
    spec,
    status: { capacity: allocatable, allocatable },
  };
}

export interface PodInput {
  cpu?: string;
  memory?: string;
  spec?: Partial<PodSpec>;
  namespace?: string;
}

export function pod(name: string, o: PodInput = {}): Typed<Pod> {
  const requests: Record<string, string> = {};
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests } }], ...(o.spec ?? {}) },
  };
}
