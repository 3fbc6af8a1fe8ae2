/**
 * The TTL-after-finished controller (upstream: pkg/controller/ttlafterfinished/ttlafterfinished_controller.go):
 * a finished Job (`Complete` or `Failed`) with `spec.ttlSecondsAfterFinished` is deleted that many seconds after
 * its terminal condition's `lastTransitionTime`, with Foreground propagation (its pods go first, through the
 * garbage collector) and a uid precondition. Before deleting it reads the Job from the API server again, so a
 * TTL changed meanwhile is honoured. Upstream records no Event; the reconciliation log says what it deleted.
 */
import type { Job } from 'kubernetes-types/batch/v1';
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { Typed } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { parseTimestamp } from '../../clock/clock';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';

/** `needsCleanup`: a TTL is set and the Job has finished. */
function needsCleanup(job: Job): boolean {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  return ttl !== undefined && ttl !== null && finishTime(job) !== undefined;
}

/** `jobFinishTime`: the transition time of the Job's Complete or Failed condition (True), in ms. */
export function finishTime(job: Job): number | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') {
      const t = c.lastTransitionTime ? parseTimestamp(c.lastTransitionTime) : Number.NaN;
      return Number.isFinite(t) ? t : undefined;
    }
  }
  return undefined;
}

export class TtlAfterFinishedController extends Controller {
  private jobs!: Informer<ObjectsByResource['jobs']>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'ttl-after-finished-controller' });
  }

  /** Finished Jobs with a TTL, not being deleted, are queued on add and update (`addJob`, `updateJob`). */
  protected watch(w: Watches): void {
    const enqueueIfDue = (job: Typed<Job>, enqueue: (key: string) => void): void => {
      if (!job.metadata.deletionTimestamp && needsCleanup(job)) enqueue(objectKey(job));
    };
    this.jobs = w.watch('jobs', {
      onAdd: (job, enqueue) => enqueueIfDue(job, enqueue),
      onUpdate: (_old, job, enqueue) => enqueueIfDue(job, enqueue),
    });
  }

  /** `processJob`: deletes the Job once its TTL has expired, checked on the cache and then on a fresh read. */
  protected reconcile(key: string): ReconcileResult {
    const cached = this.jobs.cache.get(key);
    if (!cached) return;
    const left = this.timeLeft(cached);
    if (left === undefined) return;
    if (left > 0) return { requeueAfter: left };
    const [namespace, name] = key.split('/');
    const fresh = this.ctx.api.tryGet('jobs', namespace, name);
    if (!fresh) return;
    const freshLeft = this.timeLeft(fresh);
    if (freshLeft === undefined) return;
    if (freshLeft > 0) return { requeueAfter: freshLeft };
    try {
      this.ctx.api.delete('jobs', namespace, name, {
        propagationPolicy: 'Foreground',
        preconditions: { uid: fresh.metadata.uid! },
      });
    } catch (e) {
      if (isApiError(e, 404)) return;
      throw e;
    }
    const ttl = fresh.spec?.ttlSecondsAfterFinished ?? 0;
    this.recorder.logOnly(
      fresh,
      'Normal',
      'TTLExpired',
      `Cleaning up Job: finished ${ttl}s ago (ttlSecondsAfterFinished)`,
    );
  }

  /** `processTTL` / `timeLeft`: ms until the TTL expires (≤ 0 = expired), or undefined when no cleanup applies. */
  private timeLeft(job: Typed<Job>): number | undefined {
    if (job.metadata.deletionTimestamp || !needsCleanup(job)) return undefined;
    return finishTime(job)! + job.spec!.ttlSecondsAfterFinished! * 1000 - this.ctx.clock.now();
  }
}
