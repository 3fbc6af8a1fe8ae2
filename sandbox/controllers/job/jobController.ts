/**
 * The Job controller (pkg/controller/job/job_controller.go): runs each Job's
 * pods to completion — `min(parallelism, completions − succeeded)` at a time,
 * replacing failed ones after the pod-failure back-off — and reports the
 * outcome as counters and the `Complete` / `Failed` conditions. Finished
 * Jobs with `ttlSecondsAfterFinished` are deleted when it runs out.
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject, OwnerReference } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import { parseTimestamp } from '../../clock/clock';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import { cloneJson } from '../../util/json';
import { Expectations } from '../framework/expectations';
import type { ReconcileResult } from '../framework/workQueue';
import { WorkQueue } from '../framework/workQueue';
import { controlledBy, ensureControllerIndex } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { BackoffStore } from './backoff';
import { isJobFinished } from './conditions';
import { FinalizerExpectations } from './finalizerExpectations';
import { SYNC_BATCH_PERIOD_MS } from './manage';
import { jobPodHandlers } from './podEvents';
import { syncJob } from './syncJob';
import { hasTrackingFinalizer, removeTrackingFinalizer } from './trackingFinalizer';
import { expireFinishedJob } from './ttlAfterFinished';

export class JobController implements Component {
  readonly name = 'job-controller';
  readonly expectations: Expectations;
  private readonly finalizers = new FinalizerExpectations();
  private readonly backoff = new BackoffStore();
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private readonly orphans: WorkQueue;
  private jobs: Informer | undefined;
  private pods: Informer | undefined;
  private running = false;

  constructor(private readonly ctx: ComponentContext) {
    this.expectations = new Expectations(ctx.clock);
    this.recorder = new Recorder(ctx, this.name);
    const onError = (key: string, error: unknown, retry: number): void => this.recorder.syncFailed(key, error, retry);
    this.queue = new WorkQueue(ctx.clock, { reconcile: (key) => this.sync(key), onError });
    this.orphans = new WorkQueue(ctx.clock, { reconcile: (key) => this.syncOrphanPod(key), onError });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.jobs = this.ctx.informers.get('jobs');
    this.pods = this.ctx.informers.get('pods');
    ensureControllerIndex(this.pods);
    this.jobs.addHandlers({
      onAdd: (job) => this.enqueue(objectKey(job), 0),
      onUpdate: (old, cur) => this.jobUpdated(old as unknown as Job, cur as unknown as Job),
      onDelete: (job) => {
        this.enqueue(objectKey(job), 0);
        this.cleanupPodFinalizers(job);
      },
    });
    const handlers = jobPodHandlers({
      expectations: this.expectations,
      finalizers: this.finalizers,
      resolve: (ns, ref) => this.resolve(ns, ref),
      enqueueBatched: (key) => this.enqueue(key, SYNC_BATCH_PERIOD_MS),
      enqueueOrphan: (key) => this.running && this.orphans.add(key),
    });
    this.pods.addHandlers({
      onAdd: (o) => this.running && handlers.onAdd?.(o),
      onUpdate: (o, n) => this.running && handlers.onUpdate?.(o, n),
      onDelete: (o) => this.running && handlers.onDelete?.(o),
    });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
    this.orphans.shutdown();
  }

  private enqueue(key: string, delayMs: number): void {
    if (this.running) this.queue.addAfter(key, delayMs);
  }

  /** Spec changes sync at once, status-only changes after the batching delay; a new deadline is scheduled. */
  private jobUpdated(old: Job, cur: Job): void {
    const key = objectKey(cur as unknown as KubeObject);
    this.enqueue(key, cur.metadata?.generation === old.metadata?.generation ? SYNC_BATCH_PERIOD_MS : 0);
    if (isJobFinished(cur)) this.cleanupPodFinalizers(cur as unknown as KubeObject);
    const ads = cur.spec?.activeDeadlineSeconds;
    if (cur.status?.startTime && ads !== undefined && ads !== null && ads !== old.spec?.activeDeadlineSeconds) {
      this.enqueue(key, ads * 1000 - (this.ctx.clock.now() - parseTimestamp(cur.status.startTime)));
    }
  }

  private resolve(namespace: string, ref: OwnerReference): Job | undefined {
    if (ref.kind !== 'Job') return undefined;
    const job = this.jobs?.cache.get(`${namespace}/${ref.name}`);
    return job && job.metadata.uid === ref.uid ? (job as unknown as Job) : undefined;
  }

  private cleanupPodFinalizers(job: KubeObject): void {
    if (!this.running) return;
    for (const pod of controlledBy(this.pods!, job.metadata.uid!)) {
      if (hasTrackingFinalizer(pod as unknown as Pod)) this.orphans.add(objectKey(pod));
    }
  }

  private sync(key: string): ReconcileResult {
    const cached = this.jobs?.cache.get(key);
    if (!cached) {
      this.expectations.forget(key);
      this.finalizers.forget(key);
      this.backoff.delete(key);
      return;
    }
    const job = cloneJson(cached) as unknown as Job;
    const now = this.ctx.clock.now();
    if (isJobFinished(job)) {
      this.backoff.delete(key);
      const left = expireFinishedJob(this.ctx.api, job, now);
      return left === undefined ? undefined : { requeueAfter: left };
    }
    const pods = controlledBy(this.pods!, cached.metadata.uid!) as unknown as Pod[];
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
    const cached = this.pods?.cache.get(key);
    if (!cached) return;
    const pod = cached as unknown as Pod;
    const ref = controllerRefOf(cached);
    if (ref) {
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const job = this.resolve(cached.metadata.namespace ?? '', ref);
      if (job && !isJobFinished(job)) return;
    }
    removeTrackingFinalizer(this.ctx.api, pod);
  }
}
