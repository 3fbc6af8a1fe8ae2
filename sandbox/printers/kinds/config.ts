/** `kubectl get configmaps,secrets,serviceaccounts,pvc` (upstream `printConfigMap`, `printSecret`, …). */
import type { ConfigMap, PersistentVolumeClaim, Secret, ServiceAccount } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, wide } from '../table';

const count = (o: object | undefined): number => Object.keys(o ?? {}).length;

export const configMapPrinter: KindPrinter<Typed<ConfigMap>> = {
  columns: [NAME_COLUMN, col('Data', 'string', 'Data contains the configuration data.'), AGE_COLUMN],
  row(cm: Typed<ConfigMap>, now: number): TableCell[] {
    return [cm.metadata.name ?? '', count(cm.data) + count(cm.binaryData), age(cm, now)];
  },
};

export const secretPrinter: KindPrinter<Typed<Secret>> = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    col('Data', 'string', 'Data contains the secret data.'),
    AGE_COLUMN,
  ],
  row(s: Typed<Secret>, now: number): TableCell[] {
    return [s.metadata.name ?? '', s.type ?? '', count(s.data), age(s, now)];
  },
};

export const serviceAccountPrinter: KindPrinter<Typed<ServiceAccount>> = {
  columns: [
    NAME_COLUMN,
    col(
      'Secrets',
      'string',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
    ),
    AGE_COLUMN,
  ],
  row(obj: Typed<ServiceAccount>, now: number): TableCell[] {
    return [obj.metadata.name ?? '', obj.secrets?.length ?? 0, age(obj, now)];
  },
};

const ACCESS_MODES: readonly [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** `GetAccessModesAsString`: `RWO,RWX` in a fixed order. */
export function accessModes(modes: readonly string[] | undefined): string {
  return ACCESS_MODES.filter(([mode]) => (modes ?? []).includes(mode))
    .map(([, short]) => short)
    .join(',');
}

export const pvcPrinter: KindPrinter<Typed<PersistentVolumeClaim>> = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    col('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    col('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    col('Access Modes', 'string', 'accessModes contains the actual access modes the volume backing the PVC has.'),
    col('StorageClass', 'string', 'StorageClass of the pvc'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE_COLUMN,
    wide('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim.'),
  ],
  row(pvc: Typed<PersistentVolumeClaim>, now: number): TableCell[] {
    const spec = pvc.spec;
    const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? '');
    const bound = !!spec?.volumeName;
    const storageClass =
      pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? spec?.storageClassName ?? '';
    return [
      pvc.metadata.name ?? '',
      phase,
      spec?.volumeName ?? '',
      bound ? (pvc.status?.capacity?.storage ?? '') : '',
      bound ? accessModes(pvc.status?.accessModes) : '',
      storageClass,
      spec?.volumeAttributesClassName ?? '<unset>',
      age(pvc, now),
      spec?.volumeMode ?? '<unset>',
    ];
  },
};
