/**
 * The controller base: what every controller of the sandbox is built on, in
 * the spirit of controller-runtime and of kube-controller-manager's
 * controllers. A controller says what it watches and how an event maps to a
 * work-queue key, and writes `reconcile(key)`; the base owns the rest — the
 * `WorkQueue` (de-duplication, retries with back-off, `requeueAfter`), the
 * `Recorder` (Events and reconciliation-log lines, including the line for a
 * failed sync), start and stop (no event is handled after stop, no timer
 * fires), and the shared informers' handlers.
 *
 * ## Writing a controller
 *
 * 1. Extend `Controller` and give it its name (what the log and Events say).
 * 2. In `watch(w)`, declare the informers you read and how their events map
 *    to keys, with the handlers of `./handlers`: `enqueueObject()` for the
 *    kind you reconcile, `enqueueOwner(owners, {kind})` for what it creates,
 *    `enqueueSelecting(owners, selectorOf)` for what it selects, and
 *    `enqueueMapped(fn)` for anything else (or an `EventHandler` of your
 *    own, which gets an `enqueue` function). Add cache indexes with
 *    `w.index`. Handlers only enqueue keys: the decision is `reconcile`'s.
 * 3. In `reconcile(key)`, read the caches, compare with what should be, and
 *    act through `this.ctx.api` — level-triggered: the same key may come
 *    once for many events, or again with nothing changed. Return
 *    `{ requeueAfter: ms }` for work due later (a deadline, a pod becoming
 *    available); throw to have the key retried with exponential back-off
 *    (5 ms doubling, reset by the next success) and logged as `SyncError`
 *    (`sync "<key>" failed: <why> (retry in <n>ms)`; override
 *    `describeFailure` when a key is not an object's `namespace/name`).
 * 4. Say what you did with `this.recorder.event(obj, type, reason, message)`
 *    (an Event plus a log line) or `this.recorder.logOnly(...)`.
 * 5. Wire it in `sandbox/cluster/components.ts` — the only place controllers
 *    are created — and test it with `test/sandbox/controllers/harness.ts`.
 *
 * A tiny example: annotate every Namespace with how many pods it holds.
 *
 *     class PodCountController extends Controller {
 *       private namespaces!: Informer<Typed<Namespace>>;
 *       private pods!: Informer<Typed<Pod>>;
 *
 *       constructor(ctx: ComponentContext) {
 *         super(ctx, { name: 'podcount-controller' });
 *       }
 *
 *       protected watch(w: Watches): void {
 *         this.namespaces = w.watch('namespaces', enqueueObject());
 *         this.pods = w.watch('pods', enqueueMapped((pod) => pod.metadata.namespace));
 *       }
 *
 *       protected reconcile(name: string): ReconcileResult {
 *         const ns = this.namespaces.cache.get(name);
 *         if (!ns || ns.metadata.deletionTimestamp) return;
 *         const count = String(this.pods.cache.list(name).length);
 *         if (ns.metadata.annotations?.['example.dev/pods'] === count) return;
 *         const annotations = { ...ns.metadata.annotations, 'example.dev/pods': count };
 *         this.ctx.api.update({ ...ns, metadata: { ...ns.metadata, annotations } });
 *       }
 *     }
 *
 * A controller with more than one kind of work (the Job controller's orphan
 * pods, the node lifecycle controller's pods and heartbeats) adds queues with
 * `newQueue`, each with its own reconcile; one that must act at a known time
 * and withdraw it (a progress deadline, a node's grace period, a CronJob's
 * next run) takes `newTimers`. Both stop with the controller; anything else
 * it keeps (a periodic tick) it cancels in `onStop`. Expectations
 * (`./expectations`) are for controllers that create and delete in bulk and
 * must not act twice on a stale cache: `enqueueOwnerObserving` observes them
 * as dependents come and go. Handlers that keep books rather than map
 * (the node lifecycle controller's count of Ready nodes) use `w.handle`.
 *
 * The scheduler and the kubelets are components but not controllers: the
 * scheduler has its own queue (active, back-off, unschedulable — upstream's
 * scheduling queue), and a kubelet stops and starts again with its node. They
 * use typed informers directly (the kubelet its own, `Informer.forResource`
 * with a field selector).
 */
import type { ObjectsByResource, ResourceName } from '../../api/resourceObjects';
import type { KubeObject } from '../../api/types';
import type { IndexFunc } from '../../client/cache';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import type { Informer, InformerHandlers } from '../../client/informer';
import type { EventHandler } from './handlers';
import type { KeyTimersOptions } from './keyTimers';
import { KeyTimers } from './keyTimers';
import type { ReconcileResult } from './workQueue';
import { WorkQueue } from './workQueue';

export type { ReconcileResult } from './workQueue';

export interface ControllerOptions {
  /** The component's name: `replicaset-controller`. */
  name: string;
  /** The component its Events and log lines name, when not `name` (upstream's `node-controller`). */
  recorderName?: string;
}

/** How a failed key is named in its log line: the object, and what failed (default `sync "<key>"`). */
export interface FailureSubject {
  object: string;
  what: string;
}

export abstract class Controller implements Component {
  readonly name: string;
  protected readonly recorder: Recorder;
  /** The queue `reconcile` serves. */
  protected readonly queue: WorkQueue;
  /**
   * Where the controller is in its life. An object of one shape for every controller, so the check each informer
   * event makes (`running`, in the handlers `Watches` wraps) reads one property of one shape: the controller's own
   * field would be read from a dozen classes' shapes at one site.
   */
  private readonly life: { phase: 'new' | 'running' | 'stopped' } = { phase: 'new' };
  private readonly queues: WorkQueue[] = [];
  private readonly timers: KeyTimers[] = [];
  private readonly removals: (() => void)[] = [];

  protected constructor(
    protected readonly ctx: ComponentContext,
    options: ControllerOptions,
  ) {
    this.name = options.name;
    this.recorder = new Recorder(ctx, options.recorderName ?? options.name);
    this.queue = this.newQueue((key) => this.reconcile(key));
  }

  /** Declares the informers this controller reads and how their events map to keys (called once, by `start`). */
  protected abstract watch(w: Watches): void;

  /** Brings the object (or whatever `key` names) to what it should be. Throw to retry with back-off. */
  protected abstract reconcile(key: string): ReconcileResult;

  /** How a failed key is named in its `SyncError` log line. */
  protected describeFailure(key: string): FailureSubject {
    return { object: key, what: `sync "${key}"` };
  }

  /** Cancels what the controller keeps outside its queues and timers (called once, by `stop`). */
  protected onStop(): void {}

  /** Between `start` and `stop`. */
  protected get running(): boolean {
    return this.life.phase === 'running';
  }

  start(): void {
    if (this.life.phase !== 'new') return;
    this.life.phase = 'running';
    const life = this.life;
    this.watch(new Watches(this.ctx, this.queue, this.removals, () => life.phase === 'running'));
  }

  /** Final: the handlers are removed, the queues shut down, the timers cancelled. */
  stop(): void {
    if (this.life.phase === 'stopped') return;
    this.life.phase = 'stopped';
    for (const remove of this.removals.splice(0)) remove();
    for (const q of this.queues) q.shutdown();
    for (const t of this.timers) t.cancelAll();
    this.onStop();
  }

  /** Another queue with its own reconcile, retried and logged like the main one. */
  protected newQueue(reconcile: (key: string) => ReconcileResult): WorkQueue {
    const queue = new WorkQueue(this.ctx.clock, {
      reconcile,
      onError: (key, error, retryInMs) => {
        const { object, what } = this.describeFailure(key);
        this.recorder.syncFailed(object, error, retryInMs, what);
      },
    });
    this.queues.push(queue);
    return queue;
  }

  /** Cancellable timers per key (see `KeyTimers`), cancelled by `stop`. */
  protected newTimers(fire: (key: string) => void, options: KeyTimersOptions = {}): KeyTimers {
    const timers = new KeyTimers(this.ctx.clock, fire, options);
    this.timers.push(timers);
    return timers;
  }
}

/**
 * What a controller declares in `watch`: the shared informers it reads (typed by resource), cache indexes, and
 * event handlers that map events to keys. Declarations take effect in the order they are made.
 */
export class Watches {
  /** @internal Made by `Controller.start`. */
  constructor(
    private readonly ctx: ComponentContext,
    private readonly queue: WorkQueue,
    private readonly removals: (() => void)[],
    private readonly running: () => boolean,
  ) {}

  /** The shared informer of a resource, without handlers (a cache to read). */
  informer<R extends ResourceName>(resource: R): Informer<ObjectsByResource[R]>;
  informer(resource: string): Informer;
  informer(resource: string): Informer {
    return this.ctx.informers.get(resource);
  }

  /** Adds an index to an informer's shared cache, unless it has one of that name (controllers share caches). */
  index<T extends KubeObject>(informer: Informer<T>, name: string, fn: IndexFunc<T>): void {
    if (!informer.cache.hasIndex(name)) informer.cache.addIndex(name, fn);
  }

  /**
   * Routes a resource's events through `handler` into `queue` (the main one by default) and returns its informer.
   * The handler is removed when the controller stops.
   */
  watch<T extends KubeObject>(informer: Informer<T>, handler: EventHandler<NoInfer<T>>, queue?: WorkQueue): Informer<T>;
  watch<R extends ResourceName>(
    resource: R,
    handler: EventHandler<NoInfer<ObjectsByResource[R]>>,
    queue?: WorkQueue,
  ): Informer<ObjectsByResource[R]>;
  watch(resource: string, handler: EventHandler<KubeObject>, queue?: WorkQueue): Informer;
  watch(source: string | Informer, handler: EventHandler<KubeObject>, queue = this.queue): Informer {
    const informer = typeof source === 'string' ? this.ctx.informers.get(source) : source;
    const enqueue = (key: string): void => queue.add(key);
    const running = this.running;
    const wrapped: InformerHandlers<KubeObject> = {};
    if (handler.onAdd) wrapped.onAdd = (obj) => running() && handler.onAdd!(obj, enqueue);
    if (handler.onUpdate)
      wrapped.onUpdate = (oldObj, newObj) => running() && handler.onUpdate!(oldObj, newObj, enqueue);
    if (handler.onDelete) wrapped.onDelete = (obj) => running() && handler.onDelete!(obj, enqueue);
    this.removals.push(informer.addHandlers(wrapped));
    return informer;
  }

  /**
   * Plain informer handlers, for the rare controller whose handlers do more than map to keys of one queue: keep
   * books (the node lifecycle controller's count of Ready nodes), or feed several queues with delays (the Job
   * controller). Removed when the controller stops.
   */
  handle<T extends KubeObject>(informer: Informer<T>, handlers: InformerHandlers<NoInfer<T>>): void {
    const running = this.running;
    const wrapped: InformerHandlers<T> = {};
    if (handlers.onAdd) wrapped.onAdd = (obj) => running() && handlers.onAdd!(obj);
    if (handlers.onUpdate) wrapped.onUpdate = (oldObj, newObj) => running() && handlers.onUpdate!(oldObj, newObj);
    if (handlers.onDelete) wrapped.onDelete = (obj) => running() && handlers.onDelete!(obj);
    this.removals.push(informer.addHandlers(wrapped));
  }
}
