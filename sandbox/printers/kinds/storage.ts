/** `kubectl get pv,storageclass` (upstream `printPersistentVolume`, `printStorageClass`) */
import type { PersistentVolume } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { Typed } from '../../api/types';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, wide } from '../table';
import { accessModes } from './config';

export const persistentVolumePrinter: KindPrinter<Typed<PersistentVolume>> = {
  columns: [
    NAME_COLUMN,
    col(
      'Capacity',
      'string',
      "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
    ),
    col(
      'Access Modes',
      'string',
      'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
    ),
    col(
      'Reclaim Policy',
      'string',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
    ),
    col(
      'Status',
      'string',
      'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
    ),
    col(
      'Claim',
      'string',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
    ),
    col('StorageClass', 'string', 'StorageClass of the pv'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    col(
      'Reason',
      'string',
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    ),
    AGE_COLUMN,
    wide(
      'VolumeMode',
      'string',
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
    ),
  ],
  row(pv: Typed<PersistentVolume>, now: number): TableCell[] {
    const spec = pv.spec;
    const ref = spec?.claimRef;
    return [
      pv.metadata.name ?? '',
      spec?.capacity?.storage ?? '',
      accessModes(spec?.accessModes),
      spec?.persistentVolumeReclaimPolicy ?? '',
      pv.metadata.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? ''),
      ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : '',
      pv.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? spec?.storageClassName ?? '',
      spec?.volumeAttributesClassName ?? '<unset>',
      pv.status?.reason ?? '',
      age(pv, now),
      spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const storageClassPrinter: KindPrinter<Typed<StorageClass>> = {
  columns: [
    NAME_COLUMN,
    col('Provisioner', 'string', 'Indicates the type of the provisioner.'),
    col('ReclaimPolicy', 'string', 'Indicates the type of the reclaim policy.'),
    col('VolumeBindingMode', 'string', 'Indicates the binding mode of the volume.'),
    col('AllowVolumeExpansion', 'string', 'Indicates whether the storage class allow volume expand.'),
    AGE_COLUMN,
  ],
  row(sc: Typed<StorageClass>, now: number): TableCell[] {
    const annotations = sc.metadata.annotations ?? {};
    // `IsDefaultAnnotation`: the GA annotation or the beta one.
    const isDefault =
      annotations['storageclass.kubernetes.io/is-default-class'] === 'true' ||
      annotations['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
    return [
      isDefault ? `${sc.metadata.name} (default)` : (sc.metadata.name ?? ''),
      sc.provisioner,
      sc.reclaimPolicy ?? 'Delete',
      sc.volumeBindingMode ?? 'Immediate',
      // upstream's cell is a Go bool; the sandbox's cells are strings and numbers, so it is printed text here.
      String(sc.allowVolumeExpansion ?? false),
      age(sc, now),
    ];
  },
};
