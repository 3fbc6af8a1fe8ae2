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
import type { PodAffinityTerm } from 'kubernetes-types/core/v1';
import type { Selector } from '../api/selectors/labelSelector';
import { NOTHING, labelSelectorFromObject } from '../api/selectors/labelSelector';
import type { NodeState } from './nodeState';

/** `framework.AffinityTerm`: a compiled term. */
export interface AffinityTerm {
  readonly selector: Selector;
  readonly namespaces: ReadonlySet<string>;
  readonly nsSelector: Selector;
  readonly topologyKey: string;
}

/** What a term looks at in a pod. */
export interface PodFacts {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
}

export type NamespaceLabels = (namespace: string) => Readonly<Record<string, string>> | undefined;

function selectorOf(sel: PodAffinityTerm['labelSelector']): Selector {
  try {
    return labelSelectorFromObject(sel);
  } catch {
    return NOTHING;
  }
}

/**
 * `newAffinityTerm`: with neither `namespaces` nor `namespaceSelector` a term is about the pod's own namespace; a nil
 * selector selects nothing, `{}` everything.
 */
export function compileAffinityTerms(
  terms: readonly PodAffinityTerm[] | undefined,
  podNamespace: string,
): AffinityTerm[] {
  return (terms ?? []).map((t) => {
    const namespaces = new Set(t.namespaces ?? []);
    if (namespaces.size === 0 && (t.namespaceSelector === undefined || t.namespaceSelector === null))
      namespaces.add(podNamespace);
    return {
      selector: selectorOf(t.labelSelector),
      namespaces,
      nsSelector: selectorOf(t.namespaceSelector),
      topologyKey: t.topologyKey,
    };
  });
}

/** `AffinityTerm.Matches`: the pod's namespace is one of the term's (by name or by label) and its labels match. */
export function termMatches(term: AffinityTerm, pod: PodFacts, nsLabels: NamespaceLabels): boolean {
  if (!term.namespaces.has(pod.namespace) && !term.nsSelector.matches(nsLabels(pod.namespace) ?? {})) return false;
  return term.selector.matches(pod.labels);
}

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
  withAntiAffinity: Iterable<{ node: NodeState; pod: ExistingPod }>,
  nsLabels: NamespaceLabels,
): InterPodState | undefined {
  const existingAntiAffinityCounts = new Map<string, number>();
  // getExistingAntiAffinityCounts
  for (const e of withAntiAffinity) {
    if (!e.node.exists) continue;
    for (const t of e.pod.requiredAntiAffinity ?? [])
      if (termMatches(t, pod, nsLabels)) bump(existingAntiAffinityCounts, t.topologyKey, e.node.labels[t.topologyKey]);
  }
  const affinityCounts = new Map<string, number>();
  const antiAffinityCounts = new Map<string, number>();
  const aff = pod.requiredAffinity;
  const anti = pod.requiredAntiAffinity;
  if (aff.length === 0 && anti.length === 0 && existingAntiAffinityCounts.size === 0) return undefined;
  // getIncomingAffinityAntiAffinityCounts
  if (aff.length > 0 || anti.length > 0) {
    for (const node of nodes) {
      for (const existing of node.pods) {
        if (aff.length > 0 && allMatch(aff, existing, nsLabels))
          for (const t of aff) bump(affinityCounts, t.topologyKey, node.labels[t.topologyKey]);
        for (const t of anti)
          if (termMatches(t, existing, nsLabels)) bump(antiAffinityCounts, t.topologyKey, node.labels[t.topologyKey]);
      }
    }
  }
  return { pod, affinityCounts, antiAffinityCounts, existingAntiAffinityCounts };
}

/** `Filter`: 0 when the node passes, else one of the reason bits (affinity first, as upstream checks them). */
export function interPodFilter(s: InterPodState, node: NodeState, nsLabels: NamespaceLabels): number {
  if (!satisfyAffinity(s, node, nsLabels)) return AFFINITY_NOT_MATCH;
  for (const t of s.pod.requiredAntiAffinity) {
    const v = node.labels[t.topologyKey];
    if (v !== undefined && (s.antiAffinityCounts.get(pair(t.topologyKey, v)) ?? 0) > 0) return ANTI_AFFINITY_NOT_MATCH;
  }
  if (s.existingAntiAffinityCounts.size > 0)
    for (const [k, v] of Object.entries(node.labels))
      if ((s.existingAntiAffinityCounts.get(pair(k, v)) ?? 0) > 0) return EXISTING_ANTI_AFFINITY_NOT_MATCH;
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
