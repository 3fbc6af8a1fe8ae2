/**
 * A pod's resource requests as the scheduler counts them
 * (`component-helpers/resource.PodRequests`): the sum of the app containers
 * and sidecars, or the largest init container (plus the sidecars started
 * before it) if that is bigger, plus `overhead`. Extended resources and
 * hugepages are counted too (`scalar`), so NodeResourcesFit can refuse them.
 */
import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { parseQuantity, quantityToMilli, quantityValue } from '../api/quantity';
import { isScalarResourceName } from '../api/resourceNames';

/** Millicores, bytes, bytes; `scalar`: extended resources, hugepages and the like, by name (absent when none). */
export interface Requests {
  cpu: number;
  memory: number;
  ephemeral: number;
  scalar?: Readonly<Record<string, number>>;
}

/** The names `podRequests` counts on their own; any other scalar name goes into `scalar`. */
const NAMED = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods']);

/**
 * The scalar part of `resource.PodRequests` as `framework.NewResource` keeps it (`Quantity.Value()`, rounded up), by
 * the same sum / max-over-init / overhead rule as cpu and memory; undefined when the pod requests none (nearly every
 * pod).
 */
function scalarRequests(spec: PodSpec | undefined): Record<string, number> | undefined {
  let names: Set<string> | undefined;
  const look = (list: ResourceMap): void => {
    if (list === undefined) return;
    for (const name in list) {
      if (NAMED.has(name) || !isScalarResourceName(name)) continue;
      names ??= new Set();
      names.add(name);
    }
  };
  for (const c of spec?.containers ?? []) look(c.resources?.requests as ResourceMap);
  for (const c of spec?.initContainers ?? []) look(c.resources?.requests as ResourceMap);
  look(spec?.overhead as ResourceMap);
  if (names === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const name of [...names].sort()) {
    let total = 0;
    for (const c of spec?.containers ?? []) total += value(c.resources?.requests as ResourceMap, name, 0);
    let sidecars = 0;
    let init = 0;
    for (const c of spec?.initContainers ?? []) {
      const r = value(c.resources?.requests as ResourceMap, name, 0);
      if (c.restartPolicy === 'Always') {
        total += r;
        sidecars += r;
        init = Math.max(init, sidecars);
      } else init = Math.max(init, r + sidecars);
    }
    out[name] = Math.max(total, init) + value(spec?.overhead as ResourceMap, name, 0);
  }
  return out;
}

/**
 * The defaults a missing container request counts as when scoring (`schedutil.DefaultMilliCPURequest`,
 * `DefaultMemoryRequest`).
 */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

type ResourceMap = Readonly<Record<string, string | number>> | undefined;

function milli(list: ResourceMap, name: string, missing: number): number {
  const raw = list?.[name];
  if (raw === undefined) return missing;
  const q = parseQuantity(raw);
  return q ? quantityToMilli(q) : 0;
}

function value(list: ResourceMap, name: string, missing: number): number {
  const raw = list?.[name];
  if (raw === undefined) return missing;
  const q = parseQuantity(raw);
  return q ? quantityValue(q) : 0;
}

function containerRequests(c: Container, nonZero: boolean): Requests {
  const r = c.resources?.requests as ResourceMap;
  return {
    cpu: milli(r, 'cpu', nonZero ? DEFAULT_MILLI_CPU_REQUEST : 0),
    memory: value(r, 'memory', nonZero ? DEFAULT_MEMORY_REQUEST : 0),
    ephemeral: value(r, 'ephemeral-storage', 0),
  };
}

function add(into: Requests, r: Requests): void {
  into.cpu += r.cpu;
  into.memory += r.memory;
  into.ephemeral += r.ephemeral;
}

function max(into: Requests, r: Requests): void {
  into.cpu = Math.max(into.cpu, r.cpu);
  into.memory = Math.max(into.memory, r.memory);
  into.ephemeral = Math.max(into.ephemeral, r.ephemeral);
}

/**
 * The pod's effective requests. With `nonZero`, a container that does not
 * request cpu or memory counts as 100m / 200Mi (what LeastAllocated scores
 * with, so that many request-less pods do not pile onto one node).
 */
export function podRequests(spec: PodSpec | undefined, nonZero = false): Requests {
  const total: Requests = { cpu: 0, memory: 0, ephemeral: 0 };
  for (const c of spec?.containers ?? []) add(total, containerRequests(c, nonZero));
  const sidecars: Requests = { cpu: 0, memory: 0, ephemeral: 0 };
  const init: Requests = { cpu: 0, memory: 0, ephemeral: 0 };
  for (const c of spec?.initContainers ?? []) {
    const r = containerRequests(c, nonZero);
    if (c.restartPolicy === 'Always') {
      add(total, r);
      add(sidecars, r);
      max(init, sidecars);
    } else {
      max(init, {
        cpu: r.cpu + sidecars.cpu,
        memory: r.memory + sidecars.memory,
        ephemeral: r.ephemeral + sidecars.ephemeral,
      });
    }
  }
  max(total, init);
  const overhead = spec?.overhead as ResourceMap;
  if (overhead)
    add(total, {
      cpu: milli(overhead, 'cpu', 0),
      memory: value(overhead, 'memory', 0),
      ephemeral: value(overhead, 'ephemeral-storage', 0),
    });
  if (!nonZero) {
    const scalar = scalarRequests(spec);
    if (scalar !== undefined) total.scalar = scalar;
  }
  return total;
}
