/**
 * A StatefulSet pod's identity (pkg/controller/statefulset/stateful_set_utils.go):
 * its name `<set>-<ordinal>`, hostname and subdomain, the labels that name it,
 * its PersistentVolumeClaims `<claim>-<set>-<ordinal>`, and the revision it
 * was made from.
 */
import type { StatefulSet } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, Volume } from 'kubernetes-types/core/v1';
import { asResource } from '../../api/resourceObjects';
import type { KubeObject, Typed } from '../../api/types';
import { cloneJson } from '../../util/json';
import { podFromTemplate } from '../replicaset/podTemplate';
import { newControllerRef } from '../util/owners';

export type Sts = Typed<StatefulSet>;

/** `apps.StatefulSetPodNameLabel`. */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** `apps.PodIndexLabel` (PodIndexLabel, GA in 1.32). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** `apps.StatefulSetRevisionLabel` (`ControllerRevisionHashLabelKey`): the full revision name. */
export const REVISION_LABEL = 'controller-revision-hash';

/** `statefulPodRegex`. */
const STATEFUL_POD = /^(.*)-([0-9]+)$/;
const MAX_INT32 = 2 ** 31 - 1;

/** `getParentNameAndOrdinal`: the set a pod's name points to and its ordinal (-1 when the name has none). */
export function parentAndOrdinal(pod: { metadata?: { name?: string } }): { parent: string; ordinal: number } {
  const m = STATEFUL_POD.exec(pod.metadata?.name ?? '');
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  return { parent: m[1], ordinal: Number.isSafeInteger(n) && n <= MAX_INT32 ? n : -1 };
}

export function ordinalOf(pod: Pod): number {
  return parentAndOrdinal(pod).ordinal;
}

export function replicasOf(set: StatefulSet): number {
  return set.spec?.replicas ?? 1;
}

/** `getStartOrdinal`: `spec.ordinals.start`, or 0. */
export function startOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals?.start ?? 0;
}

/** `getEndOrdinal` (inclusive). */
export function endOrdinal(set: StatefulSet): number {
  return startOrdinal(set) + replicasOf(set) - 1;
}

/** `podInOrdinalRange`. */
export function inOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const o = ordinalOf(pod);
  return o >= startOrdinal(set) && o <= endOrdinal(set);
}

export function podName(set: Sts, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

/** `getPersistentVolumeClaimName`. */
export function claimName(set: Sts, template: string, ordinal: number): string {
  return `${template}-${set.metadata.name}-${ordinal}`;
}

/** `isMemberOf`: the pod's name points to the set. */
export function isMemberOf(set: Sts, pod: Pod): boolean {
  return parentAndOrdinal(pod).parent === set.metadata.name;
}

/** `identityMatches`. */
export function identityMatches(set: Sts, pod: Pod): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    parent === set.metadata.name &&
    pod.metadata?.name === podName(set, ordinal) &&
    pod.metadata?.namespace === set.metadata.namespace &&
    pod.metadata?.labels?.[POD_NAME_LABEL] === pod.metadata?.name
  );
}

/** `storageMatches`: every claim template has its volume, naming the pod's claim. */
export function storageMatches(set: Sts, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  for (const t of set.spec?.volumeClaimTemplates ?? []) {
    const name = t.metadata?.name ?? '';
    if (volumes.get(name)?.persistentVolumeClaim?.claimName !== claimName(set, name, ordinal)) return false;
  }
  return true;
}

/**
 * `getPersistentVolumeClaims`: the claims of the pod with `ordinal`, in template order — each template with the
 * pod's claim name, the set's namespace, and the selector's labels over the template's.
 */
export function claimsFor(set: Sts, ordinal: number): { template: string; claim: Typed<PersistentVolumeClaim> }[] {
  return (set.spec?.volumeClaimTemplates ?? []).map((t) => {
    const template = t.metadata?.name ?? '';
    const meta = t.metadata;
    const claim: Typed<PersistentVolumeClaim> = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: claimName(set, template, ordinal),
        namespace: set.metadata.namespace,
        labels: { ...meta?.labels, ...set.spec?.selector?.matchLabels },
        ...(meta?.annotations ? { annotations: { ...meta.annotations } } : {}),
        ...(meta?.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      },
      spec: cloneJson(t.spec ?? {}),
    };
    return { template, claim };
  });
}

/** `updateStorage`: the claims' volumes first (in template order), then the pod's other volumes. */
export function updateStorage(set: Sts, pod: Pod): void {
  const ordinal = ordinalOf(pod);
  const claims = claimsFor(set, ordinal);
  const names = new Set(claims.map((c) => c.template));
  const volumes: Volume[] = claims.map((c) => ({
    name: c.template,
    persistentVolumeClaim: { claimName: c.claim.metadata.name ?? '' },
  }));
  for (const v of pod.spec?.volumes ?? []) if (!names.has(v.name)) volumes.push(v);
  if (pod.spec) pod.spec.volumes = volumes;
}

/** `updateIdentity`: name, namespace, and the pod-name and pod-index labels. */
export function updateIdentity(set: Sts, pod: Pod & KubeObject): void {
  const ordinal = ordinalOf(pod);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  pod.metadata.labels = {
    ...pod.metadata.labels,
    [POD_NAME_LABEL]: pod.metadata.name,
    [POD_INDEX_LABEL]: String(ordinal),
  };
}

/** `getPodRevision`. */
export function podRevision(pod: Pod): string {
  return pod.metadata?.labels?.[REVISION_LABEL] ?? '';
}

/**
 * `newStatefulSetPod`: the template's pod (`generateName: <set>-`, as `GetPodFromTemplate` leaves it), named for
 * `ordinal`, with hostname and subdomain set once at creation (`initIdentity`) and the claims' volumes.
 */
export function newStatefulSetPod(set: Sts, ordinal: number): Typed<Pod> {
  const pod = asResource('pods', podFromTemplate(set.spec?.template ?? {}, set, newControllerRef(set)));
  pod.metadata.name = podName(set, ordinal);
  updateIdentity(set, pod);
  pod.spec!.hostname = pod.metadata.name;
  const service = set.spec?.serviceName;
  if (service) pod.spec!.subdomain = service;
  updateStorage(set, pod);
  return pod;
}

/**
 * `newVersionedStatefulSetPod`: ordinals below the partition (or, with `type: RollingUpdate` and no `rollingUpdate`,
 * below `start + status.currentReplicas`) are made from the current revision, the others from the update revision.
 * Go's precedence — `a && b || c` — is kept.
 */
export function newVersionedPod(
  currentSet: Sts,
  updateSet: Sts,
  currentRevision: string,
  updateRevision: string,
  ordinal: number,
): Typed<Pod> {
  const strategy = currentSet.spec?.updateStrategy;
  const start = startOrdinal(currentSet);
  const useCurrent =
    (strategy?.type === 'RollingUpdate' &&
      strategy.rollingUpdate === undefined &&
      ordinal < start + (currentSet.status?.currentReplicas ?? 0)) ||
    (strategy?.rollingUpdate !== undefined && ordinal < start + (strategy.rollingUpdate.partition ?? 0));
  const pod = newStatefulSetPod(useCurrent ? currentSet : updateSet, ordinal);
  pod.metadata.labels = { ...pod.metadata.labels, [REVISION_LABEL]: useCurrent ? currentRevision : updateRevision };
  return pod;
}
