/**
 * How many pods a PodDisruptionBudget expects and how many must stay healthy
 * (pkg/controller/disruption/disruption.go: `getExpectedPodCount`,
 * `getExpectedScale` and the controller finders). An integer `minAvailable`
 * counts the selected pods; `maxUnavailable` and a percentage `minAvailable`
 * need the scale of the pods' controllers — a Deployment (through its
 * ReplicaSet), a ReplicaSet, a StatefulSet, a ReplicationController, or any
 * kind with a `/scale` subresource. Pods without a controller are left out
 * (and reported), a controller without a scale is an error.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import { qualifiedResource, resourceFor } from '../../api/resources';
import type { KubeObject, OwnerReference } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import { controllerRefOf } from '../util/owners';

/** Looks a workload up in an informer cache by `namespace/name`. */
export type CacheLookup = (key: string) => KubeObject | undefined;

/** The caches the finders read; `replicationControllers` is absent while the kind is not served. */
export interface ControllerCaches {
  replicaSets: CacheLookup;
  deployments: CacheLookup;
  statefulSets: CacheLookup;
  replicationControllers?: CacheLookup;
}

export interface ExpectedPods {
  expectedCount: number;
  desiredHealthy: number;
  /** Names of selected pods without a controller (an `UnmanagedPods` warning). */
  unmanagedPods: string[];
}

/** `intstr.GetScaledValueFromIntOrPercent(value, total, roundUp)`. */
export function scaledValue(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const text = value.slice(0, -1);
  const n = Number(text);
  if (text === '' || !Number.isInteger(n))
    throw new Error(
      `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${text}": invalid syntax`,
    );
  const scaled = (n * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

function groupOf(ref: OwnerReference): string {
  return parseApiVersion(ref.apiVersion).group;
}

function replicasOf(obj: KubeObject): number {
  return (obj.spec as { replicas?: number } | undefined)?.replicas ?? 1;
}

interface Scale {
  uid: string;
  scale: number;
}

type Finder = (ref: OwnerReference, namespace: string) => Scale | undefined;

export class ExpectedPodCounter {
  constructor(
    private readonly api: ApiServer,
    private readonly caches: ControllerCaches,
  ) {}

  /** `getExpectedPodCount`. Throws what upstream reports as CalculateExpectedPodCountFailed. */
  expectedPods(pdb: PodDisruptionBudget, pods: readonly Pod[]): ExpectedPods {
    const spec = pdb.spec ?? {};
    if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
      const { expectedCount, unmanagedPods } = this.expectedScale(pods);
      const maxUnavailable = scaledValue(spec.maxUnavailable, expectedCount, true);
      return { expectedCount, desiredHealthy: Math.max(0, expectedCount - maxUnavailable), unmanagedPods };
    }
    if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
      if (typeof spec.minAvailable === 'number')
        return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
      const { expectedCount, unmanagedPods } = this.expectedScale(pods);
      return { expectedCount, desiredHealthy: scaledValue(spec.minAvailable, expectedCount, true), unmanagedPods };
    }
    return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
  }

  /** `getExpectedScale`: the sum of the scales of the distinct controllers of `pods`. */
  private expectedScale(pods: readonly Pod[]): { expectedCount: number; unmanagedPods: string[] } {
    const controllerScale = new Map<string, number>();
    const unmanagedPods: string[] = [];
    for (const pod of pods) {
      const ref = controllerRefOf(pod as KubeObject);
      if (!ref) {
        unmanagedPods.push(pod.metadata?.name ?? '');
        continue;
      }
      if (controllerScale.has(ref.uid)) continue;
      let found: Scale | undefined;
      for (const finder of this.finders()) {
        found = finder(ref, pod.metadata?.namespace ?? '');
        if (found) break;
      }
      if (!found) throw new Error(`found no controllers for pod "${pod.metadata?.name}"`);
      controllerScale.set(found.uid, found.scale);
    }
    let expectedCount = 0;
    for (const n of controllerScale.values()) expectedCount += n;
    return { expectedCount, unmanagedPods };
  }

  /** In upstream's order: ReplicationController, Deployment, ReplicaSet, StatefulSet, then any `/scale`. */
  private finders(): Finder[] {
    return [
      (ref, ns) => this.replicationController(ref, ns),
      (ref, ns) => this.deployment(ref, ns),
      (ref, ns) => this.replicaSet(ref, ns),
      (ref, ns) => this.statefulSet(ref, ns),
      (ref, ns) => this.scaleController(ref, ns),
    ];
  }

  private owned(lookup: CacheLookup | undefined, ref: OwnerReference, ns: string): KubeObject | undefined {
    const obj = lookup?.(`${ns}/${ref.name}`);
    return obj && obj.metadata.uid === ref.uid ? obj : undefined;
  }

  private replicationController(ref: OwnerReference, ns: string): Scale | undefined {
    if (ref.kind !== 'ReplicationController' || groupOf(ref) !== '') return undefined;
    const rc = this.owned(this.caches.replicationControllers, ref, ns);
    return rc && { uid: rc.metadata.uid!, scale: replicasOf(rc) };
  }

  /** `getPodDeployment`: the Deployment above the pod's ReplicaSet. */
  private deployment(ref: OwnerReference, ns: string): Scale | undefined {
    if (ref.kind !== 'ReplicaSet' || !['apps', 'extensions'].includes(groupOf(ref))) return undefined;
    const rs = this.owned(this.caches.replicaSets, ref, ns);
    const dref = rs && controllerRefOf(rs);
    if (!dref || dref.kind !== 'Deployment' || !['apps', 'extensions'].includes(groupOf(dref))) return undefined;
    const d = this.owned(this.caches.deployments, dref, ns);
    return d && { uid: d.metadata.uid!, scale: replicasOf(d) };
  }

  /** `getPodReplicaSet`: a ReplicaSet no Deployment controls. */
  private replicaSet(ref: OwnerReference, ns: string): Scale | undefined {
    if (ref.kind !== 'ReplicaSet' || !['apps', 'extensions'].includes(groupOf(ref))) return undefined;
    const rs = this.owned(this.caches.replicaSets, ref, ns);
    if (!rs || controllerRefOf(rs)?.kind === 'Deployment') return undefined;
    return { uid: rs.metadata.uid!, scale: replicasOf(rs) };
  }

  private statefulSet(ref: OwnerReference, ns: string): Scale | undefined {
    if (ref.kind !== 'StatefulSet' || groupOf(ref) !== 'apps') return undefined;
    const ss = this.owned(this.caches.statefulSets, ref, ns);
    return ss && { uid: ss.metadata.uid!, scale: replicasOf(ss) };
  }

  /** `getScaleController`: any kind served with a `/scale` subresource, read through it. */
  private scaleController(ref: OwnerReference, ns: string): Scale | undefined {
    const r = resourceFor(ref.apiVersion, ref.kind);
    if (!r) throw new Error(`no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`);
    if (!r.scaleSubresource) throw new Error(`${qualifiedResource(r)} does not implement the scale subresource`);
    let scale: KubeObject;
    try {
      scale = this.api.getScale(r, ns, ref.name);
    } catch (e) {
      if (isApiError(e, 404)) return undefined;
      throw e;
    }
    if (scale.metadata.uid !== ref.uid) return undefined;
    return { uid: ref.uid, scale: (scale.spec as { replicas?: number }).replicas ?? 0 };
  }
}
