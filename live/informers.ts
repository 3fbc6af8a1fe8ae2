/**
 * List + watch of a real cluster for the editor's views, as client-go's reflector keeps an informer's store
 * (upstream: staging/src/k8s.io/client-go/tools/cache/reflector.go, `ListAndWatch`): each resource is listed, then
 * watched from the list's resourceVersion; a watch the server ends is resumed from the last resourceVersion seen; a
 * 410 Gone (the version was compacted) relists and reports the difference; a failure retries with exponential
 * back-off with jitter (800 ms doubling to at most 30 s, each wait stretched by up to its own length, as the
 * reflector's backoff manager; the random source is injectable and seeded, so tests see the same waits).
 *
 * It produces the same two messages the sandbox worker sends the extension host — the whole state once (`list`),
 * then batches of changes (at most one batch per `batchMs`) — so the host's mirror cache and the views it feeds are
 * the same for the sandbox and a real cluster. Only GET requests: a read-only connection suffices.
 */
import type { KubeObject } from '../sandbox/api/types';
import { SeededRandom } from '../sandbox/clock/random';
import { LiveError } from './connection';
import type { LiveConnection, LiveWatch, WatchEvent } from './connection';

/** A watched resource: the plural name the views use, and its API group/version path. */
export interface LiveResource {
  resource: string;
  /** `/api/v1` or `/apis/apps/v1`. */
  groupVersion: string;
  namespaced: boolean;
  apiVersion: string;
  kind: string;
}

/** What the Cluster tree shows (client/src/model/kinds.ts), without Secrets: their values stay in the cluster. */
export const TREE_RESOURCES: readonly LiveResource[] = [
  { resource: 'nodes', groupVersion: '/api/v1', namespaced: false, apiVersion: 'v1', kind: 'Node' },
  { resource: 'namespaces', groupVersion: '/api/v1', namespaced: false, apiVersion: 'v1', kind: 'Namespace' },
  { resource: 'pods', groupVersion: '/api/v1', namespaced: true, apiVersion: 'v1', kind: 'Pod' },
  { resource: 'services', groupVersion: '/api/v1', namespaced: true, apiVersion: 'v1', kind: 'Service' },
  { resource: 'configmaps', groupVersion: '/api/v1', namespaced: true, apiVersion: 'v1', kind: 'ConfigMap' },
  {
    resource: 'deployments',
    groupVersion: '/apis/apps/v1',
    namespaced: true,
    apiVersion: 'apps/v1',
    kind: 'Deployment',
  },
  {
    resource: 'replicasets',
    groupVersion: '/apis/apps/v1',
    namespaced: true,
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
  },
  {
    resource: 'statefulsets',
    groupVersion: '/apis/apps/v1',
    namespaced: true,
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
  },
  { resource: 'daemonsets', groupVersion: '/apis/apps/v1', namespaced: true, apiVersion: 'apps/v1', kind: 'DaemonSet' },
  { resource: 'jobs', groupVersion: '/apis/batch/v1', namespaced: true, apiVersion: 'batch/v1', kind: 'Job' },
  { resource: 'cronjobs', groupVersion: '/apis/batch/v1', namespaced: true, apiVersion: 'batch/v1', kind: 'CronJob' },
];

export interface LiveChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  object: KubeObject;
}

/** The shapes of the sandbox worker's `list` and `changes` notifications (client/src/sandbox/protocol.ts). */
export type LiveFeed =
  | { kind: 'list'; resourceVersion: string; objects: { resource: string; object: KubeObject }[] }
  | { kind: 'changes'; changes: LiveChange[] };

export interface LiveFeedStatus {
  state: 'connecting' | 'synced' | 'reconnecting';
  /** Why it is reconnecting: the error's message (kubectl's words, no credential). */
  message?: string;
  errorKind?: LiveError['kind'];
  /** Milliseconds until the next attempt, while reconnecting. */
  retryInMs?: number;
}

/** Timers, injected so tests drive the batches and back-off without waiting. */
export interface FeedTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: FeedTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface LiveInformerOptions {
  resources?: readonly LiveResource[];
  /** Watch only these namespaces (large clusters); default all. Nodes and namespaces are always cluster-wide. */
  namespaces?: readonly string[];
  /** Changes are sent at most once per this many milliseconds (default 100: ≤ 10 batches a second, as the worker). */
  batchMs?: number;
  timers?: FeedTimers;
  /**
   * A float in [0, 1) for the back-off's jitter (default: a generator seeded from the process and the time it
   * started, so two editors reconnecting to one API server spread out; tests pass a seeded one).
   */
  random?: () => number;
}

/** client-go's reflector backoff before jitter: 800 ms initial, factor 2, cap 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 800 * 2 ** Math.max(0, attempt));
}

/**
 * The wait before attempt `attempt` (0 first) as client-go's reflector computes it: its backoff manager is
 * `wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0, clock)` — jitter factor 1.0 — and `Backoff.Step` caps
 * the duration first, then applies `wait.Jitter(d, 1.0)` = d + rand·d, so a wait lies in [d, 2d) (up to 60 s at the
 * cap). `random` gives a float in [0, 1).
 * upstream: staging/src/k8s.io/client-go/tools/cache/reflector.go (NewReflectorWithOptions),
 * staging/src/k8s.io/apimachinery/pkg/util/wait/backoff.go (Backoff.Step, Jitter)
 */
export function jitteredBackoffMs(attempt: number, random: () => number): number {
  const d = backoffMs(attempt);
  return Math.round(d + random() * d);
}

let processSeed = 0;
function defaultRandom(): () => number {
  const r = new SeededRandom(`${process.pid}/${performance.timeOrigin}/${processSeed++}`);
  return () => r.next();
}

interface Stream {
  resource: LiveResource;
  path: string;
  /** Objects by namespace/name, as last seen. */
  known: Map<string, KubeObject>;
  resourceVersion: string;
  watch?: LiveWatch;
  failures: number;
  retry?: unknown;
}

function key(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

export class LiveInformers {
  private readonly streams: Stream[];
  private readonly timers: FeedTimers;
  private readonly batchMs: number;
  private readonly random: () => number;
  private pending: LiveChange[] = [];
  private flushTimer: unknown;
  private stopped = false;
  private listed = false;
  private status: LiveFeedStatus = { state: 'connecting' };

  constructor(
    private readonly conn: LiveConnection,
    private readonly onFeed: (feed: LiveFeed) => void,
    private readonly onStatus: (status: LiveFeedStatus) => void = () => undefined,
    options: LiveInformerOptions = {},
  ) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.batchMs = options.batchMs ?? 100;
    this.random = options.random ?? defaultRandom();
    const namespaces = options.namespaces && options.namespaces.length > 0 ? options.namespaces : undefined;
    this.streams = (options.resources ?? TREE_RESOURCES).flatMap((r) =>
      (r.namespaced && namespaces ? namespaces.map((ns) => `/namespaces/${encodeURIComponent(ns)}`) : ['']).map(
        (scope): Stream => ({
          resource: r,
          path: `${r.groupVersion}${scope}/${r.resource}`,
          known: new Map(),
          resourceVersion: '',
          failures: 0,
        }),
      ),
    );
  }

  /**
   * Lists every resource and sends the whole state once, then watches. Rejects (nothing sent) when the first list
   * fails — an unreachable server, refused credentials — so the caller can say so; later failures reconnect.
   */
  async start(): Promise<void> {
    this.setStatus({ state: 'connecting' });
    const objects: { resource: string; object: KubeObject }[] = [];
    let newest = 0;
    for (const s of this.streams) {
      const list = await this.conn.list(s.path);
      s.resourceVersion = list.resourceVersion;
      newest = Math.max(newest, Number(list.resourceVersion) || 0);
      for (const item of list.items) {
        const object = this.typed(s, item);
        s.known.set(key(object), object);
        objects.push({ resource: s.resource.resource, object });
      }
    }
    if (this.stopped) return;
    this.listed = true;
    this.onFeed({ kind: 'list', resourceVersion: String(newest), objects });
    this.setStatus({ state: 'synced' });
    for (const s of this.streams) this.watch(s);
  }

  /** Stops every watch and timer; nothing is sent afterwards. */
  stop(): void {
    this.stopped = true;
    for (const s of this.streams) {
      s.watch?.stop();
      if (s.retry !== undefined) this.timers.clearTimeout(s.retry);
    }
    if (this.flushTimer !== undefined) this.timers.clearTimeout(this.flushTimer);
  }

  get current(): LiveFeedStatus {
    return this.status;
  }

  private setStatus(status: LiveFeedStatus): void {
    this.status = status;
    this.onStatus(status);
  }

  /** List items come without apiVersion and kind: the views (and sync status) need them. */
  private typed(s: Stream, o: KubeObject): KubeObject {
    return { ...o, apiVersion: s.resource.apiVersion, kind: s.resource.kind };
  }

  private watch(s: Stream): void {
    if (this.stopped) return;
    s.watch = this.conn.watch(
      s.path,
      s.resourceVersion,
      (e) => this.onEvent(s, e),
      (error) => this.onWatchEnd(s, error),
    );
  }

  private onEvent(s: Stream, e: WatchEvent): void {
    if (e.type === 'ERROR') {
      const status = e.object as unknown as { code?: number; message?: string };
      s.watch?.stop();
      // upstream (reflector): 410 Gone — the resourceVersion is too old: list again
      if (status.code === 410) void this.relist(s);
      else this.retry(s, new LiveError('server', `watch of ${s.path}: ${status.message ?? 'error'}`));
      return;
    }
    const rv = e.object.metadata?.resourceVersion;
    if (rv) s.resourceVersion = rv;
    if (e.type === 'BOOKMARK') return;
    s.failures = 0;
    const object = this.typed(s, e.object);
    if (e.type === 'DELETED') s.known.delete(key(object));
    else s.known.set(key(object), object);
    this.queue({ type: e.type, resource: s.resource.resource, object });
  }

  private onWatchEnd(s: Stream, error?: LiveError): void {
    if (this.stopped) return;
    if (!error) return this.watch(s); // the server's watch timeout: resume from the last resourceVersion
    this.retry(s, error);
  }

  private retry(s: Stream, error: LiveError): void {
    if (this.stopped) return;
    const wait = jitteredBackoffMs(s.failures++, this.random);
    this.setStatus({ state: 'reconnecting', message: error.message, errorKind: error.kind, retryInMs: wait });
    s.retry = this.timers.setTimeout(() => {
      s.retry = undefined;
      void this.relist(s);
    }, wait);
  }

  /** Lists one resource again and sends what changed since it was last seen. */
  private async relist(s: Stream): Promise<void> {
    if (this.stopped) return;
    let list: { items: KubeObject[]; resourceVersion: string };
    try {
      list = await this.conn.list(s.path);
    } catch (e) {
      if (!(e instanceof LiveError)) throw e;
      return this.retry(s, e);
    }
    if (this.stopped) return;
    const seen = new Set<string>();
    for (const item of list.items) {
      const object = this.typed(s, item);
      const k = key(object);
      seen.add(k);
      const old = s.known.get(k);
      if (old?.metadata.resourceVersion === object.metadata.resourceVersion) continue;
      s.known.set(k, object);
      this.queue({ type: old ? 'MODIFIED' : 'ADDED', resource: s.resource.resource, object });
    }
    for (const [k, old] of s.known)
      if (!seen.has(k)) {
        s.known.delete(k);
        this.queue({ type: 'DELETED', resource: s.resource.resource, object: old });
      }
    s.resourceVersion = list.resourceVersion;
    s.failures = 0;
    if (this.listed && this.streams.every((x) => x.retry === undefined)) this.setStatus({ state: 'synced' });
    this.watch(s);
  }

  private queue(change: LiveChange): void {
    this.pending.push(change);
    if (this.flushTimer !== undefined) return;
    this.flushTimer = this.timers.setTimeout(() => {
      this.flushTimer = undefined;
      const changes = this.pending;
      this.pending = [];
      if (!this.stopped && changes.length > 0) this.onFeed({ kind: 'changes', changes });
    }, this.batchMs);
  }
}
