/**
 * The VolumeBinding plugin (upstream: pkg/scheduler/framework/plugins/volumebinding, Kubernetes 1.32), on the
 * scheduler's informers:
 *
 * - PreFilter: every claim the pod names must exist and not be being deleted (`persistentvolumeclaim "x" not found`,
 *   `persistentvolumeclaim "x" is being deleted`), and a claim whose class binds immediately must already be bound
 *   ("pod has unbound immediate PersistentVolumeClaims") — all UnschedulableAndUnresolvable, for every node.
 * - Filter: the volumes of bound claims must admit the node by their node affinity ("node(s) had volume node
 *   affinity conflict"). Unbound WaitForFirstConsumer claims pass on every node: the sandbox's provisioner can
 *   provision anywhere (not modelled: a class without a provisioner and no matching volume, "node(s) didn't find
 *   available persistent volumes to bind", and capacity tracking).
 * - PreBind: each unbound WaitForFirstConsumer claim is annotated with `volume.kubernetes.io/selected-node`, and the
 *   pod is bound only once all its claims are Bound (upstream polls every second, up to `bindTimeoutSeconds`, 600).
 */
import type { PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { Typed } from '../api/types';
import { compileTerms } from './nodeSelector';
import type { NodeMatcher } from './nodeSelector';

export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
export const BIND_TIMEOUT_MS = 600_000;
export const BIND_POLL_MS = 1_000;

export interface VolumeLookup {
  claim(namespace: string, name: string): Typed<PersistentVolumeClaim> | undefined;
  volume(name: string): PersistentVolume | undefined;
  storageClass(name: string): StorageClass | undefined;
}

export interface VolumePlan {
  /** PreFilter's rejection message, when the pod cannot be scheduled anywhere. */
  rejection?: string;
  /** The node affinity the pod's bound volumes require; undefined when none. */
  nodes?: NodeMatcher;
  /** Unbound WaitForFirstConsumer claims to annotate with the chosen node. */
  delayed: string[];
  /** Every claim the pod names (PreBind waits for all to be Bound). */
  claims: string[];
}

/** The claim names of a pod's volumes (`persistentVolumeClaim`, and the `<pod>-<volume>` claim of an ephemeral one). */
export function podClaimNames(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral) out.push(`${pod.metadata?.name}-${v.name}`);
  }
  return out;
}

function className(pvc: PersistentVolumeClaim): string {
  return pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? '';
}

/** `PreFilter` and what `Filter` / `PreBind` need; undefined for a pod without claims (the plugin skips it). */
export function planVolumes(pod: Pod, lookup: VolumeLookup): VolumePlan | undefined {
  const names = podClaimNames(pod);
  if (names.length === 0) return undefined;
  const ns = pod.metadata?.namespace ?? 'default';
  const delayed: string[] = [];
  const matchers: NodeMatcher[] = [];
  let unboundImmediate = false;
  for (const name of names) {
    const pvc = lookup.claim(ns, name);
    if (!pvc) return { rejection: `persistentvolumeclaim "${name}" not found`, delayed, claims: names };
    if (pvc.metadata?.deletionTimestamp)
      return { rejection: `persistentvolumeclaim "${name}" is being deleted`, delayed, claims: names };
    const volumeName = pvc.spec?.volumeName;
    if (volumeName) {
      const terms = lookup.volume(volumeName)?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
      if (terms && terms.length > 0) matchers.push(compileTerms(terms));
      continue;
    }
    const cls = className(pvc);
    const mode = cls === '' ? undefined : lookup.storageClass(cls)?.volumeBindingMode;
    if (mode === 'WaitForFirstConsumer') delayed.push(name);
    else unboundImmediate = true;
  }
  if (unboundImmediate) return { rejection: UNBOUND_IMMEDIATE, delayed, claims: names };
  const nodes: NodeMatcher | undefined = matchers.length === 0 ? undefined : (n) => matchers.every((m) => m(n));
  return { nodes, delayed, claims: names };
}

/** PreBind's wait: true once every claim is Bound. */
export function claimsBound(namespace: string, claims: readonly string[], lookup: VolumeLookup): boolean {
  return claims.every((name) => {
    const pvc = lookup.claim(namespace, name);
    return pvc !== undefined && !!pvc.spec?.volumeName && pvc.status?.phase === 'Bound';
  });
}
