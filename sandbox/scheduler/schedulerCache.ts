/**
 * The scheduler's cache (`pkg/scheduler/backend/cache`): every node with the
 * sum of what its non-terminal pods request, including pods the scheduler
 * has assumed onto a node but not yet seen bound. Kept incrementally from
 * the informers, so a scheduling cycle is O(nodes), never O(pods).
 */
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { BoundPod, HostPort, PodUsage } from './nodeState';
import { NodeState } from './nodeState';
import type { AffinityTerm, WeightedAffinityTerm } from './affinityTerm';
import { compileAffinityTerms, compileWeightedTerms } from './affinityTerm';
import type { Selector } from '../api/selectors/labelSelector';
import type { PodInfo } from './podInfo';
import { podHostPorts } from './podInfo';
import { podRequests } from './podRequests';
import type { MatchingPerNode } from './spreadCounts';
import { SpreadCounts } from './spreadCounts';

type PodEntry = CountedPod;

/**
 * A counted pod as the cache keeps it: every field assigned in the constructor, in one order, so every entry has one
 * hidden class with its fields in the object (issue 16: a literal built with spreads and optional members got a
 * property array and, per pod, its own hidden class and descriptors, ~0.25 KiB a pod).
 */
class CountedPod implements BoundPod {
  constructor(
    readonly key: string,
    readonly uid: string,
    readonly namespace: string,
    readonly labels: Readonly<Record<string, string>>,
    readonly priority: number,
    readonly deleting: boolean,
    readonly requiredAntiAffinity: readonly AffinityTerm[] | undefined,
    readonly requiredAffinity: readonly AffinityTerm[] | undefined,
    readonly preferredAffinity: readonly WeightedAffinityTerm[] | undefined,
    readonly preferredAntiAffinity: readonly WeightedAffinityTerm[] | undefined,
    readonly usage: PodUsage,
    public pod: Pod,
    public node: NodeState,
    public assumed: boolean,
  ) {}
}

/** What a pod takes from its node, every field in the object (see `CountedPod`). */
class Usage implements PodUsage {
  constructor(
    readonly cpu: number,
    readonly memory: number,
    readonly ephemeral: number,
    readonly nonZeroCpu: number,
    readonly nonZeroMemory: number,
    readonly hostPorts: readonly HostPort[],
    readonly scalar: Readonly<Record<string, number>> | undefined,
  ) {}
}

const EMPTY: ReadonlySet<BoundPod> = new Set();

/** One distinct required anti-affinity term and the pods carrying it. */
export interface AntiAffinityGroup {
  readonly term: AffinityTerm;
  /** Pod → how many times it carries the term. */
  readonly pods: Map<BoundPod, number>;
}

/** What a pod takes from its node (requests, non-zero requests, host ports). */
export function usageOf(pod: Pod): PodUsage {
  const r = podRequests(pod.spec);
  const nz = podRequests(pod.spec, true);
  return new Usage(r.cpu, r.memory, r.ephemeral, nz.cpu, nz.memory, podHostPorts(pod), r.scalar);
}

function sameLabels(before: Readonly<Record<string, string>>, pod: Pod): boolean {
  const now = pod.metadata?.labels ?? {};
  if (now === before) return true;
  const keys = Object.keys(now);
  if (keys.length !== Object.keys(before).length) return false;
  for (const k of keys) if (before[k] !== now[k]) return false;
  return true;
}

export class SchedulerCache {
  private readonly nodes = new Map<string, NodeState>();
  private readonly pods = new Map<string, PodEntry>();
  /** Pods with required anti-affinity terms (upstream `HavePodsWithRequiredAntiAffinityList`). */
  readonly withAntiAffinity = new Set<PodEntry>();
  /** `namespace\0key\0value` → the pods carrying that label: selectors look only at the pods they could match. */
  private readonly byLabel = new Map<string, Set<PodEntry>>();
  /** Pods with any pod affinity or anti-affinity (upstream `HavePodsWithAffinityList`). */
  readonly withAffinity = new Set<PodEntry>();
  /**
   * The pods whose terms InterPodAffinity's score reads (required affinity, preferred affinity or anti-affinity): the
   * others of `withAffinity` (only required anti-affinity) add nothing to it.
   */
  readonly withScoredTerms = new Set<PodEntry>();
  /**
   * The required anti-affinity terms of the counted pods, grouped by term (`AffinityTerm.key`): each pod with how many
   * of its terms are that one. PreFilter matches a distinct term once, not once per pod.
   */
  readonly antiAffinityTerms = new Map<string, AntiAffinityGroup>();
  /** PodTopologySpread's matching pods per node, per (namespace, selector) a cycle asked about. */
  private readonly spread = new SpreadCounts();
  private list: NodeState[] = [];

  /** Existing nodes, in the order they were added: the order a cycle walks them. */
  get nodeList(): readonly NodeState[] {
    return this.list;
  }

  node(name: string): NodeState | undefined {
    return this.nodes.get(name);
  }

  setNode(node: Node): void {
    const name = node.metadata!.name!;
    const state = this.stateFor(name);
    const added = !state.exists;
    state.setNode(node);
    if (added) this.list.push(state);
  }

  removeNode(name: string): void {
    const state = this.nodes.get(name);
    if (!state || !state.exists) return;
    state.exists = false;
    this.list = this.list.filter((n) => n !== state);
    if (state.podCount === 0) this.nodes.delete(name);
  }

  /**
   * Counts a bound, non-terminal pod (or re-counts it when it moved, changed uid or labels, or began terminating).
   * Returns whether what InterPodAffinity and PodTopologySpread count changed.
   */
  addOrUpdatePod(key: string, pod: Pod): boolean {
    const nodeName = pod.spec?.nodeName ?? '';
    const uid = pod.metadata?.uid ?? '';
    const old = this.pods.get(key);
    const deleting = pod.metadata?.deletionTimestamp !== undefined && pod.metadata?.deletionTimestamp !== null;
    if (
      old &&
      old.uid === uid &&
      old.node.name === nodeName &&
      old.deleting === deleting &&
      sameLabels(old.labels, pod)
    ) {
      old.assumed = false;
      old.pod = pod;
      return false;
    }
    if (old) this.release(key, old);
    const namespace = pod.metadata?.namespace ?? '';
    const affinity = pod.spec?.affinity;
    const anti = affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    // The other terms only when it has pod (anti-)affinity at all (InterPodAffinity's score reads them).
    const terms = affinity?.podAffinity || affinity?.podAntiAffinity ? affinity : undefined;
    this.account(
      key,
      new CountedPod(
        key,
        uid,
        namespace,
        pod.metadata?.labels ?? {},
        pod.spec?.priority ?? 0,
        deleting,
        anti && anti.length > 0 ? compileAffinityTerms(anti, namespace) : undefined,
        terms && compileAffinityTerms(terms.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, namespace),
        terms && compileWeightedTerms(terms.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, namespace),
        terms &&
          compileWeightedTerms(terms.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, namespace),
        usageOf(pod),
        pod,
        this.stateFor(nodeName),
        false,
      ),
    );
    return true;
  }

  /**
   * The pods of `namespace` that may match `selector`: those carrying the label of one of its equality requirements;
   * undefined when it has none (then every pod may match).
   */
  candidates(namespace: string, selector: Selector): ReadonlySet<BoundPod> | undefined {
    let best: ReadonlySet<BoundPod> | undefined;
    for (const r of selector.requirements) {
      if (!(r.operator === 'Equals' || r.operator === 'DoubleEquals' || (r.operator === 'In' && r.values.length === 1)))
        continue;
      const set = this.byLabel.get(`${namespace}\u0000${r.key}\u0000${r.values[0]}`) ?? EMPTY;
      if (!best || set.size < best.size) best = set;
    }
    return best;
  }

  /**
   * The counted pods of `namespace` matching `selector` (terminating ones aside), per node: kept up to date as pods
   * come and go once asked for (see `SpreadCounts`).
   */
  spreadMatching(namespace: string, selector: Selector): MatchingPerNode {
    return this.spread.matching(namespace, selector, () => this.candidates(namespace, selector) ?? this.pods.values());
  }

  /** The counted pod of that key. */
  pod(key: string): BoundPod | undefined {
    return this.pods.get(key);
  }

  /** Stops counting a pod (deleted, or Succeeded/Failed). Returns whether it was counted. */
  removePod(key: string): boolean {
    const old = this.pods.get(key);
    if (!old) return false;
    this.release(key, old);
    return true;
  }

  /** Counts `info` on `nodeName` before the binding is seen (upstream `AssumePod`). */
  assume(info: PodInfo, nodeName: string): void {
    const old = this.pods.get(info.key);
    if (old) this.release(info.key, old);
    const r = info.requests;
    const usage = new Usage(
      r.cpu,
      r.memory,
      r.ephemeral,
      info.nonZero.cpu,
      info.nonZero.memory,
      info.hostPorts,
      r.scalar,
    );
    this.account(
      info.key,
      new CountedPod(
        info.key,
        info.uid,
        info.namespace,
        info.labels,
        info.priority,
        false,
        info.requiredAntiAffinity.length > 0 ? info.requiredAntiAffinity : undefined,
        info.hasPodAffinity ? info.requiredAffinity : undefined,
        info.hasPodAffinity ? info.preferredAffinity : undefined,
        info.hasPodAffinity ? info.preferredAntiAffinity : undefined,
        usage,
        info.pod,
        this.stateFor(nodeName),
        true,
      ),
    );
  }

  /** Undoes `assume` after a failed binding, unless the informer has confirmed the pod meanwhile. */
  forget(key: string): void {
    const old = this.pods.get(key);
    if (old?.assumed) this.release(key, old);
  }

  private account(key: string, entry: PodEntry): void {
    entry.node.attach(entry, 1);
    this.pods.set(key, entry);
    this.spread.podCounted(entry, 1);
    for (const [k, v] of Object.entries(entry.labels)) {
      const key = `${entry.namespace}\u0000${k}\u0000${v}`;
      let set = this.byLabel.get(key);
      if (!set) this.byLabel.set(key, (set = new Set()));
      set.add(entry);
    }
    if (entry.requiredAntiAffinity) {
      this.withAntiAffinity.add(entry);
      for (const t of entry.requiredAntiAffinity) {
        let g = this.antiAffinityTerms.get(t.key);
        if (!g) this.antiAffinityTerms.set(t.key, (g = { term: t, pods: new Map() }));
        g.pods.set(entry, (g.pods.get(entry) ?? 0) + 1);
      }
    }
    if (entry.requiredAntiAffinity || entry.preferredAffinity) this.withAffinity.add(entry);
    if (entry.requiredAffinity?.length || entry.preferredAffinity?.length || entry.preferredAntiAffinity?.length)
      this.withScoredTerms.add(entry);
  }

  private release(key: string, entry: PodEntry): void {
    entry.node.attach(entry, -1);
    this.pods.delete(key);
    this.spread.podCounted(entry, -1);
    this.withAntiAffinity.delete(entry);
    this.withAffinity.delete(entry);
    this.withScoredTerms.delete(entry);
    for (const t of entry.requiredAntiAffinity ?? []) {
      const g = this.antiAffinityTerms.get(t.key);
      if (!g?.pods.delete(entry)) continue;
      if (g.pods.size === 0) this.antiAffinityTerms.delete(t.key);
    }
    for (const [k, v] of Object.entries(entry.labels)) {
      const key = `${entry.namespace}\u0000${k}\u0000${v}`;
      const set = this.byLabel.get(key);
      set?.delete(entry);
      if (set?.size === 0) this.byLabel.delete(key);
    }
    if (!entry.node.exists && entry.node.podCount === 0) this.nodes.delete(entry.node.name);
  }

  private stateFor(name: string): NodeState {
    let s = this.nodes.get(name);
    if (!s) this.nodes.set(name, (s = new NodeState(name)));
    return s;
  }
}
