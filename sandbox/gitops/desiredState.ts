/**
 * The GitOps desired state: which manifests each source (a workspace-relative
 * file) declares, and which source each live object came from — the index
 * behind pruning, self-heal and "show the manifest of this object". Objects
 * also carry the source in an annotation, as Argo CD carries its tracking id.
 *
 * Two files may declare the same object (Argo CD's "shared resource"). Every
 * declaration is kept, oldest applied first; the one applied last is the one
 * in the cluster. When a file stops declaring the object, the newest of the
 * remaining declarations takes over instead of the object being deleted.
 */
import type { KubeObject } from '../api/types';
import type { ResourceType } from '../api/resources';
import { SOURCE_ANNOTATION } from '../api/annotations';

export { SOURCE_ANNOTATION };

/** One document of a source, with the 0-based line it starts on. */
export interface SourceManifest {
  line: number;
  object: KubeObject;
}

/** What is known about one tracked object, as one source declares it. */
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

/**
 * The serializable form kept in snapshots. `order` ranks the declarations of one object (0 first applied); it is
 * absent in snapshots written before objects could be shared, which had one declaration per object.
 */
export interface DesiredStateData {
  sources: { source: string; objects: (Omit<TrackedObject, 'key'> & { order?: number })[] }[];
}

/** What `withdraw` did: the declaration it removed, and the one now in the cluster (if another file declares it). */
export interface Withdrawal {
  removed: TrackedObject;
  /** True when the removed declaration was the one in the cluster. */
  wasInEffect: boolean;
  /** The declaration in effect now; undefined when no file declares the object any more. */
  inEffect: TrackedObject | undefined;
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
  /** Per key, the declarations of every source declaring it, oldest applied first: the last is in effect. */
  private readonly byKey = new Map<string, TrackedObject[]>();
  private readonly bySource = new Map<string, Set<string>>();
  private changes = 0;

  /** Counts changes: equal before and after an operation when nothing was declared or withdrawn. */
  get revision(): number {
    return this.changes;
  }

  /** The declaration in effect (applied last) for `key`. */
  get(key: string): TrackedObject | undefined {
    return this.byKey.get(key)?.at(-1);
  }

  /** Every declaration of `key`, oldest applied first (the last is in effect). */
  declarations(key: string): readonly TrackedObject[] {
    return this.byKey.get(key) ?? [];
  }

  /** Keys of the objects `source` declares. */
  keysOf(source: string): string[] {
    return [...(this.bySource.get(source) ?? [])];
  }

  /** The declaration in effect of every tracked object. */
  all(): TrackedObject[] {
    return [...this.byKey.values()].map((ds) => ds.at(-1)!);
  }

  /**
   * Records `obj` as its source's declaration of its object, now the newest one (in effect). Returns the declarations
   * other sources keep of the same object.
   */
  declare(obj: TrackedObject): TrackedObject[] {
    const others = (this.byKey.get(obj.key) ?? []).filter((d) => d.source !== obj.source);
    this.byKey.set(obj.key, [...others, obj]);
    let keys = this.bySource.get(obj.source);
    if (!keys) this.bySource.set(obj.source, (keys = new Set()));
    keys.add(obj.key);
    this.changes++;
    return others;
  }

  /** Drops `source`'s declaration of `key`; undefined when it had none. */
  withdraw(key: string, source: string): Withdrawal | undefined {
    const ds = this.byKey.get(key);
    const index = ds?.findIndex((d) => d.source === source) ?? -1;
    if (!ds || index < 0) return undefined;
    const removed = ds[index];
    const rest = ds.filter((_, i) => i !== index);
    if (rest.length > 0) this.byKey.set(key, rest);
    else this.byKey.delete(key);
    const keys = this.bySource.get(source);
    keys?.delete(key);
    if (keys?.size === 0) this.bySource.delete(source);
    this.changes++;
    return { removed, wasInEffect: index === ds.length - 1, inEffect: rest.at(-1) };
  }

  clear(): void {
    this.byKey.clear();
    this.bySource.clear();
    this.changes++;
  }

  toData(): DesiredStateData {
    return {
      sources: [...this.bySource.entries()].map(([source, keys]) => ({
        source,
        objects: [...keys].map((k) => {
          const ds = this.byKey.get(k)!;
          const order = ds.findIndex((d) => d.source === source);
          const { key: _key, ...rest } = ds[order];
          return { ...rest, order };
        }),
      })),
    };
  }

  /** Replaces everything with `data` (checked by `checkDesiredState`); declarations keep their recorded order. */
  load(data: DesiredStateData): void {
    this.clear();
    const all = data.sources.flatMap(({ source, objects }) =>
      objects.map(({ order, ...o }) => ({
        order: order ?? Number.MAX_SAFE_INTEGER,
        obj: { ...o, source, key: trackingKey(o.resource, o.namespace, o.name) },
      })),
    );
    // Stable: without an order (older snapshots), sources keep the order they were saved in.
    all.sort((a, b) => a.order - b.order);
    for (const { obj } of all) this.declare(obj);
  }
}
