/**
 * The GitOps desired state: which manifests each source (a workspace-relative
 * file) declares, and which source each live object came from — the index
 * behind pruning, self-heal and "show the manifest of this object". Objects
 * also carry the source in an annotation, as Argo CD carries its tracking id.
 */
import type { KubeObject } from '../api/types';
import type { ResourceType } from '../api/resources';

/** The annotation naming the file an object was applied from. */
export const SOURCE_ANNOTATION = 'kube-reconcile.dev/source';

/** One document of a source, with the 0-based line it starts on. */
export interface SourceManifest {
  line: number;
  object: KubeObject;
}

/** What is known about one tracked object. */
export interface TrackedObject {
  /** `resource|namespace|name`, see `trackingKey`. */
  key: string;
  resource: string;
  namespace?: string;
  name: string;
  source: string;
  line: number;
  /** The manifest as written in the source (without the tracking annotation). */
  manifest: KubeObject;
}

/** The serializable form kept in snapshots. */
export interface DesiredStateData {
  sources: { source: string; objects: Omit<TrackedObject, 'key'>[] }[];
}

export function trackingKey(resource: string, namespace: string | undefined, name: string): string {
  return `${resource}|${namespace ?? ''}|${name}`;
}

/** Where the manifest's object lives: its resource, namespace (defaulted) and name. */
export function locate(r: ResourceType, manifest: KubeObject): { resource: string; namespace?: string; name: string } {
  const namespace = r.namespaced ? manifest.metadata.namespace || 'default' : undefined;
  return { resource: r.plural, namespace, name: manifest.metadata.name ?? '' };
}

/** The manifest to apply: the source's, plus the tracking annotation. */
export function withSourceAnnotation(manifest: KubeObject, source: string): KubeObject {
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      annotations: { ...(manifest.metadata.annotations ?? {}), [SOURCE_ANNOTATION]: source },
    },
  };
}

export class DesiredState {
  private readonly byKey = new Map<string, TrackedObject>();
  private readonly bySource = new Map<string, Set<string>>();

  get(key: string): TrackedObject | undefined {
    return this.byKey.get(key);
  }

  /** Keys of the objects `source` declares. */
  keysOf(source: string): string[] {
    return [...(this.bySource.get(source) ?? [])];
  }

  all(): TrackedObject[] {
    return [...this.byKey.values()];
  }

  /** Tracks (or re-tracks, possibly moving from another source) one object. */
  track(obj: TrackedObject): void {
    this.untrack(obj.key);
    this.byKey.set(obj.key, obj);
    let keys = this.bySource.get(obj.source);
    if (!keys) this.bySource.set(obj.source, (keys = new Set()));
    keys.add(obj.key);
  }

  untrack(key: string): TrackedObject | undefined {
    const old = this.byKey.get(key);
    if (!old) return undefined;
    this.byKey.delete(key);
    const keys = this.bySource.get(old.source);
    keys?.delete(key);
    if (keys?.size === 0) this.bySource.delete(old.source);
    return old;
  }

  clear(): void {
    this.byKey.clear();
    this.bySource.clear();
  }

  toData(): DesiredStateData {
    return {
      sources: [...this.bySource.entries()].map(([source, keys]) => ({
        source,
        objects: [...keys].map((k) => {
          const { key: _key, ...rest } = this.byKey.get(k)!;
          return rest;
        }),
      })),
    };
  }

  /** Replaces everything with `data` (checked by `checkDesiredState`). */
  load(data: DesiredStateData): void {
    this.clear();
    for (const { source, objects } of data.sources) {
      for (const o of objects) this.track({ ...o, source, key: trackingKey(o.resource, o.namespace, o.name) });
    }
  }
}
