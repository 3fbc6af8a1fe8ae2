/**
 * Which PersistentVolume a claim can bind to (upstream: pkg/controller/volume/persistentvolume/index.go
 * `findMatchingVolume`, `checkVolumeModeMismatches`; pkg/volume/util `CheckNodeAffinity`): same class, the claim's
 * access modes all offered, enough capacity, the same volume mode, the claim's selector matching the volume's labels,
 * a volume pre-bound to the claim first, then the smallest that fits.
 */
import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../api/quantity';
import { labelSelectorMatches } from '../../api/selectors/labelSelector';

export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** The claim's class: the beta annotation, else `spec.storageClassName` (`GetPersistentVolumeClaimClass`). */
export function claimClass(pvc: PersistentVolumeClaim): string {
  return pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? '';
}

export function volumeClass(pv: PersistentVolume): string {
  return pv.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pv.spec?.storageClassName ?? '';
}

/** Bytes of a quantity (0 when absent or unreadable). */
export function bytes(q: string | number | undefined): bigint {
  if (q === undefined) return 0n;
  const parsed = parseQuantity(q);
  return parsed ? parsed.nanos / 1_000_000_000n : 0n;
}

/** `nodeSelectorTerms` of the volume's required node affinity admit a node with these labels. */
export function volumeFitsNode(pv: PersistentVolume, nodeName: string, labels: Record<string, string>): boolean {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms || terms.length === 0) return true;
  const all: Record<string, string> = {
    ...labels,
    'kubernetes.io/hostname': labels['kubernetes.io/hostname'] ?? nodeName,
  };
  return terms.some((t) =>
    (t.matchExpressions ?? []).every((e) => {
      const v = all[e.key];
      switch (e.operator) {
        case 'In':
          return v !== undefined && (e.values ?? []).includes(v);
        case 'NotIn':
          return v === undefined || !(e.values ?? []).includes(v);
        case 'Exists':
          return v !== undefined;
        case 'DoesNotExist':
          return v === undefined;
        default:
          return false;
      }
    }),
  );
}

/**
 * `findMatchingVolume`: the best volume for the claim among `volumes`, or undefined. With `node`, volumes whose node
 * affinity excludes it are skipped (delayed binding, as the scheduler's VolumeBinding plugin asks).
 */
export function findMatchingVolume<V extends PersistentVolume>(
  pvc: PersistentVolumeClaim,
  volumes: readonly V[],
  node?: { name: string; labels: Record<string, string> },
): V | undefined {
  const requested = bytes(pvc.spec?.resources?.requests?.storage);
  const cls = claimClass(pvc);
  const modes = pvc.spec?.accessModes ?? [];
  const mode = pvc.spec?.volumeMode ?? 'Filesystem';
  let best: V | undefined;
  let bestSize = 0n;
  for (const pv of volumes) {
    if (pv.metadata?.deletionTimestamp) continue;
    const ref = pv.spec?.claimRef;
    const preBound =
      ref !== undefined &&
      ref.name === pvc.metadata?.name &&
      (ref.namespace ?? '') === (pvc.metadata?.namespace ?? '') &&
      (ref.uid === undefined || ref.uid === pvc.metadata?.uid);
    if (ref !== undefined && !preBound) continue;
    if (pv.status?.phase !== undefined && pv.status.phase !== 'Available' && !preBound) continue;
    if ((pv.spec?.volumeMode ?? 'Filesystem') !== mode) continue;
    const size = bytes(pv.spec?.capacity?.storage);
    if (size < requested) continue;
    if (volumeClass(pv) !== cls) continue;
    const offered = pv.spec?.accessModes ?? [];
    if (!modes.every((m) => offered.includes(m))) continue;
    if (pvc.spec?.selector && !labelSelectorMatches(pvc.spec.selector, pv.metadata?.labels ?? {})) continue;
    if (node && !volumeFitsNode(pv, node.name, node.labels)) continue;
    if (preBound) return pv;
    if (best === undefined || size < bestSize) {
      best = pv;
      bestSize = size;
    }
  }
  return best;
}
