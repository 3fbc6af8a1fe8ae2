/**
 * The PodTopologySpread filter (upstream: pkg/scheduler/framework/plugins/
 * podtopologyspread/filtering.go). Only `whenUnsatisfiable: DoNotSchedule`
 * constraints filter. PreFilter counts, per topology pair, the pods matching
 * each constraint's selector in the pod's namespace on the nodes the pod
 * could go to (`nodeAffinityPolicy` Honor by default, `nodeTaintsPolicy`
 * Ignore by default; a node must carry every constraint's key), and the
 * smallest count per key (0 when there are fewer domains than `minDomains`).
 * Filter: `count(node's domain) + selfMatch − min ≤ maxSkew`.
 *
 * The ScheduleAnyway constraints (and the cluster default constraints, which
 * are ScheduleAnyway: hostname maxSkew 3, zone maxSkew 5) only score; their
 * score is not modelled.
 */
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import type { Selector } from '../api/selectors/labelSelector';
import { NOTHING, labelSelectorFromObject } from '../api/selectors/labelSelector';
import type { NodeMatcher } from './nodeSelector';
import type { BoundPod, NodeState } from './nodeState';
import type { MatchingPerNode } from './spreadCounts';
import type { NodeTaint } from './taints';
import { firstUntoleratedTaint } from './taints';
import type { Toleration } from 'kubernetes-types/core/v1';

export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
  readonly minDomains: number;
  readonly honorAffinity: boolean;
  readonly honorTaints: boolean;
}

/** What the plugin needs from the incoming pod. */
export interface SpreadPod {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly constraints: readonly SpreadConstraint[];
  readonly required: NodeMatcher | undefined;
  readonly tolerations: readonly Toleration[];
}

export const REASON_SPREAD = "node(s) didn't match pod topology spread constraints";
export const REASON_SPREAD_MISSING_LABEL =
  "node(s) didn't match pod topology spread constraints (missing required label)";
export const SPREAD_NOT_MATCH = 1;
export const SPREAD_MISSING_LABEL = 2;

/**
 * The DoNotSchedule constraints, compiled; `matchLabelKeys` adds the pod's own values of those keys to the selector
 * (`mergeLabelSetWithSelector`).
 */
export function compileSpreadConstraints(
  list: readonly TopologySpreadConstraint[] | undefined,
  podLabels: Readonly<Record<string, string>>,
): SpreadConstraint[] {
  const out: SpreadConstraint[] = [];
  for (const c of list ?? []) {
    if (c.whenUnsatisfiable !== 'DoNotSchedule') continue;
    let selector: Selector;
    try {
      const sel = c.labelSelector;
      const keys = (c.matchLabelKeys ?? []).filter((k) => Object.hasOwn(podLabels, k));
      const merged =
        sel && keys.length > 0
          ? {
              ...sel,
              matchExpressions: [
                ...(sel.matchExpressions ?? []),
                ...keys.map((k) => ({ key: k, operator: 'In', values: [podLabels[k]] })),
              ],
            }
          : sel;
      selector = labelSelectorFromObject(merged);
    } catch {
      selector = NOTHING;
    }
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: c.minDomains ?? 1,
      honorAffinity: c.nodeAffinityPolicy !== 'Ignore',
      honorTaints: c.nodeTaintsPolicy === 'Honor',
    });
  }
  return out;
}

export interface SpreadState {
  readonly pod: SpreadPod;
  /**
   * Per constraint (upstream `TpValueToMatchNum`): each domain — a value of its key on a node the pod could go to —
   * with its matching pods.
   */
  readonly counts: readonly ReadonlyMap<string, number>[];
  /** Per constraint: the global minimum its skew is measured against. */
  readonly minMatch: number[];
  /** Per constraint: whether the pod matches its own selector. */
  readonly selfMatch: number[];
}

function untolerated(taints: readonly NodeTaint[], tolerations: readonly Toleration[]): boolean {
  const hard = taints.filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  return hard.length > 0 && firstUntoleratedTaint(hard, tolerations) >= 0;
}

/** The pods that may match a selector (see `SchedulerCache.candidates`); undefined: look at every pod. */
export type Candidates = (namespace: string, selector: Selector) => ReadonlySet<BoundPod> | undefined;

/**
 * Whether constraint `c` counts `node` (`nodeLabelsMatchSpreadConstraints` and `matchNodeInclusionPolicies`): it
 * carries every constraint's key and passes the node affinity (Honor) and taint (Honor) policies.
 */
function eligible(pod: SpreadPod, c: SpreadConstraint, node: NodeState): boolean {
  for (const k of pod.constraints) if (!Object.hasOwn(node.labels, k.topologyKey)) return false;
  if (c.honorAffinity && pod.required && !pod.required(node)) return false;
  if (c.honorTaints && node.taints.length > 0 && untolerated(node.taints, pod.tolerations)) return false;
  return true;
}

/**
 * `PreFilter` (`calPreFilterState`); undefined when the pod has no DoNotSchedule constraint. One pass over the nodes
 * collects each constraint's domains (a constraint honouring nothing the pod asks skips the policy checks); the
 * matching pods come from the label index (`candidates`) when the selector has an equality, else from every node.
 */
export function spreadPreFilter(
  pod: SpreadPod,
  nodes: readonly NodeState[],
  candidates?: Candidates,
): SpreadState | undefined {
  const cs = pod.constraints;
  if (cs.length === 0) return undefined;
  const counts = cs.map(() => new Map<string, number>());
  const policies = cs.map((c) => (c.honorAffinity && pod.required !== undefined) || c.honorTaints);
  const anyPolicy = policies.some((x) => x);
  const hard = cs.some((c) => c.honorTaints);
  const keys = cs.map((c) => c.topologyKey);
  nodes: for (const node of nodes) {
    const labels = node.labels;
    for (const k of keys) if (!Object.hasOwn(labels, k)) continue nodes;
    let affinityOk = true;
    let taintsOk = true;
    if (anyPolicy) {
      affinityOk = !pod.required || pod.required(node);
      taintsOk = !hard || node.taints.length === 0 || !untolerated(node.taints, pod.tolerations);
    }
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (policies[i] && ((c.honorAffinity && !affinityOk) || (c.honorTaints && !taintsOk))) continue;
      const m = counts[i];
      const value = labels[keys[i]];
      if (!m.has(value)) m.set(value, 0);
    }
  }
  cs.forEach((c, i) => {
    const m = counts[i];
    const count = (p: BoundPod) => {
      if (p.deleting || p.namespace !== pod.namespace || !c.selector.matches(p.labels)) return;
      if (!p.node.exists || !eligible(pod, c, p.node)) return;
      const v = p.node.labels[c.topologyKey];
      m.set(v, (m.get(v) ?? 0) + 1);
    };
    const some = candidates?.(pod.namespace, c.selector);
    if (some) for (const p of some) count(p);
    else for (const node of nodes) for (const p of node.pods) count(p);
  });
  const minMatch = cs.map((c, i) => minMatchOf(c, counts[i]));
  const selfMatch = cs.map((c) => (c.selector.matches(pod.labels) ? 1 : 0));
  return { pod, counts, minMatch, selfMatch };
}

/** The global minimum a constraint's skew is measured against (0 with fewer domains than `minDomains`). */
function minMatchOf(c: SpreadConstraint, counts: ReadonlyMap<string, number>): number {
  if (counts.size < c.minDomains) return 0;
  let min = Infinity;
  for (const n of counts.values()) if (n < min) min = n;
  return min === Infinity ? 0 : min;
}

/** What PodTopologySpread reads of a pod counted on a node (`AddPod`'s pod). */
export interface SpreadCountedPod {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * `AddPod` (upstream `updateWithPod` with delta 1, the critical paths updated): a copy of the state with `added`
 * counted on `node` — pods of the incoming pod's namespace matching a constraint's selector, on a node carrying every
 * key and passing that constraint's node inclusion policies. The original state is unchanged.
 */
export function spreadAddPods(s: SpreadState, node: NodeState, added: readonly SpreadCountedPod[]): SpreadState {
  const cs = s.pod.constraints;
  let counts: Map<string, number>[] | undefined;
  let minMatch: number[] | undefined;
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i];
    if (!eligible(s.pod, c, node)) continue;
    let n = 0;
    for (const p of added) if (p.namespace === s.pod.namespace && c.selector.matches(p.labels)) n++;
    if (n === 0) continue;
    counts ??= s.counts.map((m) => new Map(m));
    minMatch ??= [...s.minMatch];
    const v = node.labels[c.topologyKey];
    counts[i].set(v, (counts[i].get(v) ?? 0) + n);
    minMatch[i] = minMatchOf(c, counts[i]);
  }
  return counts && minMatch ? { ...s, counts, minMatch } : s;
}

/** `Filter`: 0, SPREAD_MISSING_LABEL (unresolvable) or SPREAD_NOT_MATCH. */
export function spreadFilter(s: SpreadState, node: NodeState): number {
  const cs = s.pod.constraints;
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i];
    const value = node.labels[c.topologyKey];
    if (value === undefined) return SPREAD_MISSING_LABEL;
    const matchNum = s.counts[i].get(value) ?? 0;
    if (matchNum + s.selfMatch[i] - s.minMatch[i] > c.maxSkew) return SPREAD_NOT_MATCH;
  }
  return 0;
}

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';

/** A ScheduleAnyway constraint (or a cluster default one). */
export interface SoftConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
  readonly honorAffinity: boolean;
  readonly honorTaints: boolean;
}

/** The cluster default constraints (`plugin.go` `systemDefaultConstraints`). */
export const SYSTEM_DEFAULT_CONSTRAINTS = [
  { maxSkew: 3, topologyKey: LABEL_HOSTNAME },
  { maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone' },
] as const;

/** The ScheduleAnyway constraints of a pod, compiled as the DoNotSchedule ones are. */
export function compileSoftConstraints(
  list: readonly TopologySpreadConstraint[] | undefined,
  podLabels: Readonly<Record<string, string>>,
): SoftConstraint[] {
  const soft = (list ?? []).filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
  return compileSpreadConstraints(
    soft.map((c) => ({ ...c, whenUnsatisfiable: 'DoNotSchedule' })),
    podLabels,
  );
}

/** The default constraints with the selector of the Services and workloads selecting the pod (`DefaultSelector`). */
export function defaultConstraints(selector: Selector | undefined): SoftConstraint[] {
  if (!selector || selector.empty) return [];
  // Written out rather than spread from the constants: the same members in the same order, without a copy loop.
  const [host, zone] = SYSTEM_DEFAULT_CONSTRAINTS;
  return [
    { maxSkew: host.maxSkew, topologyKey: host.topologyKey, selector, honorAffinity: true, honorTaints: false },
    { maxSkew: zone.maxSkew, topologyKey: zone.topologyKey, selector, honorAffinity: true, honorTaints: false },
  ];
}

/** The pod as spread scoring sees it. */
export interface SpreadScorePod {
  readonly namespace: string;
  readonly required: NodeMatcher | undefined;
  readonly tolerations: readonly Toleration[];
  /** Whether the pod declares constraints itself (then every node must carry every key). */
  readonly ownConstraints: boolean;
}

/**
 * PodTopologySpread's PreScore, Score and NormalizeScore (upstream: podtopologyspread/scoring.go): a node scores
 * `round(Σ count(domain) × ln(domains + 2) + maxSkew − 1)` over the constraints whose key it has, normalized so that
 * fewer matching pods score higher: `100 × (max + min − s) / max` (100 everywhere when max is 0); with the pod's own
 * constraints a node missing a key scores 0. Written at `out[i * stride + offset]`.
 *
 * The domains are the values of each constraint's key on the feasible nodes (`initPreScoreState`); a domain's count
 * sums the matching pods of every existing node of that value passing the constraint's node inclusion policies
 * (`PreScore`'s `processAllNode`), read from `matching` (the matching pods per node, kept incrementally by the cache)
 * so only nodes with matching pods are visited; the hostname count is the node's own (`Score`).
 */
export function spreadScores(
  pod: SpreadScorePod,
  constraints: readonly SoftConstraint[],
  feasible: readonly NodeState[],
  matching: (c: SoftConstraint) => MatchingPerNode,
  out: Int32Array,
  stride: number,
  offset: number,
): void {
  if (constraints.length === 0 || feasible.length === 0) return;
  // Plain loops over the constraints and nodes (this runs for every pod scheduled, over every feasible node).
  const requireAll = pod.ownConstraints;
  const m = constraints.length;
  const hasAllKeys = (n: NodeState): boolean => {
    for (let k = 0; k < m; k++) if (!Object.hasOwn(n.labels, constraints[k].topologyKey)) return false;
    return true;
  };
  const ignored: boolean[] = new Array<boolean>(feasible.length);
  for (let i = 0; i < feasible.length; i++) ignored[i] = requireAll && !hasAllKeys(feasible[i]);
  const hostname: boolean[] = new Array<boolean>(m);
  // upstream TopologyValueToPodCounts: per constraint, each domain of the feasible nodes with its matching pods.
  const domains: Map<string, number>[] = new Array<Map<string, number>>(m);
  for (let k = 0; k < m; k++) {
    hostname[k] = constraints[k].topologyKey === LABEL_HOSTNAME;
    domains[k] = new Map<string, number>();
  }
  let kept = 0;
  for (let i = 0; i < feasible.length; i++) {
    if (ignored[i]) continue;
    kept++;
    const labels = feasible[i].labels;
    for (let k = 0; k < m; k++) {
      if (hostname[k]) continue;
      const v = labels[constraints[k].topologyKey] ?? '';
      if (!domains[k].has(v)) domains[k].set(v, 0);
    }
  }
  const weights: number[] = new Array<number>(m);
  for (let k = 0; k < m; k++) weights[k] = Math.log((hostname[k] ? kept : domains[k].size) + 2);
  const perNode: MatchingPerNode[] = new Array<MatchingPerNode>(m);
  for (let k = 0; k < m; k++) perNode[k] = matching(constraints[k]);
  for (let k = 0; k < m; k++) {
    if (hostname[k]) continue;
    const c = constraints[k];
    const d = domains[k];
    for (const [n, count] of perNode[k]) {
      if (!n.exists || (requireAll && !hasAllKeys(n))) continue;
      if (c.honorAffinity && pod.required && !pod.required(n)) continue;
      if (c.honorTaints && n.taints.length > 0 && untolerated(n.taints, pod.tolerations)) continue;
      const v = n.labels[c.topologyKey] ?? '';
      const before = d.get(v);
      if (before !== undefined) d.set(v, before + count);
    }
  }
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < feasible.length; i++) {
    if (ignored[i]) continue;
    const n = feasible[i];
    let score = 0;
    for (let k = 0; k < m; k++) {
      const c = constraints[k];
      const v = n.labels[c.topologyKey];
      if (v === undefined) continue;
      const count = hostname[k] ? (perNode[k].get(n) ?? 0) : domains[k].get(v)!;
      score += count * weights[k] + (c.maxSkew - 1);
    }
    const s = Math.round(score);
    out[i * stride + offset] = s;
    min = Math.min(min, s);
    max = Math.max(max, s);
  }
  for (let i = 0; i < feasible.length; i++) {
    const j = i * stride + offset;
    if (ignored[i]) out[j] = 0;
    else if (max === 0) out[j] = 100;
    else out[j] = Math.trunc((100 * (max + min - out[j])) / max);
  }
}
