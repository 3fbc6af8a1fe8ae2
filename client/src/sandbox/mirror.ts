/**
 * The host's copy of the sandbox's objects, kept by list + watch exactly as a
 * Kubernetes client keeps an informer cache — so the views read a cache, and
 * the same views could later read one filled from a real cluster.
 * No `vscode` import: shared with tests that run without VS Code.
 */
import type { ObjectsByResource, ResourceName } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import type { Notification, WatchChange } from './protocol';

function key(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class MirrorCache {
  private readonly byResource = new Map<string, Map<string, KubeObject>>();
  private version = '0';

  /** The resourceVersion of the last change applied. */
  get resourceVersion(): string {
    return this.version;
  }

  /** Applies a `list` (replacing everything) or a batch of `changes`; other notifications are ignored. */
  apply(n: Notification): WatchChange[] {
    if (n.kind === 'list') {
      this.byResource.clear();
      for (const { resource, object } of n.objects) this.set(resource, object);
      this.version = n.resourceVersion;
      return n.objects.map(({ resource, object }) => ({ type: 'ADDED', resource, object }));
    }
    if (n.kind !== 'changes') return [];
    for (const c of n.changes) {
      if (c.type === 'DELETED')
        this.byResource.get(c.resource)?.delete(key(c.object.metadata.namespace, c.object.metadata.name!));
      else this.set(c.resource, c.object);
      if (c.object.metadata.resourceVersion) this.version = c.object.metadata.resourceVersion;
    }
    return n.changes;
  }

  /** An object as the sandbox last showed it; a resource of `ObjectsByResource` answers with its type. */
  get<R extends ResourceName>(
    resource: R,
    namespace: string | undefined,
    name: string,
  ): ObjectsByResource[R] | undefined;
  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.byResource.get(resource)?.get(key(namespace, name));
  }

  /** Objects of a resource (of one namespace when given), sorted by namespace then name. */
  list<R extends ResourceName>(resource: R, namespace?: string): ObjectsByResource[R][];
  list(resource: string, namespace?: string): KubeObject[];
  list(resource: string, namespace?: string): KubeObject[] {
    const all = [...(this.byResource.get(resource)?.values() ?? [])].filter(
      (o) => namespace === undefined || o.metadata.namespace === namespace,
    );
    return all.sort((a, b) =>
      key(a.metadata.namespace, a.metadata.name!).localeCompare(key(b.metadata.namespace, b.metadata.name!)),
    );
  }

  /** Objects whose controller owner reference has `uid`. */
  ownedBy(resource: string, uid: string): KubeObject[] {
    return this.list(resource).filter((o) => o.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid));
  }

  /** The resources the cache holds objects of, sorted: custom resources are `plural.group`. */
  resources(): string[] {
    return [...this.byResource.entries()]
      .filter(([, m]) => m.size > 0)
      .map(([r]) => r)
      .sort();
  }

  /** Every object with its resource (to copy the cache into another one). */
  all(): { resource: string; object: KubeObject }[] {
    return [...this.byResource].flatMap(([resource, m]) => [...m.values()].map((object) => ({ resource, object })));
  }

  /** Names of namespaces that exist. */
  namespaces(): string[] {
    return this.list('namespaces').map((n) => n.metadata.name!);
  }

  private set(resource: string, object: KubeObject): void {
    let m = this.byResource.get(resource);
    if (!m) this.byResource.set(resource, (m = new Map()));
    m.set(key(object.metadata.namespace, object.metadata.name!), object);
  }
}
