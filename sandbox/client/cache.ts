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

interface Index<T> {
  fn: IndexFunc<T>;
  /** Index value → the objects under it by key (insertion order, as they were indexed). */
  values: Map<string, Map<string, T>>;
  /** Index value → the cache's change count at its last change (absent while nothing is under it). */
  stamps: Map<string, number>;
}

export class ObjectCache<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexes = new Map<string, Index<T>>();
  /** Each key's index values as last indexed, a list per index in `indexes` order (an update compares them). */
  private readonly indexedAs = new Map<string, (readonly string[])[]>();
  /** When each key was first stored: `list()` order, which an update does not change. */
  private readonly firstStored = new Map<string, number>();
  private stores = 0;
  /** Bumped by every change to any index value's objects: what `indexStamp` hands out. */
  private indexChanges = 0;

  get size(): number {
    return this.items.size;
  }

  hasIndex(name: string): boolean {
    return this.indexes.has(name);
  }

  /** Adds a secondary index; existing objects are indexed at once. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    const index: Index<T> = { fn, values: new Map(), stamps: new Map() };
    this.indexes.set(name, index);
    for (const [key, obj] of this.items) {
      const values = fn(obj);
      this.indexedAs.get(key)!.push(values);
      for (const v of values) this.add(index, v, key, obj);
    }
  }

  /**
   * A number that changes whenever the objects under an index value change (one is stored, replaced or removed), and
   * never comes back: a caller that derived something from `byIndex(indexName, value)` may keep it while the stamp
   * stays the same. 0 while nothing is under the value.
   */
  indexStamp(indexName: string, value: string): number {
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`no index named ${indexName}`);
    return index.stamps.get(value) ?? 0;
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  /** All objects, or those of one namespace. */
  list(namespace?: string): T[] {
    const out: T[] = [];
    for (const obj of this.items.values())
      if (namespace === undefined || (obj.metadata.namespace ?? '') === namespace) out.push(obj);
    return out;
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  /** `objs` (cached objects) sorted as `list()` would return them. */
  inListOrder(objs: readonly T[]): T[] {
    const keyed = objs.map((obj) => ({ obj, at: this.firstStored.get(objectKey(obj)) ?? Number.MAX_SAFE_INTEGER }));
    keyed.sort((a, b) => a.at - b.at);
    return keyed.map((k) => k.obj);
  }

  /** Objects whose index function returned `value` (a fresh array: the cache may change while the caller works). */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`no index named ${indexName}`);
    const objs = index.values.get(value);
    return objs ? Array.from(objs.values()) : [];
  }

  /**
   * Stores `obj` and returns the object it replaces. Index values are computed for the new object only (the old
   * object's were kept); where an index's values are unchanged — a status write — the object is replaced under them
   * (moved last, as removing and adding it would) without emptying and re-creating their entries.
   */
  set(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (!old) this.firstStored.set(key, this.stores++);
    this.items.set(key, obj);
    if (this.indexes.size === 0) {
      if (!old) this.indexedAs.set(key, []);
      return old;
    }
    const before = old ? this.indexedAs.get(key) : undefined;
    const after: (readonly string[])[] = [];
    let i = 0;
    for (const index of this.indexes.values()) {
      const values = index.fn(obj);
      const was = before?.[i++];
      if (was !== undefined && sameValues(was, values)) for (const v of values) this.replace(index, v, key, obj);
      else {
        if (was !== undefined) this.unindex(index, key, was);
        for (const v of values) this.add(index, v, key, obj);
      }
      after.push(values);
    }
    this.indexedAs.set(key, after);
    return old;
  }

  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    const was = this.indexedAs.get(key)!;
    let i = 0;
    for (const index of this.indexes.values()) this.unindex(index, key, was[i++]);
    this.items.delete(key);
    this.indexedAs.delete(key);
    this.firstStored.delete(key);
    return old;
  }

  private unindex(index: Index<T>, key: string, values: readonly string[]): void {
    for (const v of values) {
      const objs = index.values.get(v);
      if (!objs) continue;
      objs.delete(key);
      if (objs.size > 0) index.stamps.set(v, ++this.indexChanges);
      else {
        index.values.delete(v);
        index.stamps.delete(v);
      }
    }
  }

  /** `obj` replaces the object stored under `key` at `value`, last in that value's order. */
  private replace(index: Index<T>, value: string, key: string, obj: T): void {
    const objs = index.values.get(value)!;
    objs.delete(key);
    objs.set(key, obj);
    index.stamps.set(value, ++this.indexChanges);
  }

  private add(index: Index<T>, value: string, key: string, obj: T): void {
    let objs = index.values.get(value);
    if (!objs) index.values.set(value, (objs = new Map()));
    objs.set(key, obj);
    index.stamps.set(value, ++this.indexChanges);
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
