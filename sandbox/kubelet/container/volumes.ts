/**
 * A pod's volumes on its node: whether each can be set up (the volume
 * manager's `MountVolume.SetUp` for ConfigMap, Secret and projected volumes,
 * the desired-state populator's checks of PersistentVolumeClaims), with
 * upstream's messages, and what a container finds at its mount points.
 *
 * emptyDir, hostPath and claim volumes are one tree per pod, shared by its
 * containers and kept across their restarts. ConfigMap, Secret, projected and
 * downward API volumes are read-only trees of the objects' content, read when
 * the container starts.
 */
import type { Container, KeyToPath, Pod, Volume, VolumeMount } from 'kubernetes-types/core/v1';
import { SeededRandom } from '../../clock/random';
import type { PodFacts, ReadConfig } from './env';
import { fieldValue, resourceFieldValue } from './env';
import type { FsMaker, Mount } from './fileSystem';
import { FileTree } from './fileSystem';
import { rootTree } from './rootfs';
import { sharedList } from '../sharedList';

/** Reads a PersistentVolumeClaim as the API server has it now. */
export type ReadClaim = (
  namespace: string,
  name: string,
) => { status?: { phase?: string }; spec?: { volumeName?: string } } | undefined;

const decode = (secret: boolean, value: string) => (secret ? Buffer.from(value, 'base64').toString('utf8') : value);

/** Stands for the pod's service account token, made when the volume's files are first read. */
const TOKEN = Symbol('service account token');
type Files = Map<string, string | typeof TOKEN>;

/** key → file (or `items`' paths), or the SetUp error; a missing optional source is no files. */
function projectKeys(
  kind: 'configmap' | 'secret',
  name: string,
  obj: ReturnType<ReadConfig>,
  items: readonly KeyToPath[] | undefined,
  optional: boolean,
): { files: Files } | { error: string } {
  const files: Files = new Map();
  if (!obj) return optional ? { files } : { error: `${kind} "${name}" not found` };
  const data = { ...(kind === 'configmap' ? (obj.binaryData ?? {}) : {}), ...(obj.data ?? {}) };
  const secret = kind === 'secret';
  if (items && items.length > 0) {
    for (const item of items) {
      if (!Object.hasOwn(data, item.key)) {
        if (optional) continue;
        return {
          error:
            kind === 'configmap'
              ? `configmap references non-existent config key: ${item.key}`
              : `references non-existent secret key: ${item.key}`,
        };
      }
      files.set(item.path, decode(secret, data[item.key]));
    }
  } else {
    for (const [key, value] of Object.entries(data)) files.set(key, decode(secret, value));
  }
  return { files };
}

/**
 * A service account token as the kubelet projects it: a JWT, stable per pod (a pure function of its uid), so it is made
 * when the volume's files are first read, not kept per pod. Upstream's token manager (`pkg/kubelet/token`,
 * `Manager.DeleteServiceAccountToken`) keeps a pod's tokens only while the pod is on the node; here nothing is kept.
 */
function fakeToken(pod: Pod): string {
  const r = new SeededRandom(`token/${pod.metadata?.uid ?? pod.metadata?.name ?? ''}`);
  const part = (n: number) => r.string(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
  return `eyJhbGciOiJSUzI1NiIsImtpZCI6I${part(40)}.${part(180)}.${part(86)}`;
}

/**
 * The files of a ConfigMap, Secret, projected or downward API volume, or the SetUp error (`secret "db" not found`);
 * undefined for volume types whose content is not projected (emptyDir, hostPath, claims…).
 */
export function projectedFiles(
  pod: Pod,
  volume: Volume,
  read: ReadConfig,
  facts: PodFacts,
): { files: Files } | { error: string } | undefined {
  const ns = pod.metadata?.namespace ?? 'default';
  if (volume.configMap) {
    const name = volume.configMap.name ?? '';
    return projectKeys(
      'configmap',
      name,
      read('configmaps', ns, name),
      volume.configMap.items,
      !!volume.configMap.optional,
    );
  }
  if (volume.secret) {
    const name = volume.secret.secretName ?? '';
    return projectKeys('secret', name, read('secrets', ns, name), volume.secret.items, !!volume.secret.optional);
  }
  if (volume.downwardAPI) return { files: downwardFiles(pod, volume.downwardAPI.items ?? [], facts) };
  if (volume.projected) {
    const files: Files = new Map();
    const errors: string[] = [];
    for (const source of volume.projected.sources ?? []) {
      let result: { files: Files } | { error: string } | undefined;
      if (source.configMap) {
        const name = source.configMap.name ?? '';
        result = projectKeys(
          'configmap',
          name,
          read('configmaps', ns, name),
          source.configMap.items,
          !!source.configMap.optional,
        );
      } else if (source.secret) {
        const name = source.secret.name ?? '';
        result = projectKeys('secret', name, read('secrets', ns, name), source.secret.items, !!source.secret.optional);
      } else if (source.downwardAPI) result = { files: downwardFiles(pod, source.downwardAPI.items ?? [], facts) };
      else if (source.serviceAccountToken) result = { files: new Map([[source.serviceAccountToken.path, TOKEN]]) };
      if (!result) continue;
      if ('error' in result) errors.push(result.error);
      else for (const [k, v] of result.files) files.set(k, v);
    }
    // utilerrors.NewAggregate: one error as itself, several as a list.
    if (errors.length === 1) return { error: errors[0] };
    if (errors.length > 1) return { error: `[${errors.join(', ')}]` };
    return { files };
  }
  return undefined;
}

function downwardFiles(
  pod: Pod,
  items: readonly {
    path: string;
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: { containerName?: string; resource: string; divisor?: string | number };
  }[],
  facts: PodFacts,
): Files {
  const files: Files = new Map();
  for (const item of items) {
    if (item.fieldRef) files.set(item.path, fieldValue(pod, item.fieldRef.fieldPath, facts) ?? '');
    else if (item.resourceFieldRef) {
      const container = pod.spec?.containers?.[0] ?? { name: '' };
      files.set(item.path, resourceFieldValue(pod, container, item.resourceFieldRef, facts));
    }
  }
  return files;
}

export interface MountFailure {
  volume: string;
  /** The whole event message: `MountVolume.SetUp failed for volume "config" : configmap "app" not found`. */
  message: string;
}

/** The volumes whose SetUp fails now (the volume manager's reconciler retries them on its back-off). */
export function mountFailures(pod: Pod, read: ReadConfig, facts: PodFacts): MountFailure[] {
  const out: MountFailure[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const r = projectedFiles(pod, v, read, facts);
    if (r && 'error' in r)
      out.push({ volume: v.name, message: `MountVolume.SetUp failed for volume "${v.name}" : ${r.error}` });
  }
  return out;
}

/**
 * Claims that keep the pod's volumes from being processed (the desired-state populator's `error processing PVC …`),
 * as the kubelet's `Unable to attach or mount volumes: …` event words it; undefined when every claim is bound.
 */
export function claimProblem(pod: Pod, readClaim: ReadClaim): string | undefined {
  const ns = pod.metadata?.namespace ?? 'default';
  const failed: { volume: string; error: string }[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim === undefined) continue;
    const pvc = readClaim(ns, claim);
    if (!pvc)
      failed.push({
        volume: v.name,
        error: `error processing PVC ${ns}/${claim}: failed to fetch PVC from API server: persistentvolumeclaims "${claim}" not found`,
      });
    else if (pvc.status?.phase !== 'Bound' || !pvc.spec?.volumeName)
      failed.push({ volume: v.name, error: `error processing PVC ${ns}/${claim}: PVC is not bound` });
  }
  if (failed.length === 0) return undefined;
  const names = failed.map((f) => f.volume).sort();
  return `Unable to attach or mount volumes: unmounted volumes=[${names.join(' ')}], unattached volumes=[], failed to process volumes=[${names.join(' ')}]: ${failed.map((f) => f.error).join('; ')}`;
}

function fileTree(pod: Pod, name: string, entries: FileList, readOnly: boolean): FileTree {
  const tree = new FileTree(name, readOnly);
  // The content as read at the container's start (`entries`: path, content, path, content…), made into the tree's
  // files when something first reads them: most pods' `kube-api-access` volume is never read (issue 16).
  tree.lazyFiles(entries.length / 2, () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < entries.length; i += 2) {
      const text = entries[i + 1];
      files[`/${entries[i] as string}`] = text === TOKEN ? fakeToken(pod) : text;
    }
    return files;
  });
  return tree;
}

/** A projected volume's files as read: path, content, path, content… (`TOKEN` for the service account token). */
type FileList = readonly (string | typeof TOKEN)[];

/** Where a volume mount goes: its path without trailing slashes (the spec's own string when it has none). */
function mountPoint(m: VolumeMount): string {
  return m.mountPath.endsWith('/') ? m.mountPath.replace(/\/+$/, '') || '/' : m.mountPath || '/';
}

/**
 * A container's files as its start decided them, made into trees on the first use of its view (`ContainerFs` with an
 * `FsMaker`): the root tree of its image and pod, and its mounts, in the order and with the content of the start. It
 * keeps, per mount of a volume the pod has, the shared volume's tree or the projected volume's files as read then
 * (one shared list when another container read the same: `sharedList`); the rest comes from the container's spec.
 */
export class ContainerFiles implements FsMaker {
  constructor(
    /** The pod's metadata and spec as the container started (not its status: see `pod`). */
    private readonly metadata: Pod['metadata'],
    private readonly spec: Pod['spec'],
    private readonly container: Container,
    /** The pod's IP (its `/etc/hosts`). */
    readonly podIP: string,
    private readonly contents: readonly (FileTree | FileList)[],
  ) {}

  /**
   * The pod as the container started: its spec and metadata, not the status of that version (which every container
   * would otherwise keep alive after the next status write). Made on each read (issue 16: an object per container).
   */
  get pod(): Pod {
    return { apiVersion: 'v1', kind: 'Pod', metadata: this.metadata, spec: this.spec };
  }

  /** The volume mounts that mount something, with what each mounts. */
  private planned(): { mount: VolumeMount; volume: string; content: FileTree | FileList }[] {
    const names = new Set((this.spec?.volumes ?? []).map((v) => v.name));
    const out: { mount: VolumeMount; volume: string; content: FileTree | FileList }[] = [];
    for (const m of this.container.volumeMounts ?? [])
      if (names.has(m.name)) out.push({ mount: m, volume: m.name, content: this.contents[out.length] });
    return out;
  }

  get live(): readonly FileTree[] {
    const trees: FileTree[] = [];
    for (const c of this.contents) if (c instanceof FileTree && !trees.includes(c)) trees.push(c);
    return trees;
  }

  /** Where its volumes are mounted, in the order of its `volumeMounts` (one shared list for equal ones). */
  mountedPaths(): readonly string[] {
    const paths = this.planned().map((p) => mountPoint(p.mount));
    return sharedList(paths, paths.join('\u0000'));
  }

  make(): { root: FileTree; mounts: Mount[] } {
    const pod = this.pod;
    const root = rootTree(pod, this.container.image ?? '', this.podIP);
    const projected = new Map<string, FileTree>();
    const mounts = this.planned().map(({ mount: m, volume, content }): Mount => {
      let tree: FileTree | undefined;
      if (content instanceof FileTree) tree = content;
      else {
        tree = projected.get(volume);
        if (!tree) {
          tree = fileTree(pod, volume, content, true);
          projected.set(volume, tree);
        }
      }
      return { path: mountPoint(m), tree, source: m.subPath ? `/${m.subPath}` : '/', readOnly: m.readOnly === true };
    });
    return { root, mounts };
  }
}

/** The volumes of one pod on this node. */
export class PodVolumes {
  /** emptyDir, hostPath, claims, ephemeral: one tree each for the pod's life. */
  private shared: Map<string, FileTree> | undefined;

  constructor(private readonly pod: Pod) {}

  /**
   * The files of a container starting now (`pod` as it is, `podIP` the pod's): ConfigMaps and Secrets read now,
   * the shared volumes' trees made now, the rest made on the first use of the view.
   */
  files(pod: Pod, container: Container, podIP: string, read: ReadConfig, facts: PodFacts): ContainerFiles {
    const volumes = new Map((this.pod.spec?.volumes ?? []).map((v) => [v.name, v]));
    const contents: (FileTree | FileList)[] = [];
    const projected = new Map<string, FileList>();
    for (const m of container.volumeMounts ?? []) {
      const v = volumes.get(m.name);
      if (!v) continue;
      const read_ = projectedFiles(this.pod, v, read, facts);
      if (read_) {
        // Read once per volume and container (as the trees were: one per volume).
        let files = projected.get(v.name);
        if (!files) {
          const list: (string | typeof TOKEN)[] = [];
          if ('files' in read_) for (const [path, text] of read_.files) list.push(path, text);
          files = sharedList(list, list.filter((_, i) => i % 2 === 0).join('\u0000'));
          projected.set(v.name, files);
        }
        contents.push(files);
      } else {
        let tree = this.shared?.get(v.name);
        if (!tree) {
          tree = new FileTree(v.name);
          (this.shared ??= new Map()).set(v.name, tree);
        }
        contents.push(tree);
      }
    }
    // Without a shared volume (a tree per pod), one shared list for equal contents (a namespace's kube-api-access).
    const kept = contents.some((c) => c instanceof FileTree)
      ? contents.slice()
      : sharedList(contents, `${contents.length}`);
    return new ContainerFiles(pod.metadata, pod.spec, container, podIP, kept);
  }
}
