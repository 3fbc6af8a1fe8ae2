/**
 * An informer's local copy of a kind: objects by `namespace/name` key, with
 * optional secondary indexes (pods by node, by owner uid, …).
 */
import type { KubeObject } from '../api/types';

/** `namespace/name`, or `name` for cluster-scoped objects: the key work queues carry. */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name}` : obj.metadata.name!;
}

/** Splits a key back into namespace ('' for cluster-scoped) and name. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export type IndexFunc<T> = (obj: T) => readonly string[];

export class ObjectCache<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();

  get size(): number {
    return this.items.size;
  }

  /** Adds a secondary index; existing objects are indexed at once. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    this.indexers.set(name, fn);
    const index = new Map<string, Set<string>>();
    this.indexes.set(name, index);
    for (const [key, obj] of this.items) for (const v of fn(obj)) add(index, v, key);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  /** All objects, or those of one namespace. */
  list(namespace?: string): T[] {
    const out: T[] = [];
    for (const obj of this.items.values()) if (namespace === undefined || (obj.metadata.namespace ?? '') === namespace) out.push(obj);
    return out;
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  /** Objects whose index function returned `value`. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`no index named ${indexName}`);
    const keys = index.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const k of keys) out.push(this.items.get(k)!);
    return out;
  }

  set(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexers) for (const v of fn(obj)) add(this.indexes.get(name)!, v, key);
    return old;
  }

  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indexes.get(name)!;
      for (const v of fn(obj)) {
        const set = index.get(v);
        if (!set) continue;
        set.delete(key);
        if (set.size === 0) index.delete(v);
      }
    }
  }
}

function add(index: Map<string, Set<string>>, value: string, key: string): void {
  let set = index.get(value);
  if (!set) index.set(value, (set = new Set()));
  set.add(key);
}
