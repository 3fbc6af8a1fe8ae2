/**
 * DefaultPreemption's dry run (upstream: pkg/scheduler/framework/plugins/
 * defaultpreemption/default_preemption.go `SelectVictimsOnNode`, and
 * pkg/scheduler/framework/preemption/preemption.go `DryRunPreemption`,
 * `SelectCandidate` / `pickOneNodeForPreemption`). On every node where
 * removing pods might help, take away all pods of lower priority; if the pod
 * then fits, give back as many as possible (those whose eviction would
 * violate a PodDisruptionBudget first, each group from the highest priority
 * down) and the rest are the victims. The best candidate has the fewest PDB
 * violations, then the lowest highest-victim priority, the lowest priority
 * sum, the fewest victims, the latest start among the highest-priority
 * victims. Pure on the cache: every change is undone before it returns.
 *
 * Not modelled: nominated pods of other preemptors counted on their node
 * (`RunFilterPluginsWithNominatedPods`), and extenders.
 */
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { labelSelectorMatches } from '../api/selectors/labelSelector';
import type { CycleState } from './filters';
import { filterNode, isUnresolvable, verdictReasons } from './filters';
import { taintIndexOf } from './filters';
import { NO_PREEMPTION_VICTIMS, PREEMPTION_NOT_HELPFUL } from './fitError';
import type { BoundPod, NodeState } from './nodeState';
import type { PodInfo } from './podInfo';

export interface Candidate {
  readonly node: NodeState;
  readonly victims: readonly BoundPod[];
  readonly pdbViolations: number;
}

export interface PreemptionResult {
  /** The chosen candidate; undefined when none. */
  readonly candidate: Candidate | undefined;
  /** Per-node reason counts for the message when there is no candidate. */
  readonly reasons: Map<string, number>;
}

/** `MoreImportantPod`: higher priority first, then the one that started earlier. */
function moreImportant(a: BoundPod, b: BoundPod): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  const sa = startTime(a);
  const sb = startTime(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function startTime(p: BoundPod): string {
  return p.pod.status?.startTime ?? p.pod.metadata?.creationTimestamp ?? '';
}

function bump(m: Map<string, number>, reason: string): void {
  m.set(reason, (m.get(reason) ?? 0) + 1);
}

/**
 * `filterPodsWithPDBViolation`: a pod is violating when a PDB in its namespace selects it and allows no more
 * disruptions (counting the victims already taken from that PDB in this pass).
 */
function splitByPdb(pods: readonly BoundPod[], pdbs: readonly PodDisruptionBudget[]): [BoundPod[], BoundPod[]] {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const violating: BoundPod[] = [];
  const fine: BoundPod[] = [];
  for (const p of pods) {
    let violates = false;
    pdbs.forEach((pdb, i) => {
      if (pdb.metadata?.namespace !== p.namespace) return;
      const sel = pdb.spec?.selector;
      // A PDB with an empty selector selects nothing here (upstream skips it).
      if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0))
        return;
      if (!labelSelectorMatches(sel, p.labels)) return;
      if (p.pod.status?.conditions?.some((c) => c.type === 'DisruptionTarget' && c.status === 'True')) return;
      allowed[i]--;
      if (allowed[i] < 0) violates = true;
    });
    (violates ? violating : fine).push(p);
  }
  return [violating, fine];
}

/**
 * Runs the dry run over the nodes a cycle rejected. `verdicts[i]` is the verdict for `nodes[i]`; `recompute` rebuilds
 * the PreFilter state after pods were taken off or put back (InterPodAffinity and PodTopologySpread count them).
 */
export function findCandidate(
  pod: PodInfo,
  nodes: readonly NodeState[],
  verdicts: ArrayLike<number>,
  pdbs: readonly PodDisruptionBudget[],
  recompute: () => CycleState,
  tooSmallIsUnresolvable: boolean,
): PreemptionResult {
  const reasons = new Map<string, number>();
  const candidates: Candidate[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (isUnresolvable(verdicts[i], tooSmallIsUnresolvable)) {
      bump(reasons, PREEMPTION_NOT_HELPFUL);
      continue;
    }
    const potential = [...node.pods].filter((p) => p.priority < pod.priority);
    if (potential.length === 0) {
      bump(reasons, NO_PREEMPTION_VICTIMS);
      continue;
    }
    for (const p of potential) node.attach(p, -1);
    const v = filterNode(pod, node, recompute());
    if (v !== 0) {
      for (const p of potential) node.attach(p, 1);
      const taint = node.taints[taintIndexOf(v)]?.reason ?? '';
      for (const r of verdictReasons(v, taint)) bump(reasons, r);
      continue;
    }
    potential.sort(moreImportant);
    const [violating, fine] = splitByPdb(potential, pdbs);
    const victims: BoundPod[] = [];
    let pdbViolations = 0;
    const reprieve = (p: BoundPod): boolean => {
      node.attach(p, 1);
      if (filterNode(pod, node, recompute()) === 0) return true;
      node.attach(p, -1);
      victims.push(p);
      return false;
    };
    for (const p of violating) if (!reprieve(p)) pdbViolations++;
    for (const p of fine) reprieve(p);
    for (const p of victims) node.attach(p, 1);
    candidates.push({ node, victims, pdbViolations });
  }
  return { candidate: pickOne(candidates), reasons };
}

/** `pickOneNodeForPreemption`. */
function pickOne(candidates: Candidate[]): Candidate | undefined {
  if (candidates.length === 0) return undefined;
  const keyOf = (c: Candidate) => {
    const top = c.victims.length === 0 ? -Infinity : Math.max(...c.victims.map((v) => v.priority));
    const sum = c.victims.reduce((s, v) => s + v.priority + 2_147_483_648, 0);
    const latest = c.victims
      .filter((v) => v.priority === top)
      .map(startTime)
      .sort()[0];
    return { top, sum, latest: latest ?? '' };
  };
  let best = candidates[0];
  let bk = keyOf(best);
  for (const c of candidates.slice(1)) {
    const k = keyOf(c);
    const better =
      c.pdbViolations !== best.pdbViolations
        ? c.pdbViolations < best.pdbViolations
        : k.top !== bk.top
          ? k.top < bk.top
          : k.sum !== bk.sum
            ? k.sum < bk.sum
            : c.victims.length !== best.victims.length
              ? c.victims.length < best.victims.length
              : k.latest > bk.latest;
    if (better) {
      best = c;
      bk = k;
    }
  }
  return best;
}
