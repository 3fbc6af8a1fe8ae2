/** Pod volumes and volume mounts (core validation `validateVolumes`, `validateVolumeMounts`). */
import type { KubeObject } from '../../../api/types';
import { containersOf } from '../../podSpecs';
import { arr, isObj, obj, str } from '../access';
import { duplicate, forbidden, invalid, notFound, required, type FieldError } from '../fieldError';
import { isDns1123Label } from '../../../api/names';
import { podSpecRule } from '../podSpecRule';

const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];

export const podVolumeName = podSpecRule(
  'pod-volume-name',
  'Volume names are required, DNS-1123 labels and unique.',
  ({ spec, path }) => {
    const code = 'pod-volume-name';
    const errs: FieldError[] = [];
    const seen = new Set<string>();
    arr(spec, 'volumes').forEach((v, i) => {
      const name = str(v, 'name') ?? '';
      const field = `${path}.volumes[${i}].name`;
      if (name === '') errs.push(required(code, field));
      else for (const msg of isDns1123Label(name)) errs.push(invalid(code, field, name, msg));
      if (seen.has(name)) errs.push(duplicate(code, field, name));
      seen.add(name);
    });
    return errs;
  },
);

export const podVolumeSource = podSpecRule(
  'pod-volume-source',
  'Each volume has exactly one source (emptyDir, configMap, …).',
  ({ spec, path }) => {
    const code = 'pod-volume-source';
    const errs: FieldError[] = [];
    arr(spec, 'volumes').forEach((v, i) => {
      if (!isObj(v)) return;
      const vp = `${path}.volumes[${i}]`;
      const present = VOLUME_SOURCES.filter((s) => v[s] !== undefined && v[s] !== null);
      if (present.length === 0) errs.push(required(code, vp, 'must specify a volume type'));
      for (const extra of present.slice(1))
        errs.push(forbidden(code, `${vp}.${extra}`, 'may not specify more than 1 volume type'));
    });
    return errs;
  },
);

/** Names a container may mount: the pod's volumes plus, for a StatefulSet, its claim templates. */
function mountableNames(spec: Record<string, unknown>, owner: KubeObject): Set<string> {
  const names = new Set<string>();
  for (const v of arr(spec, 'volumes')) {
    const n = str(v, 'name');
    if (n) names.add(n);
  }
  if (owner.kind === 'StatefulSet') {
    for (const t of arr(owner.spec, 'volumeClaimTemplates')) {
      const n = str(obj(t, 'metadata'), 'name');
      if (n) names.add(n);
    }
  }
  return names;
}

export const containerVolumeMounts = podSpecRule(
  'container-volume-mounts',
  'A volume mount names an existing volume and has a unique, non-empty mountPath.',
  ({ spec, path }, _ctx, owner) => {
    const code = 'container-volume-mounts';
    const errs: FieldError[] = [];
    const names = mountableNames(spec, owner);
    for (const c of containersOf(spec, path)) {
      const paths = new Set<string>();
      arr(c.container, 'volumeMounts').forEach((m, i) => {
        const mp = `${c.path}.volumeMounts[${i}]`;
        const name = str(m, 'name') ?? '';
        if (name === '') errs.push(required(code, `${mp}.name`));
        else if (!names.has(name)) errs.push(notFound(code, `${mp}.name`, name));
        const mountPath = str(m, 'mountPath') ?? '';
        if (mountPath === '') errs.push(required(code, `${mp}.mountPath`));
        else if (paths.has(mountPath)) errs.push(invalid(code, `${mp}.mountPath`, mountPath, 'must be unique'));
        paths.add(mountPath);
      });
    }
    return errs;
  },
);
