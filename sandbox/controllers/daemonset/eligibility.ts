/**
 * Which nodes run a DaemonSet's pod (pkg/controller/daemon/daemon_controller.go
 * `NodeShouldRunDaemonPod` and `predicates`; pkg/controller/daemon/util/
 * daemonset_util.go): the template's `nodeName`, `nodeSelector` and required
 * node affinity must fit the node, and its NoSchedule/NoExecute taints must be
 * tolerated — with the tolerations upstream adds to every daemon pod. A pod
 * stays on a node whose only untolerated taints are NoSchedule.
 */
import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type {
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  PodSpec,
  Taint,
  Toleration,
} from 'kubernetes-types/core/v1';
import { cloneJson } from '../../util/json';
import { toleratesTaint } from '../nodelifecycle/tolerations';

/** `AddOrUpdateDaemonPodTolerations`: `operator: Exists`, no `tolerationSeconds`. */
export function daemonTolerations(spec: PodSpec | undefined): Toleration[] {
  const auto: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec?.hostNetwork)
    auto.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  return addOrUpdateTolerations(spec?.tolerations ?? [], auto);
}

/** `AddOrUpdateTolerationInPodSpec` for each: one with the same key, operator, value and effect is replaced. */
function addOrUpdateTolerations(existing: readonly Toleration[], add: readonly Toleration[]): Toleration[] {
  const out = existing.map((t) => ({ ...t }));
  for (const t of add) {
    const i = out.findIndex(
      (o) =>
        o.key === t.key && (o.operator ?? 'Equal') === t.operator && (o.value ?? '') === '' && o.effect === t.effect,
    );
    if (i >= 0) out[i] = { ...t };
    else out.push({ ...t });
  }
  return out;
}

function labelRequirementMatches(r: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = labels[r.key];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(value);
    case 'NotIn':
      return !has || !values.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0])) return false;
      return r.operator === 'Gt' ? Number(value) > Number(values[0]) : Number(value) < Number(values[0]);
    }
    default:
      return false;
  }
}

function fieldRequirementMatches(r: NodeSelectorRequirement, node: Node): boolean {
  if (r.key !== 'metadata.name') return false;
  const name = node.metadata?.name ?? '';
  const values = r.values ?? [];
  if (r.operator === 'In') return values.length === 1 && values[0] === name;
  if (r.operator === 'NotIn') return values.length === 1 && values[0] !== name;
  return false;
}

/** A term with neither expressions nor fields matches nothing (`nodeaffinity.nodeSelectorTerms`). */
function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  return (
    exprs.every((r) => labelRequirementMatches(r, labels)) && fields.every((r) => fieldRequirementMatches(r, node))
  );
}

/** `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`: nodeSelector, then the required terms (ORed). */
export function fitsNodeAffinity(spec: PodSpec | undefined, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms === undefined) return true;
  return terms.some((t) => termMatches(t, node));
}

function untolerated(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  effect: (t: Taint) => boolean,
): boolean {
  return taints.some((taint) => effect(taint) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

export interface Eligibility {
  /** The node should run a daemon pod (`shouldRun`). */
  shouldRun: boolean;
  /** A daemon pod already there may stay (`shouldContinueRunning`). */
  shouldContinueRunning: boolean;
}

/** `NodeShouldRunDaemonPod`, on the test pod `NewPod(ds, node.Name)` (template plus the automatic tolerations). */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): Eligibility {
  const spec = ds.spec?.template?.spec;
  const nodeName = node.metadata?.name ?? '';
  if (spec?.nodeName && spec.nodeName !== nodeName) return { shouldRun: false, shouldContinueRunning: false };
  if (!fitsNodeAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = daemonTolerations(spec);
  const taints = node.spec?.taints ?? [];
  const blocking = (t: Taint) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';
  if (!untolerated(taints, tolerations, blocking)) return { shouldRun: true, shouldContinueRunning: true };
  return {
    shouldRun: false,
    shouldContinueRunning: !untolerated(taints, tolerations, (t) => t.effect === 'NoExecute'),
  };
}

/**
 * `ReplaceDaemonSetPodNodeNameNodeAffinity`: the pod's required node affinity becomes one term,
 * `matchFields: [{key: metadata.name, operator: In, values: [node]}]`; other affinity is kept.
 */
export function pinToNode(spec: PodSpec, nodeName: string): void {
  const term: NodeSelectorTerm = {
    matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }],
  };
  const affinity = cloneJson(spec.affinity ?? {});
  affinity.nodeAffinity = {
    ...affinity.nodeAffinity,
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] },
  };
  spec.affinity = affinity;
}

/** `GetTargetNodeName`: `spec.nodeName`, or the node the matchFields affinity names. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms?.length !== 1) return undefined;
  for (const f of terms[0].matchFields ?? [])
    if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  return undefined;
}
