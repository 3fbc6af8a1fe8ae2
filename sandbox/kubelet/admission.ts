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

/** An admitted pod's requests as its pod worker keeps them (numbers in the worker itself: no object a pod). */
export interface Requested {
  readonly requestedCpu: number;
  readonly requestedMemory: number;
  readonly requestedStorage: number;
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

/**
 * Effective requests: the containers' and sidecars' sum, or an init container's with the sidecars before it, whichever
 * is larger (cpu in millicores, others in bytes), plus overhead: component-helpers `PodRequests`, max(Σ containers +
 * Σ sidecars, max over init containers of (its request + the sidecars declared before it)) + overhead. A pod's
 * requests cannot change once it exists (`ValidatePodUpdate` forbids changes to resources, init containers and
 * overhead; in-place resize is off in 1.32), so the kubelet reads them once, when it admits the pod, and its pod worker
 * keeps them (issue 16: a `WeakMap` by stored spec cost an entry and an object a pod).
 */
export function podRequests(pod: Pod): PodRequests {
  const out: PodRequests = { cpu: 0, memory: 0, 'ephemeral-storage': 0 };
  for (const name of Object.keys(out) as (keyof PodRequests)[]) {
    let sum = (pod.spec?.containers ?? []).reduce((n, c) => n + request(c, name), 0);
    let sidecars = 0;
    let init = 0;
    for (const c of pod.spec?.initContainers ?? []) {
      const r = request(c, name);
      if (c.restartPolicy === 'Always') {
        sum += r;
        sidecars += r;
        init = Math.max(init, sidecars);
      } else init = Math.max(init, r + sidecars);
    }
    const overheadText = pod.spec?.overhead?.[name];
    const overheadQ = overheadText === undefined ? undefined : parseQuantity(overheadText);
    const overhead = overheadQ ? (name === 'cpu' ? quantityToMilli(overheadQ) : quantityValue(overheadQ)) : 0;
    out[name] = Math.max(sum, init) + overhead;
  }
  return out;
}

/** Allocatable in admission units (cpu millicores, bytes, pod count). */
export function allocatableUnits(allocatable: Record<string, string>): PodRequests & { pods: number } {
  const milli = (t: string | undefined) =>
    t === undefined ? 0 : quantityToMilli(parseQuantity(t) ?? parseQuantity(0)!);
  const value = (t: string | undefined) => (t === undefined ? 0 : quantityValue(parseQuantity(t) ?? parseQuantity(0)!));
  return {
    cpu: milli(allocatable.cpu),
    memory: value(allocatable.memory),
    'ephemeral-storage': value(allocatable['ephemeral-storage']),
    pods: value(allocatable.pods),
  };
}

/** Why a pod requesting `want` does not fit next to admitted pods requesting `admitted`, or undefined when it does. */
export function checkFit(
  want: Readonly<PodRequests>,
  admitted: readonly Requested[],
  allocatable: PodRequests & { pods: number },
): Rejection | undefined {
  const reject = (name: string, requested: number, used: number, capacity: number): Rejection => ({
    reason: `OutOf${name}`,
    message: `Node didn't have enough resource: ${name}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  });
  if (admitted.length + 1 > allocatable.pods) return reject('pods', 1, admitted.length, allocatable.pods);
  const used: PodRequests = { cpu: 0, memory: 0, 'ephemeral-storage': 0 };
  for (const r of admitted) {
    used.cpu += r.requestedCpu;
    used.memory += r.requestedMemory;
    used['ephemeral-storage'] += r.requestedStorage;
  }
  for (const name of ['cpu', 'memory', 'ephemeral-storage'] as const) {
    if (want[name] === 0) continue;
    if (want[name] > allocatable[name] - used[name]) return reject(name, want[name], used[name], allocatable[name]);
  }
  return undefined;
}
