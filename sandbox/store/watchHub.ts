/**
 * Delivers store changes to watchers, in revision order, exactly once each.
 *
 * Delivery is synchronous but never re-entrant: a change made by a handler
 * while changes are being delivered is queued behind them, so every watcher
 * sees every change in the same order as the store made them.
 */
import type { KubeObject, WatchEvent } from '../api/types';
import { deepFreeze } from '../util/json';
import type { ChangeRecord } from './history';
import type { ObjectStore } from './objectStore';

export interface WatchSpec {
  kindKey: string;
  /** Only this namespace; all namespaces when undefined. */
  namespace?: string;
  /** Label/field selectors compiled into one predicate; objects that stop matching are reported DELETED. */
  predicate?: (obj: KubeObject) => boolean;
  /** Resume after this revision; when undefined, start with an ADDED for every current object. */
  fromRevision?: number;
  /** Send BOOKMARK events when `bookmark()` is called. */
  bookmarks?: boolean;
  /** After the initial ADDED events, send a BOOKMARK annotated `k8s.io/initial-events-end` (sendInitialEvents). */
  initialEventsBookmark?: boolean;
  /** apiVersion and kind for BOOKMARK objects. */
  apiVersion: string;
  kind: string;
}

export interface WatchHandle {
  /** Stops delivery; safe to call more than once and from inside the handler. */
  stop(): void;
  readonly stopped: boolean;
}

interface Watcher {
  spec: WatchSpec;
  handler: (event: WatchEvent) => void;
  /** Changes at or below this revision were already covered (initial list or replay). */
  seen: number;
  stopped: boolean;
}

export class WatchHub {
  private readonly byKind = new Map<string, Set<Watcher>>();
  private readonly queue: ChangeRecord[] = [];
  private head = 0;
  private dispatching = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly reportError: (error: unknown) => void,
  ) {
    store.onChange((rec) => this.enqueue(rec));
  }

  /** Number of active watchers (for tests and the HTTP layer's limits). */
  get watcherCount(): number {
    let n = 0;
    for (const set of this.byKind.values()) n += set.size;
    return n;
  }

  /**
   * Starts a watch. Initial events (or the replay from `fromRevision`) are
   * delivered before this returns. The caller checks `fromRevision` against
   * compaction first (see ApiServer.watch).
   */
  watch(spec: WatchSpec, handler: (event: WatchEvent) => void): WatchHandle {
    const watcher: Watcher = { spec, handler, seen: this.store.revision, stopped: false };
    const handle: WatchHandle = {
      stop: () => this.remove(watcher),
      get stopped() {
        return watcher.stopped;
      },
    };
    let set = this.byKind.get(spec.kindKey);
    if (!set) this.byKind.set(spec.kindKey, (set = new Set()));
    set.add(watcher);
    const from = spec.fromRevision;
    this.exclusive(() => (from === undefined ? this.sendInitial(watcher) : this.replay(watcher, from)));
    return handle;
  }

  /** Sends a BOOKMARK with the current revision to every watcher that asked for bookmarks. */
  bookmark(): void {
    for (const set of this.byKind.values()) {
      for (const w of set) if (w.spec.bookmarks && !w.stopped) this.sendBookmark(w, false);
    }
  }

  private remove(watcher: Watcher): void {
    watcher.stopped = true;
    this.byKind.get(watcher.spec.kindKey)?.delete(watcher);
  }

  private sendInitial(w: Watcher): void {
    const { kindKey, namespace, predicate } = w.spec;
    for (const obj of this.store.list(kindKey, namespace)) {
      if (w.stopped) return;
      if (!predicate || predicate(obj)) this.deliver(w, { type: 'ADDED', object: obj });
    }
    if (w.spec.initialEventsBookmark) this.sendBookmark(w, true);
  }

  private replay(w: Watcher, from: number): void {
    const limit = w.seen;
    for (const rec of this.store.changesSince(from) ?? []) {
      if (w.stopped || rec.revision > limit) return;
      if (rec.kindKey === w.spec.kindKey) this.convertAndDeliver(w, rec);
    }
    w.seen = limit;
  }

  private enqueue(rec: ChangeRecord): void {
    if (!this.byKind.has(rec.kindKey)) return;
    this.queue.push(rec);
    if (!this.dispatching) this.exclusive(() => undefined);
  }

  /** Runs `fn` with delivery held back, then delivers everything queued meanwhile, in order. */
  private exclusive(fn: () => void): void {
    if (this.dispatching) {
      fn();
      return;
    }
    this.dispatching = true;
    try {
      fn();
      while (this.head < this.queue.length) {
        const next = this.queue[this.head++];
        const set = this.byKind.get(next.kindKey);
        if (set) for (const w of set) if (!w.stopped && next.revision > w.seen) this.convertAndDeliver(w, next);
      }
    } finally {
      this.queue.length = 0;
      this.head = 0;
      this.dispatching = false;
    }
  }

  private convertAndDeliver(w: Watcher, rec: ChangeRecord): void {
    w.seen = rec.revision;
    const { namespace, predicate } = w.spec;
    if (namespace !== undefined && rec.namespace !== namespace) return;
    if (!predicate) {
      this.deliver(w, { type: rec.type, object: rec.object });
      return;
    }
    const now = predicate(rec.object);
    if (rec.type !== 'MODIFIED') {
      if (now) this.deliver(w, { type: rec.type, object: rec.object });
      return;
    }
    const before = predicate(rec.previous!);
    if (now) this.deliver(w, { type: before ? 'MODIFIED' : 'ADDED', object: rec.object });
    else if (before) {
      // Upstream sends the previous state, stamped with the new resourceVersion.
      const prev = rec.previous!;
      const gone = deepFreeze({ ...prev, metadata: { ...prev.metadata, resourceVersion: rec.object.metadata.resourceVersion } });
      this.deliver(w, { type: 'DELETED', object: gone });
    }
  }

  private sendBookmark(w: Watcher, initialEnd: boolean): void {
    const metadata: KubeObject['metadata'] = { resourceVersion: String(this.store.revision) };
    if (initialEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    this.deliver(w, { type: 'BOOKMARK', object: { apiVersion: w.spec.apiVersion, kind: w.spec.kind, metadata } });
  }

  private deliver(w: Watcher, event: WatchEvent): void {
    try {
      w.handler(event);
    } catch (error) {
      this.reportError(error);
    }
  }
}
