/**
 * Kubelet admission of a pod bound to this node (pkg/kubelet/lifecycle/predicate.go
 * with the scheduler's `fitsRequest`): pods, cpu, memory and ephemeral
 * storage, first shortfall wins, as `OutOf<resource>` with upstream's message.
 */
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { parseQuantity, quantityToMilli, quantityValue } from '../api/quantity';

export interface PodRequests {
  cpu: number;
  memory: number;
  'ephemeral-storage': number;
}

export interface Rejection {
  reason: string;
  message: string;
}

function request(c: Container, name: keyof PodRequests): number {
  const text = c.resources?.requests?.[name];
  const q = text === undefined ? undefined : parseQuantity(text);
  if (!q) return 0;
  return name === 'cpu' ? quantityToMilli(q) : quantityValue(q);
}

/** Effective requests: the larger of the containers' sum and any one init container (cpu in millicores, others in bytes), plus overhead. */
export function podRequests(pod: Pod): PodRequests {
  const out: PodRequests = { cpu: 0, memory: 0, 'ephemeral-storage': 0 };
  for (const name of Object.keys(out) as (keyof PodRequests)[]) {
    const sum = (pod.spec?.containers ?? []).reduce((n, c) => n + request(c, name), 0);
    const init = Math.max(0, ...(pod.spec?.initContainers ?? []).map((c) => request(c, name)));
    const overheadText = pod.spec?.overhead?.[name];
    const overheadQ = overheadText === undefined ? undefined : parseQuantity(overheadText);
    const overhead = overheadQ ? (name === 'cpu' ? quantityToMilli(overheadQ) : quantityValue(overheadQ)) : 0;
    out[name] = Math.max(sum, init) + overhead;
  }
  return out;
}

/** Allocatable in admission units (cpu millicores, bytes, pod count). */
export function allocatableUnits(allocatable: Record<string, string>): PodRequests & { pods: number } {
  const milli = (t: string | undefined) => (t === undefined ? 0 : quantityToMilli(parseQuantity(t) ?? parseQuantity(0)!));
  const value = (t: string | undefined) => (t === undefined ? 0 : quantityValue(parseQuantity(t) ?? parseQuantity(0)!));
  return { cpu: milli(allocatable.cpu), memory: value(allocatable.memory), 'ephemeral-storage': value(allocatable['ephemeral-storage']), pods: value(allocatable.pods) };
}

/** Why `pod` does not fit next to `admitted` pods, or undefined when it does. */
export function checkFit(pod: Pod, admitted: readonly Pod[], allocatable: PodRequests & { pods: number }): Rejection | undefined {
  const reject = (name: string, requested: number, used: number, capacity: number): Rejection => ({
    reason: `OutOf${name}`,
    message: `Node didn't have enough resource: ${name}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  });
  if (admitted.length + 1 > allocatable.pods) return reject('pods', 1, admitted.length, allocatable.pods);
  const want = podRequests(pod);
  for (const name of ['cpu', 'memory', 'ephemeral-storage'] as const) {
    if (want[name] === 0) continue;
    const used = admitted.reduce((n, p) => n + podRequests(p)[name], 0);
    if (want[name] > allocatable[name] - used) return reject(name, want[name], used, allocatable[name]);
  }
  return undefined;
}
