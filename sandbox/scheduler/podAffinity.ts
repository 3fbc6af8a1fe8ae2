/**
 * The InterPodAffinity filter (upstream: pkg/scheduler/framework/plugins/
 * interpodaffinity/filtering.go). PreFilter counts, per topology pair
 * (`key=value` of a node label), the existing pods matching the incoming
 * pod's required affinity and anti-affinity terms, and the existing pods
 * whose own required anti-affinity terms match the incoming pod; Filter
 * then checks each node's pairs against those counts.
 *
 * Not modelled: `matchLabelKeys` / `mismatchLabelKeys` (merged into the
 * selector by the API server upstream), and the preferred terms' score.
 */
import type { AffinityTerm, NamespaceLabels, PodFacts, WeightedAffinityTerm } from './affinityTerm';
import { termMatches } from './affinityTerm';
import type { BoundPod, NodeState } from './nodeState';
import type { Selector } from '../api/selectors/labelSelector';

/**
 * The pods a term could match, by the cache's label index, when the term names its namespaces (and has no namespace
 * selector that could add more); undefined when every pod must be looked at.
 */
function candidatesOf(
  t: AffinityTerm,
  candidates: ((namespace: string, selector: Selector) => ReadonlySet<BoundPod> | undefined) | undefined,
): ReadonlySet<BoundPod>[] | undefined {
  if (!candidates || t.namespaces.size === 0 || t.nsSelector.empty || t.nsSelector.requirements.length > 0)
    return undefined;
  const out: ReadonlySet<BoundPod>[] = [];
  for (const ns of t.namespaces) {
    const set = candidates(ns, t.selector);
    if (!set) return undefined;
    out.push(set);
  }
  return out;
}

export type { AffinityTerm, NamespaceLabels, PodFacts, WeightedAffinityTerm } from './affinityTerm';
export { compileAffinityTerms, compileWeightedTerms, termMatches } from './affinityTerm';

function allMatch(terms: readonly AffinityTerm[], pod: PodFacts, nsLabels: NamespaceLabels): boolean {
  for (const t of terms) if (!termMatches(t, pod, nsLabels)) return false;
  return terms.length > 0;
}

function pair(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

function bump(m: Map<string, number>, key: string, value: string | undefined): void {
  if (value === undefined) return;
  const p = pair(key, value);
  m.set(p, (m.get(p) ?? 0) + 1);
}

/** The pod being scheduled, as this plugin sees it. */
export interface AffinityPod extends PodFacts {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
}

/** An existing pod, as this plugin sees it. */
export interface ExistingPod extends PodFacts {
  readonly requiredAntiAffinity: readonly AffinityTerm[] | undefined;
}

/** PreFilter's state for one cycle. */
export interface InterPodState {
  readonly pod: AffinityPod;
  readonly affinityCounts: Map<string, number>;
  readonly antiAffinityCounts: Map<string, number>;
  readonly existingAntiAffinityCounts: Map<string, number>;
  /** The same, as topology key → the values where some existing pod's anti-affinity matches the pod. */
  readonly existingAntiAffinity: Map<string, Set<string>>;
}

/** The reasons, as bits of the filter verdict. */
export const AFFINITY_NOT_MATCH = 1;
export const ANTI_AFFINITY_NOT_MATCH = 2;
export const EXISTING_ANTI_AFFINITY_NOT_MATCH = 4;

export const REASON_AFFINITY = "node(s) didn't match pod affinity rules";
export const REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

/**
 * `PreFilter`: the three count maps over every node's pods. Returns undefined when there is nothing to check (the pod
 * has no required terms and no existing pod has required anti-affinity), as upstream's Skip.
 */
export function interPodPreFilter(
  pod: AffinityPod,
  nodes: readonly NodeState[],
  antiAffinityTerms: Iterable<{ term: AffinityTerm; pods: ReadonlyMap<BoundPod, number> }>,
  nsLabels: NamespaceLabels,
  candidates?: (namespace: string, selector: Selector) => ReadonlySet<BoundPod> | undefined,
): InterPodState | undefined {
  const existingAntiAffinityCounts = new Map<string, number>();
  // getExistingAntiAffinityCounts, by distinct term: a term not matching the pod skips every pod carrying it.
  for (const g of antiAffinityTerms) {
    const t = g.term;
    if (!termMatches(t, pod, nsLabels)) continue;
    for (const [e, times] of g.pods) {
      if (!e.node.exists) continue;
      const v = e.node.labels[t.topologyKey];
      if (v === undefined) continue;
      const p = pair(t.topologyKey, v);
      existingAntiAffinityCounts.set(p, (existingAntiAffinityCounts.get(p) ?? 0) + times);
    }
  }
  const affinityCounts = new Map<string, number>();
  const antiAffinityCounts = new Map<string, number>();
  const aff = pod.requiredAffinity;
  const anti = pod.requiredAntiAffinity;
  if (aff.length === 0 && anti.length === 0 && existingAntiAffinityCounts.size === 0) return undefined;
  // getIncomingAffinityAntiAffinityCounts
  const each = (t: AffinityTerm, fn: (p: BoundPod) => void) => {
    const some = candidatesOf(t, candidates);
    if (some) for (const set of some) for (const p of set) fn(p);
    else for (const node of nodes) for (const p of node.pods) fn(p);
  };
  if (aff.length > 0)
    each(aff[0], (p) => {
      if (!p.node.exists || !allMatch(aff, p, nsLabels)) return;
      for (const t of aff) bump(affinityCounts, t.topologyKey, p.node.labels[t.topologyKey]);
    });
  for (const t of anti)
    each(t, (p) => {
      if (p.node.exists && termMatches(t, p, nsLabels))
        bump(antiAffinityCounts, t.topologyKey, p.node.labels[t.topologyKey]);
    });
  const existingAntiAffinity = new Map<string, Set<string>>();
  for (const [p, n] of existingAntiAffinityCounts) {
    if (n <= 0) continue;
    const [k, v] = p.split('\u0000');
    let set = existingAntiAffinity.get(k);
    if (!set) existingAntiAffinity.set(k, (set = new Set()));
    set.add(v);
  }
  return { pod, affinityCounts, antiAffinityCounts, existingAntiAffinityCounts, existingAntiAffinity };
}

/**
 * `AddPod` (upstream interpodaffinity `updateWithPod` with multiplier 1): a copy of the state with `added` counted on
 * `node` — their required anti-affinity terms matching the incoming pod, and whether they match the incoming pod's
 * affinity (all terms) and each anti-affinity term. The original state is unchanged.
 */
export function interPodAddPods(
  s: InterPodState,
  node: NodeState,
  added: readonly ExistingPod[],
  nsLabels: NamespaceLabels,
): InterPodState {
  const existingAntiAffinityCounts = new Map(s.existingAntiAffinityCounts);
  const affinityCounts = new Map(s.affinityCounts);
  const antiAffinityCounts = new Map(s.antiAffinityCounts);
  const existingAntiAffinity = new Map<string, Set<string>>();
  for (const [k, values] of s.existingAntiAffinity) existingAntiAffinity.set(k, new Set(values));
  for (const p of added) {
    for (const t of p.requiredAntiAffinity ?? []) {
      const v = node.labels[t.topologyKey];
      if (v === undefined || !termMatches(t, s.pod, nsLabels)) continue;
      bump(existingAntiAffinityCounts, t.topologyKey, v);
      let set = existingAntiAffinity.get(t.topologyKey);
      if (!set) existingAntiAffinity.set(t.topologyKey, (set = new Set()));
      set.add(v);
    }
    if (allMatch(s.pod.requiredAffinity, p, nsLabels))
      for (const t of s.pod.requiredAffinity) bump(affinityCounts, t.topologyKey, node.labels[t.topologyKey]);
    for (const t of s.pod.requiredAntiAffinity)
      if (termMatches(t, p, nsLabels)) bump(antiAffinityCounts, t.topologyKey, node.labels[t.topologyKey]);
  }
  return { pod: s.pod, affinityCounts, antiAffinityCounts, existingAntiAffinityCounts, existingAntiAffinity };
}

/** `Filter`: 0 when the node passes, else one of the reason bits (affinity first, as upstream checks them). */
export function interPodFilter(s: InterPodState, node: NodeState, nsLabels: NamespaceLabels): number {
  if (!satisfyAffinity(s, node, nsLabels)) return AFFINITY_NOT_MATCH;
  for (const t of s.pod.requiredAntiAffinity) {
    const v = node.labels[t.topologyKey];
    if (v !== undefined && (s.antiAffinityCounts.get(pair(t.topologyKey, v)) ?? 0) > 0) return ANTI_AFFINITY_NOT_MATCH;
  }
  for (const [k, values] of s.existingAntiAffinity) {
    const v = node.labels[k];
    if (v !== undefined && values.has(v)) return EXISTING_ANTI_AFFINITY_NOT_MATCH;
  }
  return 0;
}

/**
 * `satisfyPodAffinity`: every term's topology key is on the node and some matching pod is in that domain; or, when no
 * pod anywhere matches and the pod matches its own terms, it may go anywhere (the first pod of a group).
 */
function satisfyAffinity(s: InterPodState, node: NodeState, nsLabels: NamespaceLabels): boolean {
  const terms = s.pod.requiredAffinity;
  if (terms.length === 0) return true;
  let podsExist = true;
  for (const t of terms) {
    const v = node.labels[t.topologyKey];
    if (v === undefined) return false;
    if ((s.affinityCounts.get(pair(t.topologyKey, v)) ?? 0) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return s.affinityCounts.size === 0 && allMatch(terms, s.pod, nsLabels);
}

export function interPodReason(bits: number): string {
  if (bits & AFFINITY_NOT_MATCH) return REASON_AFFINITY;
  if (bits & ANTI_AFFINITY_NOT_MATCH) return REASON_ANTI_AFFINITY;
  return REASON_EXISTING_ANTI_AFFINITY;
}

/** An existing pod's terms the score looks at. */
export interface ScoredExistingPod extends PodFacts {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
}

/** The incoming pod's preferred terms. */
export interface PreferringPod extends PodFacts {
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
}

/** `args.HardPodAffinityWeight` default. */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/**
 * InterPodAffinity's PreScore and Score (upstream: interpodaffinity/scoring.go): per topology pair, + the weight of
 * each of the pod's preferred affinity terms an existing pod matches (− for anti-affinity), and symmetrically the
 * existing pods' preferred terms (and required affinity terms × HardPodAffinityWeight) the incoming pod matches. A
 * node scores the sum over its labels. Raw scores, written at `out[i * stride + offset]`; normalized later
 * (`normalizeInterPodScores`).
 */
export function interPodScores(
  pod: PreferringPod,
  feasible: readonly NodeState[],
  all: readonly NodeState[],
  withAffinity: Iterable<{ node: NodeState; pod: ScoredExistingPod }>,
  nsLabels: NamespaceLabels,
  out: Int32Array,
  stride: number,
  offset: number,
): void {
  const hasConstraints = pod.preferredAffinity.length > 0 || pod.preferredAntiAffinity.length > 0;
  const scores = new Map<string, number>();
  const add = (t: AffinityTerm, target: PodFacts, node: NodeState, w: number) => {
    const v = node.labels[t.topologyKey];
    if (v === undefined || !termMatches(t, target, nsLabels)) return;
    const p = pair(t.topologyKey, v);
    scores.set(p, (scores.get(p) ?? 0) + w);
  };
  const process = (e: PodFacts & Partial<ScoredExistingPod>, node: NodeState) => {
    if (Object.keys(node.labels).length === 0) return;
    for (const t of pod.preferredAffinity) add(t, e, node, t.weight);
    for (const t of pod.preferredAntiAffinity) add(t, e, node, -t.weight);
    for (const t of e.requiredAffinity ?? []) add(t, pod, node, HARD_POD_AFFINITY_WEIGHT);
    for (const t of e.preferredAffinity ?? []) add(t, pod, node, t.weight);
    for (const t of e.preferredAntiAffinity ?? []) add(t, pod, node, -t.weight);
  };
  if (hasConstraints) {
    for (const node of all) for (const e of node.pods) process(e as PodFacts & Partial<ScoredExistingPod>, node);
  } else {
    for (const e of withAffinity) if (e.node.exists) process(e.pod, e.node);
  }
  if (scores.size === 0) return;
  feasible.forEach((node, i) => {
    let s = 0;
    for (const [k, v] of Object.entries(node.labels)) s += scores.get(pair(k, v)) ?? 0;
    out[i * stride + offset] = s;
  });
  // NormalizeScore: 100 × (s − min) / (max − min), 0 when all equal.
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < feasible.length; i++) {
    const s = out[i * stride + offset];
    min = Math.min(min, s);
    max = Math.max(max, s);
  }
  for (let i = 0; i < feasible.length; i++) {
    const j = i * stride + offset;
    out[j] = max - min > 0 ? Math.trunc((100 * (out[j] - min)) / (max - min)) : 0;
  }
}
