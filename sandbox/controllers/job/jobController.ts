/**
 * The Job controller (pkg/controller/job/job_controller.go): runs each Job's
 * pods to completion — `min(parallelism, completions − succeeded)` at a time,
 * replacing failed ones after the pod-failure back-off — and reports the
 * outcome as counters and the `Complete` / `Failed` conditions (finished
 * Jobs with `ttlSecondsAfterFinished` are the TTL-after-finished
 * controller's).
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { OwnerReference, Typed } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { parseTimestamp } from '../../clock/clock';
import { cloneJson } from '../../util/json';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { Expectations } from '../framework/expectations';
import { resolveOwner } from '../framework/handlers';
import { controlledBy, ensureControllerIndex } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { BackoffStore } from './backoff';
import { isJobFinished } from './conditions';
import { FinalizerExpectations } from './finalizerExpectations';
import { SYNC_BATCH_PERIOD_MS } from './manage';
import { jobPodHandlers } from './podEvents';
import { syncJob } from './syncJob';
import { hasTrackingFinalizer, removeTrackingFinalizer } from './trackingFinalizer';

export class JobController extends Controller {
  readonly expectations: Expectations;
  private readonly finalizers = new FinalizerExpectations();
  private readonly backoff = new BackoffStore();
  /** Pods that still carry the tracking finalizer but have no live, unfinished Job (upstream `orphanQueue`). */
  private readonly orphans = this.newQueue((key) => this.syncOrphanPod(key));
  private jobs!: Informer<ObjectsByResource['jobs']>;
  private pods!: Informer<ObjectsByResource['pods']>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'job-controller' });
    this.expectations = new Expectations(ctx.clock);
  }

  /**
   * Jobs by key (a status-only change after the batching delay); pods wake their Job after the batching delay,
   * observing expectations, or go to the orphan queue.
   */
  protected watch(w: Watches): void {
    this.jobs = w.informer('jobs');
    this.pods = w.informer('pods');
    ensureControllerIndex(this.pods);
    w.handle(this.jobs, {
      onAdd: (job) => this.enqueue(objectKey(job), 0),
      onUpdate: (old, cur) => this.jobUpdated(old, cur),
      onDelete: (job) => {
        this.enqueue(objectKey(job), 0);
        this.cleanupPodFinalizers(job);
      },
    });
    w.handle(
      this.pods,
      jobPodHandlers({
        expectations: this.expectations,
        finalizers: this.finalizers,
        resolve: (ns, ref) => this.resolve(ns, ref),
        enqueueBatched: (key) => this.enqueue(key, SYNC_BATCH_PERIOD_MS),
        enqueueOrphan: (key) => this.orphans.add(key),
      }),
    );
  }

  private enqueue(key: string, delayMs: number): void {
    this.queue.addAfter(key, delayMs);
  }

  /** Spec changes sync at once, status-only changes after the batching delay; a new deadline is scheduled. */
  private jobUpdated(old: Typed<Job>, cur: Typed<Job>): void {
    const key = objectKey(cur);
    this.enqueue(key, cur.metadata.generation === old.metadata.generation ? SYNC_BATCH_PERIOD_MS : 0);
    if (isJobFinished(cur)) this.cleanupPodFinalizers(cur);
    const ads = cur.spec?.activeDeadlineSeconds;
    if (cur.status?.startTime && ads !== undefined && ads !== null && ads !== old.spec?.activeDeadlineSeconds) {
      this.enqueue(key, ads * 1000 - (this.ctx.clock.now() - parseTimestamp(cur.status.startTime)));
    }
  }

  private resolve(namespace: string, ref: OwnerReference): Typed<Job> | undefined {
    return resolveOwner(this.jobs, namespace, ref, { kind: 'Job' });
  }

  private cleanupPodFinalizers(job: Typed<Job>): void {
    for (const pod of controlledBy(this.pods, job.metadata.uid!)) {
      if (hasTrackingFinalizer(pod)) this.orphans.add(objectKey(pod));
    }
  }

  protected reconcile(key: string): ReconcileResult {
    const cached = this.jobs.cache.get(key);
    if (!cached) {
      this.expectations.forget(key);
      this.finalizers.forget(key);
      this.backoff.delete(key);
      return;
    }
    const job = cloneJson(cached);
    const now = this.ctx.clock.now();
    if (isJobFinished(job)) {
      this.backoff.delete(key);
      return;
    }
    const pods = controlledBy(this.pods, cached.metadata.uid!);
    let requeue: number | undefined;
    const requeueAfter = (ms: number): void => {
      requeue = requeue === undefined ? ms : Math.min(requeue, ms);
    };
    syncJob(
      {
        api: this.ctx.api,
        recorder: this.recorder,
        expectations: this.expectations,
        finalizers: this.finalizers,
        backoff: this.backoff,
        now,
        requeueAfter,
      },
      key,
      job,
      pods,
    );
    return requeue === undefined ? undefined : { requeueAfter: requeue };
  }

  /** Removes the tracking finalizer from a pod no live, unfinished Job tracks (`syncOrphanPod`). */
  private syncOrphanPod(key: string): ReconcileResult {
    const pod = this.pods.cache.get(key);
    if (!pod) return;
    const ref = controllerRefOf(pod);
    if (ref) {
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const job = this.resolve(pod.metadata.namespace ?? '', ref);
      if (job && !isJobFinished(job)) return;
    }
    removeTrackingFinalizer(this.ctx.api, pod);
  }
}
