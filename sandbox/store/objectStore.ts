/**
 * The versioned object store: the sandbox's etcd. One global revision that
 * every write bumps; stored objects are deep-frozen and carry the revision of
 * their last write as `metadata.resourceVersion`. Every change is recorded in
 * the history and handed to the listener (the watch hub) in revision order.
 *
 * The store does no validation: the API server decides what may be written.
 */
import type { KubeObject } from '../api/types';
import { deepFreeze } from '../util/json';
import { KindBucket } from './bucket';
import type { ChangeRecord, ChangeType } from './history';
import { ChangeHistory } from './history';

export interface ObjectStoreOptions {
  /** How many changes a watch can resume from before 410 Gone. */
  historyCapacity?: number;
  /** First revision handed out will be this + 1 (for restoring snapshots). */
  initialRevision?: number;
}

export class ObjectStore {
  private readonly kinds = new Map<string, KindBucket>();
  private readonly history: ChangeHistory;
  private rev: number;
  private listener: ((record: ChangeRecord) => void) | undefined;
  /** The next revision stamped on an object and the object frozen (`put`; `create` once the key is known free). */
  private readonly stamp = (obj: KubeObject): void => {
    this.rev++;
    obj.metadata.resourceVersion = String(this.rev);
    deepFreeze(obj);
  };
  private observer: ((record: ChangeRecord) => void) | undefined;

  constructor(options: ObjectStoreOptions = {}) {
    this.rev = options.initialRevision ?? 0;
    this.history = new ChangeHistory(options.historyCapacity ?? 50_000);
    this.history.compactedRevision = this.rev;
  }

  /** The revision of the latest write. */
  get revision(): number {
    return this.rev;
  }

  get compactedRevision(): number {
    return this.history.compactedRevision;
  }

  /** Registers the one consumer of changes (the watch hub). */
  onChange(listener: (record: ChangeRecord) => void): void {
    this.listener = listener;
  }

  /** Registers one observer of changes besides the watch hub (the timeline), called after it; undefined removes it. */
  observe(observer: ((record: ChangeRecord) => void) | undefined): void {
    this.observer = observer;
  }

  get(kindKey: string, namespace: string, name: string): KubeObject | undefined {
    return this.kinds.get(kindKey)?.get(namespace, name);
  }

  /** Objects of a kind in key order (namespace, then name). */
  list(kindKey: string, namespace?: string): KubeObject[] {
    return this.kinds.get(kindKey)?.list(namespace) ?? [];
  }

  count(kindKey: string): number {
    return this.kinds.get(kindKey)?.size ?? 0;
  }

  /** Visits every object of a kind without sorting. */
  forEach(kindKey: string, fn: (obj: KubeObject) => void): void {
    this.kinds.get(kindKey)?.forEach(fn);
  }

  /** Kind keys that hold at least one object. */
  kindKeys(): string[] {
    return [...this.kinds.keys()].filter((k) => this.count(k) > 0).sort();
  }

  /**
   * Writes a new or changed object. `obj` must be a private, mutable copy: the
   * store stamps its resourceVersion and freezes it. Returns the stored object.
   */
  put(kindKey: string, obj: KubeObject): KubeObject {
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name!;
    this.stamp(obj);
    const previous = this.bucket(kindKey).put(namespace, name, obj);
    this.record(previous ? 'MODIFIED' : 'ADDED', kindKey, namespace, obj, previous);
    return obj;
  }

  /**
   * Writes a new object as `put` does, unless an object is stored under its key: then writes nothing (no revision, no
   * change) and returns undefined. One look-up of the key answers both (issue 16: a create looked it up twice).
   */
  create(kindKey: string, obj: KubeObject): KubeObject | undefined {
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name!;
    if (!this.bucket(kindKey).add(namespace, name, obj, this.stamp)) return undefined;
    this.record('ADDED', kindKey, namespace, obj);
    return obj;
  }

  /** Removes an object; returns its last state stamped with the deletion's resourceVersion. */
  remove(kindKey: string, namespace: string, name: string): KubeObject | undefined {
    const bucket = this.kinds.get(kindKey);
    const previous = bucket?.get(namespace, name);
    if (!bucket || !previous) return undefined;
    this.rev++;
    const last = deepFreeze({ ...previous, metadata: { ...previous.metadata, resourceVersion: String(this.rev) } });
    bucket.delete(namespace, name);
    this.record('DELETED', kindKey, namespace, last, previous);
    return last;
  }

  /**
   * Inserts an object exactly as given (resourceVersion included), without a change record: for restoring snapshots.
   */
  load(kindKey: string, obj: KubeObject): void {
    const rv = Number(obj.metadata.resourceVersion);
    if (rv > this.rev) this.rev = rv;
    this.bucket(kindKey).set(obj.metadata.namespace ?? '', obj.metadata.name!, deepFreeze(obj));
    this.history.compactedRevision = this.rev;
  }

  /** Changes after `revision`, or undefined if they were compacted. */
  changesSince(revision: number): ChangeRecord[] | undefined {
    return this.history.since(revision);
  }

  /** Forgets changes at or below `revision` (etcd compaction). */
  compact(revision: number): void {
    this.history.compact(Math.min(revision, this.rev));
  }

  private bucket(kindKey: string): KindBucket {
    let b = this.kinds.get(kindKey);
    if (!b) {
      b = new KindBucket();
      this.kinds.set(kindKey, b);
    }
    return b;
  }

  private record(
    type: ChangeType,
    kindKey: string,
    namespace: string,
    object: KubeObject,
    previous?: KubeObject,
  ): void {
    const rec: ChangeRecord = previous
      ? { revision: this.rev, type, kindKey, namespace, object, previous }
      : { revision: this.rev, type, kindKey, namespace, object };
    this.history.append(rec);
    this.listener?.(rec);
    this.observer?.(rec);
  }
}
