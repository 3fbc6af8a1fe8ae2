/**
 * One pass over a CronJob (`syncCronJob` in cronjob_controllerv2.go):
 * reconcile `status.active` with the Jobs it owns, then start the run that is
 * due — unless suspended, too late, already started, or forbidden by the
 * concurrency policy — and say when to look again.
 */
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { ObjectReference } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { Typed } from '../../api/types';
import { formatTimestamp, parseTimestamp } from '../../clock/clock';
import type { Recorder } from '../../client/component';
import { deleteJob, finishedType } from './history';
import { jobFromTemplate, jobName } from './jobFromTemplate';
import { parseSchedule } from './schedule';
import type { Schedule } from './schedule';
import { MAX_MISSED_BEFORE_WARNING, mostRecentScheduleTime, nextScheduleDelay } from './scheduleTimes';

export interface CronSyncDeps {
  api: ApiServer;
  recorder: Recorder;
  now: number;
}

export interface CronSyncResult {
  statusChanged: boolean;
  /** ms until the next scheduled run is due, if any. */
  requeueAfter: number | undefined;
}

const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu', 'Universal', 'Zulu']);

/** `cj` is a private copy whose status this edits; `jobs` are the Jobs it controls. */
export function syncCronJob(deps: CronSyncDeps, cj: Typed<CronJob>, jobs: readonly Job[]): CronSyncResult {
  let statusChanged = reconcileActive(deps, cj, jobs);
  const none = { statusChanged, requeueAfter: undefined };
  if (cj.metadata?.deletionTimestamp || cj.spec?.suspend) return none;
  const zone = cj.spec?.timeZone;
  if (zone && !UTC_ZONES.has(zone)) {
    // The sandbox computes schedules in UTC only; a named zone is reported, not silently shifted.
    deps.recorder.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${zone}": the sandbox supports only UTC`);
    return none;
  }
  let schedule: Schedule;
  try {
    schedule = parseSchedule(cj.spec?.schedule ?? '');
  } catch (e) {
    deps.recorder.event(
      cj,
      'Warning',
      'UnparseableSchedule',
      `unparseable schedule: "${cj.spec?.schedule}" : ${(e as Error).message}`,
    );
    return none;
  }
  const requeueAfter = nextScheduleDelay(cj, deps.now, schedule);
  const scheduled = dueTime(deps, cj, schedule);
  if (scheduled === undefined) return { statusChanged, requeueAfter };
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && scheduled + deadline * 1000 < deps.now) {
    deps.recorder.event(cj, 'Normal', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
    return { statusChanged, requeueAfter };
  }
  const name = jobName(cj, scheduled);
  const lastSchedule = cj.status?.lastScheduleTime;
  if (
    (cj.status?.active ?? []).some((r) => r.name === name) ||
    (lastSchedule && parseTimestamp(lastSchedule) === scheduled)
  )
    return { statusChanged, requeueAfter };
  const active = cj.status?.active ?? [];
  if (cj.spec?.concurrencyPolicy === 'Forbid' && active.length > 0) {
    deps.recorder.event(
      cj,
      'Normal',
      'JobAlreadyActive',
      'Not starting job because prior execution is running and concurrency policy is Forbid',
    );
    return { statusChanged, requeueAfter };
  }
  if (cj.spec?.concurrencyPolicy === 'Replace') {
    for (const ref of [...active]) {
      const job = jobs.find((j) => j.metadata?.uid === ref.uid);
      if (job && !deleteJob(deps.api, deps.recorder, cj, job)) return { statusChanged, requeueAfter };
      cj.status!.active = (cj.status!.active ?? []).filter((r) => r.uid !== ref.uid);
      statusChanged = true;
    }
  }
  const created = createJob(deps, cj, scheduled);
  if (!created) return { statusChanged, requeueAfter };
  const status = (cj.status ??= {});
  status.active = [...(status.active ?? []), jobRef(created)];
  status.lastScheduleTime = formatTimestamp(scheduled);
  return { statusChanged: true, requeueAfter };
}

/** The run due now (`nextScheduleTime`), warning when too many were missed. */
function dueTime(deps: CronSyncDeps, cj: Typed<CronJob>, schedule: Schedule): number | undefined {
  try {
    const r = mostRecentScheduleTime(cj, deps.now, schedule, true);
    if (r.mostRecent === undefined || r.mostRecent > deps.now) return undefined;
    if (r.missed > MAX_MISSED_BEFORE_WARNING) {
      deps.recorder.event(
        cj,
        'Warning',
        'TooManyMissedTimes',
        `too many missed start times: ${r.missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`,
      );
    }
    return r.mostRecent;
  } catch (e) {
    deps.recorder.event(
      cj,
      'Warning',
      'InvalidSchedule',
      `invalid schedule: ${cj.spec?.schedule} : ${(e as Error).message}`,
    );
    return undefined;
  }
}

/** Drops finished and vanished Jobs from `status.active`; tracks `lastSuccessfulTime`. */
function reconcileActive(deps: CronSyncDeps, cj: Typed<CronJob>, jobs: readonly Job[]): boolean {
  const status = (cj.status ??= {});
  let changed = false;
  const inActive = (uid: string | undefined): boolean => (status.active ?? []).some((r) => r.uid === uid);
  for (const j of jobs) {
    const finished = finishedType(j);
    if (!inActive(j.metadata?.uid) && !finished) {
      deps.recorder.event(
        cj,
        'Warning',
        'UnexpectedJob',
        `Saw a job that the controller did not create or forgot: ${j.metadata?.name}`,
      );
    } else if (inActive(j.metadata?.uid) && finished) {
      status.active = (status.active ?? []).filter((r) => r.uid !== j.metadata?.uid);
      deps.recorder.event(
        cj,
        'Normal',
        'SawCompletedJob',
        `Saw completed job: ${j.metadata?.name}, condition: ${finished}`,
      );
      changed = true;
    }
    const done = j.status?.completionTime;
    if (
      finished === 'Complete' &&
      done &&
      (!status.lastSuccessfulTime || parseTimestamp(done) > parseTimestamp(status.lastSuccessfulTime))
    ) {
      status.lastSuccessfulTime = done;
      changed = true;
    }
  }
  for (const ref of [...(status.active ?? [])]) {
    if (jobs.some((j) => j.metadata?.uid === ref.uid)) continue;
    if (deps.api.tryGet('jobs', ref.namespace, ref.name ?? '')?.metadata.uid === ref.uid) continue;
    deps.recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
    status.active = (status.active ?? []).filter((r) => r.uid !== ref.uid);
    changed = true;
  }
  if (status.active?.length === 0) delete status.active;
  return changed;
}

function createJob(deps: CronSyncDeps, cj: Typed<CronJob>, scheduled: number): Job | undefined {
  const wanted = jobFromTemplate(cj, scheduled);
  try {
    const created = deps.api.create(wanted);
    deps.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata!.name}`);
    return created;
  } catch (e) {
    if (isApiError(e, 409)) {
      // Created by an earlier pass whose status write was lost: adopt it into the status if it is ours.
      const existing = deps.api.tryGet('jobs', wanted.metadata.namespace, wanted.metadata.name!);
      return existing?.metadata.ownerReferences?.some((r) => r.uid === cj.metadata?.uid) ? existing : undefined;
    }
    deps.recorder.event(
      cj,
      'Warning',
      'FailedCreate',
      `Error creating job: ${e instanceof Error ? e.message : String(e)}`,
    );
    throw e;
  }
}

function jobRef(job: Job): ObjectReference {
  return {
    kind: 'Job',
    namespace: job.metadata!.namespace,
    name: job.metadata!.name,
    uid: job.metadata!.uid,
    apiVersion: 'batch/v1',
    resourceVersion: job.metadata!.resourceVersion,
  };
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's `time.RFC1123Z` in UTC: `Mon, 02 Jan 2006 15:04:05 +0000`. */
export function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${DAY_NAMES[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
