/**
 * The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go):
 * creates a Job for each scheduled time, honours the concurrency policy and
 * starting deadline, tracks active Jobs in `status`, and trims finished-Job
 * history.
 *
 * The wake-up for the next scheduled run is a **background** timer: a
 * CronJob is periodic by nature, so counting its next run as pending work
 * would keep a simulation from ever settling. Time runs forward to future
 * runs only when the simulator is told to (`--for`).
 */
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { KubeObject } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import type { TimerHandle } from '../../clock/clock';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import { cloneJson, jsonEqual } from '../../util/json';
import { WorkQueue } from '../framework/workQueue';
import { controlledBy, ensureControllerIndex } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { cleanupFinishedJobs } from './history';
import { syncCronJob } from './syncCronJob';

export class CronJobController implements Component {
  readonly name = 'cronjob-controller';
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private readonly wakeUps = new Map<string, { at: number; handle: TimerHandle }>();
  private cronJobs: Informer | undefined;
  private jobs: Informer | undefined;
  private running = false;

  constructor(private readonly ctx: ComponentContext) {
    this.recorder = new Recorder(ctx, this.name);
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.sync(key),
      onError: (key, error, retry) => this.recorder.syncFailed(key, error, retry),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.cronJobs = this.ctx.informers.get('cronjobs');
    this.jobs = this.ctx.informers.get('jobs');
    ensureControllerIndex(this.jobs);
    this.cronJobs.addHandlers({
      onAdd: (cj) => this.enqueue(objectKey(cj)),
      onUpdate: (_old, cj) => this.enqueue(objectKey(cj)),
      onDelete: (cj) => this.enqueue(objectKey(cj)),
    });
    const ownerOf = (job: KubeObject): void => {
      const ref = controllerRefOf(job);
      if (ref?.kind !== 'CronJob') return;
      const cj = this.cronJobs?.cache.get(`${job.metadata.namespace}/${ref.name}`);
      if (cj?.metadata.uid === ref.uid) this.enqueue(objectKey(cj));
    };
    this.jobs.addHandlers({ onAdd: ownerOf, onUpdate: (_o, job) => ownerOf(job), onDelete: ownerOf });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
    for (const w of this.wakeUps.values()) this.ctx.clock.clearTimer(w.handle);
    this.wakeUps.clear();
  }

  private enqueue(key: string): void {
    if (this.running) this.queue.add(key);
  }

  /** Schedules a background wake-up for `key` (the earliest one wins). */
  private wakeUpAfter(key: string, ms: number): void {
    const at = this.ctx.clock.now() + ms;
    const existing = this.wakeUps.get(key);
    if (existing && existing.at <= at && existing.at >= this.ctx.clock.now()) return;
    if (existing) this.ctx.clock.clearTimer(existing.handle);
    const handle = this.ctx.clock.setTimer(
      ms,
      () => {
        this.wakeUps.delete(key);
        this.enqueue(key);
      },
      { background: true },
    );
    this.wakeUps.set(key, { at, handle });
  }

  private sync(key: string): void {
    const cached = this.cronJobs?.cache.get(key);
    if (!cached) return;
    const cj = cloneJson(cached) as unknown as CronJob;
    const jobs = controlledBy(this.jobs!, cached.metadata.uid!) as unknown as Job[];
    const deps = { api: this.ctx.api, recorder: this.recorder, now: this.ctx.clock.now() };
    const result = syncCronJob(deps, cj, jobs);
    let current = cj;
    if (result.statusChanged && !jsonEqual(cj.status ?? {}, (cached as unknown as CronJob).status ?? {})) {
      current = cloneJson(this.ctx.api.updateStatus(cj as unknown as KubeObject)) as unknown as CronJob;
    }
    const deleted = cleanupFinishedJobs(
      this.ctx.api,
      this.recorder,
      current,
      controlledBy(this.jobs!, cached.metadata.uid!) as unknown as Job[],
    );
    if (deleted.length > 0 && (current.status?.active ?? []).some((r) => deleted.includes(r.name ?? ''))) {
      current.status!.active = current.status!.active!.filter((r) => !deleted.includes(r.name ?? ''));
      this.ctx.api.updateStatus(current as unknown as KubeObject);
    }
    if (result.requeueAfter !== undefined) this.wakeUpAfter(key, result.requeueAfter);
  }
}
