/**
 * List + watch into a local cache, with handlers — the informer pattern of
 * client-go. Handlers should only enqueue keys; reconcilers read the cache.
 * A watch that ends or falls behind compaction (410) is recovered by a fresh
 * list, reconciled against the cache so handlers still see every change.
 */
import type { ListOptions, WatchOptions } from '../apiserver/options';
import { isApiError } from '../api/errors';
import type { ObjectsByResource, ResourceName } from '../api/resourceObjects';
import type { KubeList, KubeObject, WatchEvent } from '../api/types';
import type { WatchHandle } from '../store/watchHub';
import { ObjectCache, objectKey } from './cache';

/** The two calls an informer needs; the sandbox ApiServer provides them (an HTTP client could too). */
export interface ListWatcher {
  list(resource: string, options: ListOptions): KubeList;
  watch(resource: string, options: WatchOptions, handler: (event: WatchEvent) => void): WatchHandle;
}

export interface InformerHandlers<T extends KubeObject> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** `obj` is the last state known (for a change missed during a re-list, the cached one). */
  onDelete?(obj: T): void;
}

export interface InformerOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export class Informer<T extends KubeObject = KubeObject> {
  readonly cache = new ObjectCache<T>();
  /** Added in place; a removal replaces the array, so a delivery under way is not disturbed. */
  private handlers: InformerHandlers<T>[] = [];
  private handle: WatchHandle | undefined;
  private synced = false;
  private resourceVersion = '';
  private running = false;

  constructor(
    private readonly client: ListWatcher,
    readonly resource: string,
    private readonly options: InformerOptions = {},
  ) {}

  /** An informer of one resource, typed by it: `Informer.forResource(api, 'pods', …)` caches `Typed<Pod>`s. */
  static forResource<R extends ResourceName>(
    client: ListWatcher,
    resource: R,
    options?: InformerOptions,
  ): Informer<ObjectsByResource[R]> {
    return new Informer<ObjectsByResource[R]>(client, resource, options);
  }

  /** True once the initial list is in the cache. */
  get hasSynced(): boolean {
    return this.synced;
  }

  /** The resourceVersion of the last change seen. */
  get lastSyncResourceVersion(): string {
    return this.resourceVersion;
  }

  /**
   * Adds handlers; when already synced, they get an `onAdd` for every cached object first. Returns a function
   * that removes them (no event reaches them afterwards).
   */
  addHandlers(handlers: InformerHandlers<T>): () => void {
    this.handlers.push(handlers);
    if (this.synced) for (const obj of this.cache.list()) handlers.onAdd?.(obj);
    return () => {
      this.handlers = this.handlers.filter((h) => h !== handlers);
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.relist();
  }

  stop(): void {
    this.running = false;
    this.handle?.stop();
    this.handle = undefined;
  }

  private relist(): void {
    const list = this.client.list(this.resource, { ...this.options });
    const fresh = new Map<string, T>();
    for (const item of list.items as T[]) fresh.set(objectKey(item), item);
    for (const key of this.cache.keys()) {
      if (!fresh.has(key)) {
        const gone = this.cache.delete(key)!;
        for (const h of this.handlers) h.onDelete?.(gone);
      }
    }
    for (const obj of fresh.values()) this.apply({ type: 'ADDED', object: obj });
    this.resourceVersion = list.metadata.resourceVersion;
    this.synced = true;
    this.startWatch();
  }

  private startWatch(): void {
    if (!this.running) return;
    try {
      this.handle = this.client.watch(
        this.resource,
        { ...this.options, resourceVersion: this.resourceVersion, allowWatchBookmarks: true },
        (ev) => this.onEvent(ev),
      );
    } catch (e) {
      if (isApiError(e, 410)) return this.relist();
      throw e;
    }
  }

  private onEvent(ev: WatchEvent): void {
    if (ev.type === 'ERROR') {
      this.handle?.stop();
      if (this.running) this.relist();
      return;
    }
    if (ev.object.metadata.resourceVersion) this.resourceVersion = ev.object.metadata.resourceVersion;
    if (ev.type !== 'BOOKMARK') this.apply(ev);
  }

  private apply(ev: WatchEvent): void {
    const obj = ev.object as T;
    // Each delivery loops over the handlers as they were when it began (a removal replaces the array), without a
    // closure per event.
    if (ev.type === 'DELETED') {
      const old = this.cache.delete(objectKey(obj));
      if (old) for (const h of this.handlers) h.onDelete?.(obj);
      return;
    }
    const old = this.cache.set(obj);
    if (!old) for (const h of this.handlers) h.onAdd?.(obj);
    else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion)
      for (const h of this.handlers) h.onUpdate?.(old, obj);
  }
}
