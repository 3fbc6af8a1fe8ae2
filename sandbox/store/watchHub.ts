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
  /**
   * An equality term the predicate requires (`spec.nodeName=node-7`): the hub
   * then offers a change only to watchers whose value the object had before
   * or after it, instead of running every kubelet's predicate on every pod write.
   */
  route?: WatchRoute;
}

/** `get(obj) === value` is necessary for `predicate(obj)`; `field` names the getter (one index per field). */
export interface WatchRoute {
  field: string;
  value: string;
  get: (obj: KubeObject) => string;
}

export interface WatchHandle {
  /** Stops delivery; safe to call more than once and from inside the handler. */
  stop(): void;
  readonly stopped: boolean;
}

interface Watcher {
  /** Creation order: delivery follows it, as it followed insertion into one set. */
  seq: number;
  spec: WatchSpec;
  handler: (event: WatchEvent) => void;
  /** Changes at or below this revision were already covered (initial list or replay). */
  seen: number;
  stopped: boolean;
}

/** A kind's routed watchers: by route field, then by value. */
interface RouteIndex {
  get: (obj: KubeObject) => string;
  byValue: Map<string, Set<Watcher>>;
}

/** A kind's watchers: every one (in creation order), those without a route, and the routed ones by value. */
class KindWatchers {
  readonly all = new Set<Watcher>();
  readonly plain = new Set<Watcher>();
  readonly routes = new Map<string, RouteIndex>();

  add(w: Watcher): void {
    this.all.add(w);
    const route = w.spec.route;
    if (!route) {
      this.plain.add(w);
      return;
    }
    let index = this.routes.get(route.field);
    if (!index) this.routes.set(route.field, (index = { get: route.get, byValue: new Map() }));
    let set = index.byValue.get(route.value);
    if (!set) index.byValue.set(route.value, (set = new Set()));
    set.add(w);
  }

  delete(w: Watcher): void {
    if (!this.all.delete(w)) return;
    const route = w.spec.route;
    if (!route) {
      this.plain.delete(w);
      return;
    }
    const index = this.routes.get(route.field)!;
    const set = index.byValue.get(route.value)!;
    set.delete(w);
    if (set.size === 0) index.byValue.delete(route.value);
    if (index.byValue.size === 0) this.routes.delete(route.field);
  }

  /**
   * The watchers that may care about `rec`, in creation order. Every set is in creation order already (a watcher is
   * added to its sets when created): one routed set (a pod's node, unchanged by a status write) is merged with the
   * unrouted ones; several are sorted.
   */
  candidates(rec: ChangeRecord): Iterable<Watcher> {
    if (this.routes.size === 0) return this.plain;
    let one: Set<Watcher> | undefined;
    let several: Watcher[] | undefined;
    for (const index of this.routes.values()) {
      const value = index.get(rec.object);
      const now = index.byValue.get(value);
      if (now) {
        if (!one) one = now;
        else several = appendAll(several ?? appendAll([], one), now);
      }
      if (!rec.previous) continue;
      const was = index.get(rec.previous);
      // The same value (a status write leaves a pod on its node): the same watchers, no second lookup.
      const before = was === value ? now : index.byValue.get(was);
      if (before && before !== now) {
        if (!one) one = before;
        else several = appendAll(several ?? appendAll([], one), before);
      }
    }
    if (!one) return this.plain;
    if (several) return appendAll(several, this.plain).sort(bySeq);
    return mergeBySeq(one, this.plain);
  }
}

function appendAll(out: Watcher[], set: Set<Watcher>): Watcher[] {
  for (const w of set) out.push(w);
  return out;
}

function bySeq(a: Watcher, b: Watcher): number {
  return a.seq - b.seq;
}

/** The watchers of two sets that are each in creation order, in creation order (the sets hold different watchers). */
function mergeBySeq(a: Set<Watcher>, b: Set<Watcher>): Watcher[] {
  const out: Watcher[] = [];
  const rest = b.values();
  let next = rest.next();
  for (const w of a) {
    while (!next.done && next.value.seq < w.seq) {
      out.push(next.value);
      next = rest.next();
    }
    out.push(w);
  }
  while (!next.done) {
    out.push(next.value);
    next = rest.next();
  }
  return out;
}

export class WatchHub {
  private readonly byKind = new Map<string, KindWatchers>();
  private nextSeq = 0;
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
    for (const set of this.byKind.values()) n += set.all.size;
    return n;
  }

  /**
   * Starts a watch. Initial events (or the replay from `fromRevision`) are
   * delivered before this returns. The caller checks `fromRevision` against
   * compaction first (see ApiServer.watch).
   */
  watch(spec: WatchSpec, handler: (event: WatchEvent) => void): WatchHandle {
    const watcher: Watcher = { seq: this.nextSeq++, spec, handler, seen: this.store.revision, stopped: false };
    const handle: WatchHandle = {
      stop: () => this.remove(watcher),
      get stopped() {
        return watcher.stopped;
      },
    };
    let set = this.byKind.get(spec.kindKey);
    if (!set) this.byKind.set(spec.kindKey, (set = new KindWatchers()));
    set.add(watcher);
    const from = spec.fromRevision;
    this.exclusive(() => (from === undefined ? this.sendInitial(watcher) : this.replay(watcher, from)));
    return handle;
  }

  /** Sends a BOOKMARK with the current revision to every watcher that asked for bookmarks. */
  bookmark(): void {
    for (const set of this.byKind.values()) {
      for (const w of set.all) if (w.spec.bookmarks && !w.stopped) this.sendBookmark(w, false);
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

  /** A change from the store: queued while a delivery is under way, else delivered now (and what it queues after). */
  private enqueue(rec: ChangeRecord): void {
    const set = this.byKind.get(rec.kindKey);
    if (!set) return;
    if (this.dispatching) {
      this.queue.push(rec);
      return;
    }
    this.dispatching = true;
    try {
      this.dispatch(set, rec);
      this.drain();
    } finally {
      this.release();
    }
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
      this.drain();
    } finally {
      this.release();
    }
  }

  private drain(): void {
    while (this.head < this.queue.length) {
      const next = this.queue[this.head++]!;
      const set = this.byKind.get(next.kindKey);
      if (set) this.dispatch(set, next);
    }
  }

  private dispatch(set: KindWatchers, rec: ChangeRecord): void {
    for (const w of set.candidates(rec)) if (!w.stopped && rec.revision > w.seen) this.convertAndDeliver(w, rec);
  }

  private release(): void {
    if (this.queue.length > 0) this.queue.length = 0;
    this.head = 0;
    this.dispatching = false;
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
      const gone = deepFreeze({
        ...prev,
        metadata: { ...prev.metadata, resourceVersion: rec.object.metadata.resourceVersion },
      });
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
