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
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { cloneJson, jsonEqual } from '../../util/json';
import { Controller, type Watches } from '../framework/controller';
import { enqueueObject, enqueueOwner } from '../framework/handlers';
import { controlledBy, ensureControllerIndex } from '../util/controllerIndex';
import { cleanupFinishedJobs } from './history';
import { syncCronJob } from './syncCronJob';

export class CronJobController extends Controller {
  private cronJobs!: Informer<ObjectsByResource['cronjobs']>;
  private jobs!: Informer<ObjectsByResource['jobs']>;
  /** The next scheduled run of each CronJob: background, and the earliest wins. */
  private readonly wakeUps = this.newTimers((key) => this.queue.add(key), { background: true, keep: 'earliest' });

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'cronjob-controller' });
  }

  /** CronJobs by key; a Job wakes the CronJob that controls it. */
  protected watch(w: Watches): void {
    this.cronJobs = w.informer('cronjobs');
    this.jobs = w.informer('jobs');
    ensureControllerIndex(this.jobs);
    w.watch(this.cronJobs, enqueueObject());
    w.watch(this.jobs, enqueueOwner(this.cronJobs, { kind: 'CronJob' }));
  }

  protected reconcile(key: string): void {
    const cached = this.cronJobs.cache.get(key);
    if (!cached) return;
    const cj = cloneJson(cached);
    const jobs = controlledBy(this.jobs, cached.metadata.uid!);
    const deps = { api: this.ctx.api, recorder: this.recorder, now: this.ctx.clock.now() };
    const result = syncCronJob(deps, cj, jobs);
    let current = cj;
    if (result.statusChanged && !jsonEqual(cj.status ?? {}, cached.status ?? {})) {
      current = cloneJson(this.ctx.api.updateStatus(cj));
    }
    const deleted = cleanupFinishedJobs(
      this.ctx.api,
      this.recorder,
      current,
      controlledBy(this.jobs, cached.metadata.uid!),
    );
    if (deleted.length > 0 && (current.status?.active ?? []).some((r) => deleted.includes(r.name ?? ''))) {
      current.status!.active = current.status!.active!.filter((r) => !deleted.includes(r.name ?? ''));
      this.ctx.api.updateStatus(current);
    }
    if (result.requeueAfter !== undefined) this.wakeUps.schedule(key, result.requeueAfter);
  }
}
