/**
 * The files a container sees from its ConfigMap and Secret volumes, read when
 * it starts (as the kubelet projects them): `<mountPath>/<key>`, or the paths
 * `items` gives, or the one key a `subPath` mount names. What scripts `cat`.
 * Other volume types and the rest of the filesystem are not simulated.
 */
import type { Container, Pod, Volume } from 'kubernetes-types/core/v1';

/** Reads a ConfigMap or Secret the pod references (undefined when missing). */
export type ReadConfig = (
  resource: 'configmaps' | 'secrets',
  namespace: string,
  name: string,
) => { data?: Record<string, string> } | undefined;

/** A stored ConfigMap or Secret value as the container sees it (Secrets are base64 in `data`). */
function asText(resource: 'configmaps' | 'secrets', value: string): string {
  return resource === 'secrets' ? Buffer.from(value, 'base64').toString('utf8') : value;
}

/** The text of one key of a ConfigMap or Secret; undefined when the object or key is missing. */
export function configValue(
  read: ReadConfig,
  resource: 'configmaps' | 'secrets',
  namespace: string,
  name: string,
  key: string,
): string | undefined {
  const value = read(resource, namespace, name)?.data?.[key];
  return value === undefined ? undefined : asText(resource, value);
}

/** key → text of one ConfigMap or Secret volume, with its `items` renames applied (key → relative path). */
function volumeFiles(volume: Volume, namespace: string, read: ReadConfig): Map<string, string> | undefined {
  const source = volume.configMap ?? volume.secret;
  if (!source) return undefined;
  const isSecret = volume.secret !== undefined;
  const name = isSecret ? volume.secret!.secretName : volume.configMap!.name;
  if (!name) return undefined;
  const resource = isSecret ? 'secrets' : 'configmaps';
  const obj = read(resource, namespace, name);
  if (!obj) return undefined;
  const data = obj.data ?? {};
  const text = (key: string): string => asText(resource, data[key]);
  const files = new Map<string, string>();
  const items = source.items;
  if (items && items.length > 0) {
    for (const item of items) if (Object.hasOwn(data, item.key)) files.set(item.path, text(item.key));
  } else {
    for (const key of Object.keys(data)) files.set(key, text(key));
  }
  return files;
}

/** A lookup of absolute paths to file contents for `container` of `pod`. */
export function mountedFiles(pod: Pod, container: Container, read: ReadConfig): (path: string) => string | undefined {
  const namespace = pod.metadata?.namespace ?? 'default';
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  const files = new Map<string, string>();
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.get(mount.name);
    const inVolume = volume ? volumeFiles(volume, namespace, read) : undefined;
    if (!inVolume) continue;
    const base = mount.mountPath.replace(/\/+$/, '');
    if (mount.subPath) {
      const text = inVolume.get(mount.subPath);
      if (text !== undefined) files.set(base, text);
      continue;
    }
    for (const [rel, text] of inVolume) files.set(`${base}/${rel}`, text);
  }
  return (path) => files.get(path.replace(/\/{2,}/g, '/'));
}
