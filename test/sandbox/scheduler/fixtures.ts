/** Node and pod builders for the scheduler tests. */
import type { Node, Pod, PodSpec, Taint } from 'kubernetes-types/core/v1';
import type { Typed } from '../../../sandbox/api/types';
import { aNode, aPod } from '../../builders';

export interface NodeSpecInput {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
}

export function node(name: string, o: NodeSpecInput = {}): Typed<Node> {
  return aNode(name, { ...o, namespace: null, cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi' });
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
  return aPod(name, { namespace: o.namespace, image: 'nginx', requests, spec: o.spec });
}
