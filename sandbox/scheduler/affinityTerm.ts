/**
 * Pod (anti-)affinity terms compiled once per pod (upstream: framework
 * `AffinityTerm`, `WeightedAffinityTerm`, `newAffinityTerm`), and whether a
 * term matches a pod.
 */
import type { PodAffinityTerm } from 'kubernetes-types/core/v1';
import type { Selector } from '../api/selectors/labelSelector';
import { NOTHING, labelSelectorFromObject } from '../api/selectors/labelSelector';

/** `framework.AffinityTerm`: a compiled term. */
export interface AffinityTerm {
  readonly selector: Selector;
  readonly namespaces: ReadonlySet<string>;
  readonly nsSelector: Selector;
  readonly topologyKey: string;
  /**
   * The term as written with its pod's namespace: equal keys mean equal terms, so the cache groups existing pods'
   * anti-affinity terms by it and PreFilter matches each distinct term once.
   */
  readonly key: string;
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
      key: `${podNamespace}\u0000${JSON.stringify(t)}`,
    };
  });
}

/** `AffinityTerm.Matches`: the pod's namespace is one of the term's (by name or by label) and its labels match. */
export function termMatches(term: AffinityTerm, pod: PodFacts, nsLabels: NamespaceLabels): boolean {
  if (!term.namespaces.has(pod.namespace) && !term.nsSelector.matches(nsLabels(pod.namespace) ?? {})) return false;
  return term.selector.matches(pod.labels);
}

/** A preferred term with its weight. */
export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

export function compileWeightedTerms(
  terms: readonly { weight: number; podAffinityTerm: PodAffinityTerm }[] | undefined,
  podNamespace: string,
): WeightedAffinityTerm[] {
  return (terms ?? [])
    .filter((t) => t.weight !== 0)
    .map((t) => ({ ...compileAffinityTerms([t.podAffinityTerm], podNamespace)[0], weight: t.weight }));
}
