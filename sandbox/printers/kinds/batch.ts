/** `kubectl get jobs,cronjobs` (upstream `printJob`, `printCronJob`). */
import type { CronJob, Job, JobCondition } from 'kubernetes-types/batch/v1';
import type { Typed } from '../../api/types';
import { parseTimestamp } from '../../clock/clock';
import { humanDuration } from '../duration';
import type { KindPrinter, TableCell, TableColumn } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, containerCells, int, selectorText, since, wide } from '../table';

const TEMPLATE_COLUMNS: TableColumn[] = [
  wide('Containers', 'string', 'Names of each container in the template.'),
  wide('Images', 'string', 'Images referenced by each container in the template.'),
  wide('Selector', 'string', 'A label query over pods that should match the pod count.'),
];

/** True when the first condition of this type is True (upstream `hasJobCondition`). */
function hasCondition(conditions: readonly JobCondition[] | undefined, type: string): boolean {
  const c = (conditions ?? []).find((x) => x.type === type);
  return c?.status === 'True';
}

function jobStatus(job: Job): string {
  const conditions = job.status?.conditions;
  if (hasCondition(conditions, 'Complete')) return 'Complete';
  if (hasCondition(conditions, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completions(job: Job): string {
  const succeeded = int(job.status?.succeeded);
  if (job.spec?.completions !== undefined && job.spec.completions !== null)
    return `${succeeded}/${job.spec.completions}`;
  const parallelism = int(job.spec?.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: Job, now: number): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const end = job.status?.completionTime;
  return humanDuration((end ? parseTimestamp(end) : now) - parseTimestamp(start));
}

export const jobPrinter: KindPrinter<Typed<Job>> = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'Status of the job.'),
    col('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    col('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(job: Typed<Job>, now: number): TableCell[] {
    const [names, images] = containerCells(job.spec?.template?.spec?.containers);
    return [
      job.metadata.name ?? '',
      jobStatus(job),
      completions(job),
      jobDuration(job, now),
      age(job, now),
      names,
      images,
      selectorText(job.spec?.selector),
    ];
  },
};

export const cronJobPrinter: KindPrinter<Typed<CronJob>> = {
  columns: [
    NAME_COLUMN,
    col('Schedule', 'string', 'The schedule in Cron format.'),
    col('Timezone', 'string', 'The time zone name for the given schedule.'),
    col('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions.'),
    col('Active', 'integer', 'A list of pointers to currently running jobs.'),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(cj: Typed<CronJob>, now: number): TableCell[] {
    const spec = cj.spec;
    const [names, images] = containerCells(spec?.jobTemplate?.spec?.template?.spec?.containers);
    const suspend = spec?.suspend === undefined || spec.suspend === null ? '<unset>' : spec.suspend ? 'True' : 'False';
    const last = cj.status?.lastScheduleTime ? since(cj.status.lastScheduleTime, now) : '<none>';
    return [
      cj.metadata.name ?? '',
      spec?.schedule ?? '',
      spec?.timeZone || '<none>',
      suspend,
      cj.status?.active?.length ?? 0,
      last,
      age(cj, now),
      names,
      images,
      selectorText(spec?.jobTemplate?.spec?.selector),
    ];
  },
};
