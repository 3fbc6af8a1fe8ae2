/**
 * The extension host's end of the sandbox: runs the worker thread, matches
 * replies to requests (each times out after 10 s), keeps the mirror cache
 * up to date from notifications, and restarts the worker when it dies —
 * re-initialising it from the last snapshot it handed out, so a crash loses
 * at most the changes since then. No `vscode` import: tests run it directly.
 */
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';
import type { Status } from '../../../sandbox/api/errors';
import type { LogEntry } from '../../../sandbox/client/reconcileLog';
import type { Disposable, OperationNotification, PodLogNotification, SandboxConnection } from './connection';
import { DesiredIndex } from './desiredIndex';
import { MirrorCache } from './mirror';
import type {
  Method,
  Notification,
  ReplyMessage,
  Requests,
  RequestMessage,
  SandboxStatus,
  SelfHealRevert,
  WatchChange,
  WorkerMessage,
} from './protocol';
import { Emitter } from './emitter';
import { deploymentsIn, saveTraceFrom } from './saveTrace';

/** bench/extension's trace (off unless KUBE_RECONCILE_TRACE names a file). */
const trace = saveTraceFrom('host');

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/**
 * `init` is answered once the worker has loaded its bundle and built the control plane (restoring a saved snapshot
 * of any size): on a busy machine that alone can pass 10 s, and a timeout there reads "the sandbox could not start".
 */
export const INIT_TIMEOUT_MS = 60_000;
/** Fast-forward runs the cluster until settled before it answers: it gets longer. */
export const FAST_FORWARD_TIMEOUT_MS = 120_000;
/**
 * Plan Against Cluster… runs the whole plan of a real cluster's snapshot (thousands of pods) in the worker; before it
 * moved there it ran in the extension host with no limit, so its limit is far past any plan's time.
 */
export const LIVE_PLAN_TIMEOUT_MS = 600_000;
/** Crashes within a minute after which the host stops restarting the worker. */
export const MAX_RESTARTS_PER_MINUTE = 3;

/**
 * A request that failed: the worker's error (with the API server's Status when there is one), a timeout, or a crash.
 */
export class SandboxRequestError extends Error {
  constructor(
    message: string,
    readonly method: Method,
    readonly status?: Status,
  ) {
    super(message);
    this.name = 'SandboxRequestError';
  }
}

export interface SandboxHostOptions {
  /** The worker script: `dist/sandboxWorker.js` (tests pass a bootstrap that runs the TypeScript). */
  workerPath: string;
  workerOptions?: WorkerOptions;
  /** Per request (default 10 s; `init` 60 s; a fast-forward or a plan always 120 s; a live plan 10 minutes). */
  timeoutMs?: number;
  /** Wall clock for the restart budget; injectable for tests. */
  now?: () => number;
}

interface Pending {
  method: Method;
  params: unknown;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class SandboxHost implements SandboxConnection {
  readonly cache = new MirrorCache();
  readonly desired = new DesiredIndex();
  private worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private latestStatus: SandboxStatus | undefined;
  private quiet = true;
  private lastInit: Requests['init']['params'] | undefined;
  private lastSnapshot: unknown;
  private disposed = false;
  private crashes: number[] = [];
  private readonly changes = new Emitter<WatchChange[]>();
  private readonly settles = new Emitter<void>();
  private readonly logs = new Emitter<LogEntry[]>();
  private readonly statuses = new Emitter<SandboxStatus>();
  private readonly operations = new Emitter<OperationNotification>();
  private readonly podLogs = new Emitter<PodLogNotification>();
  private readonly crashed = new Emitter<Error>();
  private readonly desiredChanged = new Emitter<void>();
  private readonly selfHealed = new Emitter<SelfHealRevert[]>();

  constructor(private readonly options: SandboxHostOptions) {
    this.worker = this.spawn();
  }

  get status(): SandboxStatus | undefined {
    return this.latestStatus;
  }

  get settled(): boolean {
    return this.quiet;
  }

  request<M extends Method>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']> {
    if (this.disposed) return Promise.reject(new SandboxRequestError('the sandbox has been shut down', method));
    const id = this.nextId++;
    const timeoutMs =
      method === 'planLive'
        ? LIVE_PLAN_TIMEOUT_MS
        : isFastForward(method, params)
          ? FAST_FORWARD_TIMEOUT_MS
          : (this.options.timeoutMs ?? (method === 'init' ? INIT_TIMEOUT_MS : DEFAULT_REQUEST_TIMEOUT_MS));
    if (method === 'init') this.lastInit = params as Requests['init']['params'];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new SandboxRequestError(`the sandbox did not answer '${method}' within ${formatSeconds(timeoutMs)}`, method),
        );
      }, timeoutMs);
      this.pending.set(id, { method, params, resolve: resolve as (r: unknown) => void, reject, timer });
      const message: RequestMessage<M> = { kind: 'request', id, method, params };
      if (trace.enabled) trace.mark('request', { method, id });
      this.worker.postMessage(message);
    });
  }

  onDidChange(listener: (changes: WatchChange[]) => void): Disposable {
    return this.changes.on(listener);
  }

  onDidSettle(listener: () => void): Disposable {
    return this.settles.on(listener);
  }

  onDidLog(listener: (entries: LogEntry[]) => void): Disposable {
    return this.logs.on(listener);
  }

  onDidStatus(listener: (status: SandboxStatus) => void): Disposable {
    return this.statuses.on(listener);
  }

  onDidOperation(listener: (operation: OperationNotification) => void): Disposable {
    return this.operations.on(listener);
  }

  onDidChangeDesired(listener: () => void): Disposable {
    return this.desiredChanged.on(listener);
  }

  onDidSelfHeal(listener: (reverts: SelfHealRevert[]) => void): Disposable {
    return this.selfHealed.on(listener);
  }

  onDidPodLog(listener: (log: PodLogNotification) => void): Disposable {
    return this.podLogs.on(listener);
  }

  /** The worker died (it is restarted, unless it keeps dying). */
  onDidCrash(listener: (error: Error) => void): Disposable {
    return this.crashed.on(listener);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.failAll('the sandbox has been shut down');
    void this.worker.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(this.options.workerPath, this.options.workerOptions);
    let failure: Error | undefined;
    worker.on('message', (m: WorkerMessage) => this.receive(m));
    worker.on('error', (e) => (failure = e));
    worker.on('exit', (code) => {
      if (this.disposed || worker !== this.worker) return;
      this.onCrash(failure ?? new Error(`the sandbox worker exited with code ${code}`));
    });
    return worker;
  }

  private onCrash(cause: Error): void {
    const now = (this.options.now ?? Date.now)();
    this.crashes = [...this.crashes.filter((t) => now - t < 60_000), now];
    const restart = this.crashes.length <= MAX_RESTARTS_PER_MINUTE;
    const error = new Error(
      `The sandbox stopped: ${cause.message}.${restart ? ' Restarting it.' : ' It crashed repeatedly and was not restarted.'}`,
    );
    this.failAll(error.message);
    this.crashed.fire(error);
    if (!restart) {
      this.disposed = true;
      return;
    }
    this.worker = this.spawn();
    if (this.lastInit) {
      const snapshot = this.lastSnapshot ?? this.lastInit.snapshot;
      this.request('init', { ...this.lastInit, snapshot }).catch((e: unknown) =>
        this.crashed.fire(e instanceof Error ? e : new Error(String(e))),
      );
    }
  }

  /** After a reset, a crash must not bring back the state from before it. */
  private forgetSnapshots(): void {
    this.lastSnapshot = undefined;
    if (this.lastInit) this.lastInit = { settings: this.lastInit.settings };
  }

  private failAll(message: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new SandboxRequestError(message, p.method));
      this.pending.delete(id);
    }
  }

  private receive(m: WorkerMessage): void {
    if (m.kind === 'reply') this.settle(m);
    else this.notify(m.notification);
  }

  private settle(m: ReplyMessage): void {
    const p = this.pending.get(m.id);
    if (!p) return; // timed out, or an answer to a malformed message
    if (trace.enabled) trace.mark('answer', { method: p.method, id: m.id });
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.error) return p.reject(new SandboxRequestError(m.error.message, p.method, m.error.status));
    if (p.method === 'snapshot') this.lastSnapshot = (m.result as Requests['snapshot']['result']).snapshot;
    if (p.method === 'control' && (p.params as { type?: string }).type === 'reset') this.forgetSnapshots();
    if (p.method === 'init' || p.method === 'control') {
      const { warning: _warning, ...status } = m.result as Requests['init']['result'];
      this.setStatus(status);
    }
    p.resolve(m.result);
  }

  private notify(n: Notification): void {
    if (n.kind === 'status') return this.setStatus(n.status);
    if (n.kind === 'log') return this.logs.fire(n.entries);
    if (n.kind === 'operation') return this.operations.fire(n);
    if (n.kind === 'selfHeal') return this.selfHealed.fire(n.reverts);
    if (n.kind === 'desired') {
      this.desired.replace(n.objects);
      return this.desiredChanged.fire();
    }
    if (n.kind === 'podLog') return this.podLogs.fire(n);
    const changes = this.cache.apply(n);
    this.quiet = n.kind === 'list' || n.quiet === true;
    if (trace.enabled && n.kind === 'changes')
      trace.mark('changes', { count: n.changes.length, quiet: this.quiet, deployments: deploymentsIn(n.changes) });
    if (changes.length > 0 || n.kind === 'list') this.changes.fire(changes);
    if (this.quiet) this.settles.fire();
  }

  private setStatus(status: SandboxStatus): void {
    this.latestStatus = status;
    this.statuses.fire(status);
  }
}

/** A fast-forward, or a plan (foresight: a fork run to settled), runs virtual time and may take long. */
function isFastForward(method: Method, params: unknown): boolean {
  return method === 'plan' || (method === 'control' && (params as { type?: string }).type === 'fastForward');
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
