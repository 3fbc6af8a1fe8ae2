/**
 * The names a pod spec refers to: ConfigMaps and Secrets (env, envFrom,
 * volumes, projected volumes, image pull secrets), PersistentVolumeClaims and
 * the ServiceAccount. References marked `optional: true` are left out: the
 * kubelet starts the pod without them.
 */
import { isPlainObject } from '../../../../sandbox/util/json';
import type { ReferencedKind } from './facts';

/** A reference before its source range is known. */
export interface PodReference {
  readonly kind: ReferencedKind;
  readonly name: string;
  /** Upstream field path of the name, below the pod spec path given to {@link podReferences}. */
  readonly field: string;
}

/**
 * Objects every namespace has without anyone writing them: the `default`
 * ServiceAccount and the `kube-root-ca.crt` ConfigMap (published by the
 * controller manager).
 */
const ALWAYS_PRESENT: ReadonlySet<string> = new Set(['ServiceAccount/default', 'ConfigMap/kube-root-ca.crt']);

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

/**
 * References in the pod spec `spec` found at `specPath`, in source order of fields. Volumes named in `replacedVolumes`
 * are left out: the controller replaces them (a StatefulSet's claim templates).
 */
export function podReferences(
  spec: Record<string, unknown>,
  specPath: string,
  replacedVolumes: ReadonlySet<string> = new Set(),
): PodReference[] {
  const out: PodReference[] = [];
  const add = (kind: ReferencedKind, holder: unknown, key: string, field: string): void => {
    if (!isPlainObject(holder) || holder.optional === true) return;
    const name = holder[key];
    if (typeof name !== 'string' || name === '' || ALWAYS_PRESENT.has(`${kind}/${name}`)) return;
    out.push({ kind, name, field: [specPath, field, key].filter((part) => part !== '').join('.') });
  };
  for (const list of CONTAINER_LISTS) eachItem(spec[list], (c, i) => containerReferences(c, `${list}[${i}]`, add));
  eachItem(spec.volumes, (v, i) => {
    if (typeof v.name !== 'string' || !replacedVolumes.has(v.name)) volumeReferences(v, `volumes[${i}]`, add);
  });
  eachItem(spec.imagePullSecrets, (s, i) => add('Secret', s, 'name', `imagePullSecrets[${i}]`));
  if (typeof spec.serviceAccountName === 'string') add('ServiceAccount', spec, 'serviceAccountName', '');
  else if (typeof spec.serviceAccount === 'string') add('ServiceAccount', spec, 'serviceAccount', '');
  return out;
}

type Add = (kind: ReferencedKind, holder: unknown, key: string, field: string) => void;

function containerReferences(c: Record<string, unknown>, path: string, add: Add): void {
  eachItem(c.env, (e, i) => {
    const from = e.valueFrom;
    if (!isPlainObject(from)) return;
    add('ConfigMap', from.configMapKeyRef, 'name', `${path}.env[${i}].valueFrom.configMapKeyRef`);
    add('Secret', from.secretKeyRef, 'name', `${path}.env[${i}].valueFrom.secretKeyRef`);
  });
  eachItem(c.envFrom, (e, i) => {
    add('ConfigMap', e.configMapRef, 'name', `${path}.envFrom[${i}].configMapRef`);
    add('Secret', e.secretRef, 'name', `${path}.envFrom[${i}].secretRef`);
  });
}

function volumeReferences(v: Record<string, unknown>, path: string, add: Add): void {
  add('ConfigMap', v.configMap, 'name', `${path}.configMap`);
  add('Secret', v.secret, 'secretName', `${path}.secret`);
  add('PersistentVolumeClaim', v.persistentVolumeClaim, 'claimName', `${path}.persistentVolumeClaim`);
  const projected = v.projected;
  if (!isPlainObject(projected)) return;
  eachItem(projected.sources, (s, i) => {
    add('ConfigMap', s.configMap, 'name', `${path}.projected.sources[${i}].configMap`);
    add('Secret', s.secret, 'name', `${path}.projected.sources[${i}].secret`);
  });
}

/**
 * Calls `fn` for each plain-object item of a list with its index (anything else is the single-document validators'
 * business).
 */
function eachItem(value: unknown, fn: (item: Record<string, unknown>, index: number) => void): void {
  if (!Array.isArray(value)) return;
  value.forEach((item: unknown, i) => {
    if (isPlainObject(item)) fn(item, i);
  });
}
