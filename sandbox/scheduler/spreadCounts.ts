/**
 * PodTopologySpread's matching-pod counts, kept incrementally. Upstream's
 * PreScore and Score count, on every node, the pods matching each
 * constraint's selector in the incoming pod's namespace
 * (`countPodsMatchSelector` over `nodeInfo.Pods`). Here each (namespace,
 * selector) a cycle asked about keeps, per node, how many counted pods
 * (bound or assumed, not terminating) match it, updated by the scheduler
 * cache as pods are added, moved, relabelled or removed; a cycle then reads
 * the nodes that have matching pods instead of matching every pod of every
 * node. A (namespace, selector) no cycle asked about for a while is dropped
 * and rebuilt from the cache's label index when asked again, so the
 * counts never differ from a fresh count.
 */
import type { Selector } from '../api/selectors/labelSelector';
import type { BoundPod, NodeState } from './nodeState';

/** The counted pods matching one selector in one namespace, per node (only nodes with at least one). */
export type MatchingPerNode = ReadonlyMap<NodeState, number>;

const NONE: MatchingPerNode = new Map();

/** Selectors unused for this many look-ups are dropped (checked every `SWEEP_EVERY` look-ups). */
const IDLE_LOOKUPS = 20_000;
const SWEEP_EVERY = 4_096;

class Counts {
  readonly perNode = new Map<NodeState, number>();
  lastUsed = 0;

  constructor(
    readonly key: string,
    readonly selector: Selector,
    /** `namespace\0key\0value` of the equality requirement it is filed under; undefined: filed by namespace. */
    readonly anchor: string | undefined,
  ) {}

  add(node: NodeState, sign: 1 | -1): void {
    const n = (this.perNode.get(node) ?? 0) + sign;
    if (n > 0) this.perNode.set(node, n);
    else this.perNode.delete(node);
  }
}

function labelKey(namespace: string, key: string, value: string): string {
  return `${namespace}\u0000${key}\u0000${value}`;
}

/** The key of an equality requirement every matching pod must carry (`k=v`, `k==v`, `k in (v)`), if any. */
function anchorOf(namespace: string, selector: Selector): string | undefined {
  for (const r of selector.requirements)
    if (r.operator === 'Equals' || r.operator === 'DoubleEquals' || (r.operator === 'In' && r.values.length === 1))
      return labelKey(namespace, r.key, r.values[0]);
  return undefined;
}

export class SpreadCounts {
  private readonly bySelector = new Map<string, Counts>();
  /** Counts filed under one equality requirement: only a pod carrying that label can match them. */
  private readonly byLabel = new Map<string, Set<Counts>>();
  /** Counts of selectors without an equality requirement, by namespace: every pod of it is matched against them. */
  private readonly byNamespace = new Map<string, Set<Counts>>();
  private lookups = 0;

  /** How many (namespace, selector) counts are kept. */
  get size(): number {
    return this.bySelector.size;
  }

  /**
   * The matching pods per node of `selector` in `namespace` (upstream `countPodsMatchSelector`: none for an empty
   * selector, terminating pods skipped). The first look-up counts `pods()` (the pods that may match); later ones read
   * the kept counts.
   */
  matching(namespace: string, selector: Selector, pods: () => Iterable<BoundPod>): MatchingPerNode {
    if (selector.empty || selector.requirements.length === 0) return NONE;
    const now = ++this.lookups;
    if (now % SWEEP_EVERY === 0) this.sweep(now);
    const key = `${namespace}\u0000${selector.toString()}`;
    let c = this.bySelector.get(key);
    if (!c) {
      c = new Counts(key, selector, anchorOf(namespace, selector));
      for (const p of pods())
        if (!p.deleting && p.namespace === namespace && selector.matches(p.labels)) c.add(p.node, 1);
      this.file(c, namespace);
    }
    c.lastUsed = now;
    return c.perNode;
  }

  /** A pod begins (1) or stops (-1) being counted on its node. */
  podCounted(p: BoundPod, sign: 1 | -1): void {
    if (p.deleting || this.bySelector.size === 0) return;
    const all = this.byNamespace.get(p.namespace);
    if (all) for (const c of all) if (c.selector.matches(p.labels)) c.add(p.node, sign);
    if (this.byLabel.size === 0) return;
    for (const k in p.labels) {
      const set = this.byLabel.get(labelKey(p.namespace, k, p.labels[k]));
      if (set) for (const c of set) if (c.selector.matches(p.labels)) c.add(p.node, sign);
    }
  }

  private file(c: Counts, namespace: string): void {
    this.bySelector.set(c.key, c);
    const index = c.anchor === undefined ? this.byNamespace : this.byLabel;
    const at = c.anchor ?? namespace;
    let set = index.get(at);
    if (!set) index.set(at, (set = new Set()));
    set.add(c);
  }

  private sweep(now: number): void {
    for (const c of this.bySelector.values()) {
      if (now - c.lastUsed < IDLE_LOOKUPS) continue;
      this.bySelector.delete(c.key);
      const index = c.anchor === undefined ? this.byNamespace : this.byLabel;
      const at = c.anchor ?? c.key.slice(0, c.key.indexOf('\u0000'));
      const set = index.get(at);
      set?.delete(c);
      if (set?.size === 0) index.delete(at);
    }
  }
}
