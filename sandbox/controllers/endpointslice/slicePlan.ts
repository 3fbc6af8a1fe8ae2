/**
 * Plans a Service's EndpointSlices (a simplified `reconciler.reconcile`):
 * endpoints are grouped by their resolved port list; within a group each
 * endpoint stays in the slice that already holds it, new ones fill slices
 * with room and then new slices of at most 100; emptied slices go. A Service
 * with no endpoints keeps one empty placeholder slice.
 */
import type { Endpoint, EndpointPort, EndpointSlice as ApiEndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Typed } from '../../api/types';
import { jsonEqual } from '../../util/json';

type EndpointSlice = Typed<ApiEndpointSlice>;

export const MAX_ENDPOINTS_PER_SLICE = 100;

export interface DesiredGroup {
  ports: EndpointPort[];
  /** Sorted by pod name. */
  endpoints: Endpoint[];
}

export interface SlicePlan {
  /** Existing slices with new content. */
  update: EndpointSlice[];
  /** New slices (no name yet: the caller sets generateName). */
  create: { ports: EndpointPort[]; endpoints: Endpoint[] }[];
  delete: EndpointSlice[];
}

const podOf = (e: Endpoint): string => `${e.targetRef?.namespace}/${e.targetRef?.name}`;
const portsKey = (ports: readonly EndpointPort[] | undefined): string => JSON.stringify(ports ?? []);

export function planSlices(existing: readonly EndpointSlice[], groups: readonly DesiredGroup[]): SlicePlan {
  const plan: SlicePlan = { update: [], create: [], delete: [] };
  const used = new Set<EndpointSlice>();
  const total = groups.reduce((n, g) => n + g.endpoints.length, 0);
  for (const g of groups) {
    const slices = existing.filter((s) => !used.has(s) && portsKey(s.ports) === portsKey(g.ports));
    fillGroup(plan, slices, g, used);
  }
  for (const s of existing) if (!used.has(s)) plan.delete.push(s);
  if (total === 0) placeholder(plan);
  return plan;
}

function fillGroup(plan: SlicePlan, slices: EndpointSlice[], g: DesiredGroup, used: Set<EndpointSlice>): void {
  const wanted = new Map(g.endpoints.map((e) => [podOf(e), e]));
  const placed = new Set<string>();
  const kept: { slice: EndpointSlice; endpoints: Endpoint[] }[] = [];
  for (const slice of slices) {
    const endpoints: Endpoint[] = [];
    for (const e of slice.endpoints ?? []) {
      const want = wanted.get(podOf(e));
      if (want && !placed.has(podOf(e)) && endpoints.length < MAX_ENDPOINTS_PER_SLICE) {
        endpoints.push(want);
        placed.add(podOf(e));
      }
    }
    if (endpoints.length > 0) kept.push({ slice, endpoints });
  }
  const fresh = g.endpoints.filter((e) => !placed.has(podOf(e)));
  for (const k of kept)
    while (fresh.length > 0 && k.endpoints.length < MAX_ENDPOINTS_PER_SLICE) k.endpoints.push(fresh.shift()!);
  // Reuse emptied slices of the same ports before creating new ones.
  const spare = slices.filter((s) => !kept.some((k) => k.slice === s));
  while (fresh.length > 0) {
    const chunk = fresh.splice(0, MAX_ENDPOINTS_PER_SLICE);
    const reuse = spare.shift();
    if (reuse) kept.push({ slice: reuse, endpoints: chunk });
    else plan.create.push({ ports: g.ports, endpoints: chunk });
  }
  for (const k of kept) {
    used.add(k.slice);
    if (!jsonEqual(k.slice.endpoints ?? [], k.endpoints)) plan.update.push({ ...k.slice, endpoints: k.endpoints });
  }
}

/** No endpoints at all: keep (or make) one slice without endpoints or ports. */
function placeholder(plan: SlicePlan): void {
  const keep = plan.delete.find((s) => (s.endpoints ?? []).length === 0 && s.ports === undefined) ?? plan.delete[0];
  if (!keep) {
    plan.create.push({ ports: [], endpoints: [] });
    return;
  }
  plan.delete = plan.delete.filter((s) => s !== keep);
  if ((keep.endpoints ?? []).length > 0 || keep.ports !== undefined) {
    const { ports: _ports, ...rest } = keep;
    plan.update.push({ ...rest, endpoints: [] });
  }
}
