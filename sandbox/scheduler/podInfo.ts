/**
 * Everything the filters and scores need from a pod, computed once per pod
 * (upstream's PodInfo + PreFilter state): parsed requests, host ports,
 * tolerations, compiled node selectors.
 */
import type { Pod, Toleration } from 'kubernetes-types/core/v1';
import { objectKey } from '../client/cache';
import type { ObjectsByResource } from '../api/resourceObjects';
import type { AffinityTerm, WeightedAffinityTerm } from './affinityTerm';
import { compileAffinityTerms, compileWeightedTerms } from './affinityTerm';
import type { NodeMatcher } from './nodeSelector';
import type { HostPort } from './nodeState';

export type { HostPort } from './nodeState';
import { compileTerm, compileTerms } from './nodeSelector';
import type { Requests } from './podRequests';
import { podRequests } from './podRequests';
import type { SoftConstraint, SpreadConstraint } from './topologySpread';
import { compileSoftConstraints, compileSpreadConstraints } from './topologySpread';

export interface PreferredTerm {
  readonly weight: number;
  readonly matches: NodeMatcher;
}

export interface PodInfo {
  readonly key: string;
  readonly uid: string;
  readonly priority: number;
  /** Requests for NodeResourcesFit and BalancedAllocation (missing = 0). */
  readonly requests: Requests;
  /** Requests for LeastAllocated (missing container requests = 100m / 200Mi). */
  readonly nonZero: Requests;
  readonly hostPorts: readonly HostPort[];
  readonly tolerations: readonly Toleration[];
  /** Tolerations with effect '' or PreferNoSchedule (TaintToleration scoring). */
  readonly preferTolerations: readonly Toleration[];
  /** `spec.nodeName` asked for (NodeName filter); '' for none. */
  readonly nodeName: string;
  /** nodeSelector and required node affinity together; undefined when the pod has neither. */
  readonly required: NodeMatcher | undefined;
  readonly preferred: readonly PreferredTerm[];
  readonly preemptNever: boolean;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Required pod affinity and anti-affinity terms (InterPodAffinity). */
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  /** Preferred pod affinity and anti-affinity terms (InterPodAffinity's score). */
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
  /** Whether the pod has any pod affinity or anti-affinity. */
  readonly hasPodAffinity: boolean;
  /** The DoNotSchedule topology spread constraints. */
  readonly constraints: readonly SpreadConstraint[];
  /** The ScheduleAnyway ones (PodTopologySpread's score). */
  readonly softConstraints: readonly SoftConstraint[];
  /** Whether the pod declares topology spread constraints at all (else the cluster defaults score). */
  readonly ownConstraints: boolean;
  /** The object this was computed from. */
  readonly pod: Pod;
  /** VolumeBinding's Filter: the node affinity of the pod's bound volumes, set each cycle (volumeBinding.ts). */
  volumeNodes?: NodeMatcher;
}

/** No host ports: one shared, frozen empty list (most pods have none; issue 16: a list per counted pod otherwise). */
const NO_HOST_PORTS: readonly HostPort[] = Object.freeze([]);

/** Bound pods only need what the node accounting uses. */
export function podHostPorts(pod: Pod): readonly HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocolPort: `${p.protocol || 'TCP'}/${p.hostPort}` });
    }
  }
  return out.length === 0 ? NO_HOST_PORTS : out;
}

function requiredMatcher(pod: Pod): NodeMatcher | undefined {
  const selector = Object.entries(pod.spec?.nodeSelector ?? {});
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const affinity = terms ? compileTerms(terms) : undefined;
  if (selector.length === 0) return affinity;
  return (n) => {
    for (const [k, v] of selector) if (n.labels[k] !== v || !Object.hasOwn(n.labels, k)) return false;
    return affinity ? affinity(n) : true;
  };
}

export function newPodInfo(pod: ObjectsByResource['pods']): PodInfo {
  const spec = pod.spec;
  const tolerations = spec?.tolerations ?? [];
  const preferred = (spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    .filter((t) => t.weight !== 0)
    .map((t) => ({ weight: t.weight, matches: compileTerm(t.preference) }));
  const namespace = pod.metadata.namespace ?? '';
  const labels = pod.metadata.labels ?? {};
  const affinity = spec?.affinity;
  return {
    key: objectKey(pod),
    uid: pod.metadata.uid ?? '',
    priority: spec?.priority ?? 0,
    requests: podRequests(spec),
    nonZero: podRequests(spec, true),
    hostPorts: podHostPorts(pod),
    tolerations,
    preferTolerations: tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule'),
    nodeName: spec?.nodeName ?? '',
    required: requiredMatcher(pod),
    preferred,
    preemptNever: spec?.preemptionPolicy === 'Never',
    namespace,
    labels,
    requiredAffinity: compileAffinityTerms(
      affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      namespace,
    ),
    requiredAntiAffinity: compileAffinityTerms(
      affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      namespace,
    ),
    preferredAffinity: compileWeightedTerms(
      affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
      namespace,
    ),
    preferredAntiAffinity: compileWeightedTerms(
      affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
      namespace,
    ),
    hasPodAffinity: affinity?.podAffinity !== undefined || affinity?.podAntiAffinity !== undefined,
    constraints: compileSpreadConstraints(spec?.topologySpreadConstraints, labels),
    softConstraints: compileSoftConstraints(spec?.topologySpreadConstraints, labels),
    ownConstraints: (spec?.topologySpreadConstraints ?? []).length > 0,
    pod,
  };
}
