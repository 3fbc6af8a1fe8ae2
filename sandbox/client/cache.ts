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

/** One key's object and what the cache keeps about it, shared by the key's entries in every index. */
interface Entry<T> {
  obj: T;
  /** The key, made once when the key is first stored (the index buckets hold it). */
  readonly key: string;
  /** When the key was first stored: `list()` order, which an update does not change. */
  readonly first: number;
  /** The cache's store count at the key's last `set`: when it was last placed under each of its index values. */
  stored: number;
  /**
   * Per index in `indexes` order, two items: at `2i` the key's values as last indexed (an update compares them), at
   * `2i + 1` their buckets, in the same order (an update under unchanged values reaches them without a lookup). A
   * bucket holds the key while it is listed here, so it stays in its index's `values` (only an empty one is dropped).
   * One array for both, and the one shared `NO_INDEXES` while the cache has no index (issue 16: heap per pod).
   */
  indexed: (Kept | Placed<T>)[];
}

/** The `indexed` of every entry while its cache has no index: never written (the first index gives each its own). */
const NO_INDEXES: never[] = [];

/**
 * One index's values as an entry keeps them: the value itself when there is one (a pod's node, its owner: most index
 * functions answer one value), else the list (issue 16: two arrays an index an entry were ~0.4 KiB a pod).
 */
type Kept = string | readonly string[];
/** The buckets of those values the same way: the bucket itself for one value, else a list in the values' order. */
type Placed<T> = Bucket<T> | Bucket<T>[];

const NO_VALUES: readonly string[] = Object.freeze([]);

function keep(values: readonly string[]): Kept {
  return values.length === 1 ? values[0]! : values.length === 0 ? NO_VALUES : values;
}

function sameKept(kept: Kept, values: readonly string[]): boolean {
  if (typeof kept === 'string') return values.length === 1 && values[0] === kept;
  return sameValues(kept, values);
}

/** The objects under one index value. */
interface Bucket<T> {
  /** By key. In `byIndex` order while `inOrder`; otherwise put back in order on the next read. */
  entries: Map<string, Entry<T>>;
  inOrder: boolean;
  /** The entry placed here last (last in `byIndex` order), unless it was removed since. */
  last: Entry<T> | undefined;
  /** The cache's change count at the bucket's last change: what `indexStamp` hands out. */
  stamp: number;
}

interface Index<T> {
  fn: IndexFunc<T>;
  /** Index value → the objects under it (absent while nothing is under it). */
  values: Map<string, Bucket<T>>;
  /** The cache's store count when the index was added: entries stored since were placed by a `set`. */
  readonly addedAt: number;
}

/**
 * The order of `byIndex` is the order objects were placed under the value: an update moves an object last (as removing
 * and adding it would, client-go's `threadSafeMap` keeps a set per value and its callers sort; ours is kept as it was).
 * An update that leaves an object's values unchanged — a status write — does not move it in the bucket's map: the
 * bucket is marked out of order and sorted by when each object was placed on its next read (reads of a bucket are
 * rarer than writes under it: the envelope writes each pod's status several times between its owner's reads).
 */
export class ObjectCache<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, Entry<T>>();
  /**
   * The same entries by namespace ('' for cluster-scoped) then name: a write finds an object's entry by the strings the
   * object holds (hashed once, shared by its versions) instead of joining its key afresh.
   */
  private readonly byName = new Map<string, Map<string, Entry<T>>>();
  private readonly indexes = new Map<string, Index<T>>();
  /** The same indexes in the same order, for the loops of a write. */
  private readonly indexList: Index<T>[] = [];
  /** First stores: `Entry.first`. */
  private firsts = 0;
  /** Every `set`: `Entry.stored`. */
  private stores = 0;
  /** Bumped by every change to any index value's objects: what `indexStamp` hands out. */
  private indexChanges = 0;

  get size(): number {
    return this.items.size;
  }

  hasIndex(name: string): boolean {
    return this.indexes.has(name);
  }

  /** Adds a secondary index; existing objects are indexed at once, in `list()` order. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    // upstream: client-go tools/cache/thread_safe_store.go: storeIndex.addIndexers refuses a name already indexed.
    if (this.indexes.has(name)) throw new Error(`indexer conflict: map[${name}:{}]`);
    const index: Index<T> = { fn, values: new Map(), addedAt: this.stores };
    this.indexes.set(name, index);
    this.indexList.push(index);
    for (const [key, entry] of this.items) {
      const values = fn(entry.obj);
      if (entry.indexed === NO_INDEXES) entry.indexed = [];
      entry.indexed.push(keep(values), this.place(index, values, key, entry));
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
    return index.values.get(value)?.stamp ?? 0;
  }

  get(key: string): T | undefined {
    return this.items.get(key)?.obj;
  }

  /**
   * `get(namespace ? namespace/name : name)` without joining the key: by the strings a caller holds (an owner
   * reference's name, an object's namespace), hashed once and shared, instead of a fresh key hashed on every lookup.
   */
  getByName(namespace: string, name: string): T | undefined {
    return this.entryByName(namespace, name)?.obj;
  }

  /**
   * `objectKey(obj)` — the same text — as the one string the cache keeps for an object of that namespace and name
   * (hashed once, so a work queue's or a tally's lookup by it does not hash a fresh join), or joined afresh when the
   * cache holds no object of that name (a deleted one).
   */
  keyOf(obj: KubeObject): string {
    return this.entryByName(obj.metadata.namespace || '', obj.metadata.name!)?.key ?? objectKey(obj);
  }

  private entryByName(namespace: string, name: string) {
    return this.byName.get(namespace)?.get(name);
  }

  /** All objects, or those of one namespace. */
  list(namespace?: string): T[] {
    const out: T[] = [];
    for (const { obj } of this.items.values())
      if (namespace === undefined || (obj.metadata.namespace ?? '') === namespace) out.push(obj);
    return out;
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  /** `objs` (cached objects) sorted as `list()` would return them. */
  inListOrder(objs: readonly T[]): T[] {
    const keyed = objs.map((obj) => ({ obj, at: this.items.get(objectKey(obj))?.first ?? Number.MAX_SAFE_INTEGER }));
    keyed.sort((a, b) => a.at - b.at);
    return keyed.map((k) => k.obj);
  }

  /** Objects whose index function returned `value` (a fresh array: the cache may change while the caller works). */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`no index named ${indexName}`);
    const bucket = index.values.get(value);
    if (!bucket) return [];
    if (!bucket.inOrder) putInOrder(bucket, index.addedAt);
    const out = new Array<T>(bucket.entries.size);
    let i = 0;
    for (const entry of bucket.entries.values()) out[i++] = entry.obj;
    return out;
  }

  /**
   * Stores `obj` and returns the object it replaces. Index values are computed for the new object only (the old
   * object's were kept); where an index's values are unchanged — a status write — the object is replaced under them
   * (last in their order, as removing and adding it would) without emptying and re-creating their entries.
   */
  set(obj: T): T | undefined {
    const namespace = obj.metadata.namespace || '';
    const name = obj.metadata.name!;
    let names = this.byName.get(namespace);
    const entry = names?.get(name);
    const indexes = this.indexList;
    if (!entry) {
      const key = objectKey(obj);
      // An array of its length (pushing into `[]` would reserve room for 17).
      const n = indexes.length;
      const added: Entry<T> = {
        obj,
        key,
        first: this.firsts++,
        stored: ++this.stores,
        indexed: n === 0 ? NO_INDEXES : new Array<Kept | Placed<T>>(2 * n),
      };
      this.items.set(key, added);
      if (!names) this.byName.set(namespace, (names = new Map()));
      names.set(name, added);
      for (let i = 0; i < n; i++) {
        const index = indexes[i]!;
        const values = index.fn(obj);
        added.indexed[2 * i] = keep(values);
        added.indexed[2 * i + 1] = this.place(index, values, key, added);
      }
      return undefined;
    }
    const old = entry.obj;
    entry.obj = obj;
    entry.stored = ++this.stores;
    const indexed = entry.indexed;
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i]!;
      const values = index.fn(obj);
      if (sameKept(indexed[2 * i] as Kept, values)) {
        // Placed last again under each value (it was there already): no lookup, no `Map` change.
        const placed = indexed[2 * i + 1] as Placed<T>;
        if (!Array.isArray(placed)) this.placedAgain(placed, entry);
        else for (let j = 0; j < placed.length; j++) this.placedAgain(placed[j]!, entry);
      } else {
        this.unindex(index, entry.key, entry, i);
        indexed[2 * i + 1] = this.place(index, values, entry.key, entry);
        indexed[2 * i] = keep(values);
      }
    }
    return old;
  }

  delete(key: string): T | undefined {
    const entry = this.items.get(key);
    if (!entry) return undefined;
    const indexes = this.indexList;
    for (let i = 0; i < indexes.length; i++) this.unindex(indexes[i]!, key, entry, i);
    this.items.delete(key);
    const namespace = entry.obj.metadata.namespace || '';
    const names = this.byName.get(namespace)!;
    names.delete(entry.obj.metadata.name!);
    if (names.size === 0) this.byName.delete(namespace);
    return entry.obj;
  }

  /** `entry`, under a value it was under already, is placed there last again. */
  private placedAgain(bucket: Bucket<T>, entry: Entry<T>): void {
    if (bucket.last !== entry) {
      bucket.inOrder = false;
      bucket.last = entry;
    }
    bucket.stamp = ++this.indexChanges;
  }

  /** Takes `entry` out of the buckets it was placed in by the index at `i` (a value listed twice: once). */
  private unindex(index: Index<T>, key: string, entry: Entry<T>, i: number): void {
    const kept = entry.indexed[2 * i] as Kept;
    const placed = entry.indexed[2 * i + 1] as Placed<T>;
    if (!Array.isArray(placed)) {
      this.takeOut(index, key, entry, placed, kept as string);
      return;
    }
    const values = kept as readonly string[];
    for (let j = 0; j < placed.length; j++) this.takeOut(index, key, entry, placed[j]!, values[j]!);
  }

  private takeOut(index: Index<T>, key: string, entry: Entry<T>, bucket: Bucket<T>, value: string): void {
    if (bucket.entries.size === 0) return; // emptied (and dropped) by the same value listed before
    bucket.entries.delete(key);
    if (bucket.last === entry) bucket.last = undefined;
    if (bucket.entries.size > 0) bucket.stamp = ++this.indexChanges;
    else index.values.delete(value);
  }

  /** Places `entry` last under each of `values`; returns their buckets, in the same order (one value: its bucket). */
  private place(index: Index<T>, values: readonly string[], key: string, entry: Entry<T>): Placed<T> {
    if (values.length === 1) return this.add(index, values[0]!, key, entry);
    const buckets = new Array<Bucket<T>>(values.length);
    for (let j = 0; j < values.length; j++) buckets[j] = this.add(index, values[j]!, key, entry);
    return buckets;
  }

  private add(index: Index<T>, value: string, key: string, entry: Entry<T>): Bucket<T> {
    let bucket = index.values.get(value);
    if (!bucket) {
      const entries = new Map<string, Entry<T>>();
      entries.set(key, entry);
      bucket = { entries, inOrder: true, last: entry, stamp: ++this.indexChanges };
      index.values.set(value, bucket);
      return bucket;
    }
    // A key placed twice in one `set` (an index function that returns a value twice) keeps its place, which is last.
    bucket.entries.set(key, entry);
    bucket.last = entry;
    bucket.stamp = ++this.indexChanges;
    return bucket;
  }
}

/**
 * Sorts a bucket by when each entry was placed under its value. An entry stored since the index was added was placed
 * by its last `set` (every `set` places a key under all its values again); one not stored since was placed when the
 * index was added, in `list()` order, before all the others.
 */
function putInOrder<T>(bucket: Bucket<T>, addedAt: number): void {
  const pairs = [...bucket.entries];
  pairs.sort(([, a], [, b]) => {
    const aSet = a.stored > addedAt;
    const bSet = b.stored > addedAt;
    if (aSet !== bSet) return aSet ? 1 : -1;
    return aSet ? a.stored - b.stored : a.first - b.first;
  });
  bucket.entries = new Map(pairs);
  bucket.inOrder = true;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
