/** CronJob rules (batch validation `validateCronJobSpec`). */
import { obj, str } from '../access';
import { invalid, notSupported, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';
import { cronScheduleError } from '../cron';

export const cronJobSchedule: ValidationRule = {
  code: 'cronjob-schedule',
  description: 'schedule is a valid cron expression (5 fields or @hourly-style) without TZ=.',
  kinds: ['CronJob'],
  validate(o) {
    const schedule = str(o.spec, 'schedule') ?? '';
    if (schedule === '') return [required(this.code, 'spec.schedule')];
    const errs: FieldError[] = [];
    const err = cronScheduleError(schedule);
    if (err) errs.push(invalid(this.code, 'spec.schedule', schedule, err));
    if (schedule.includes('TZ'))
      errs.push(
        invalid(
          this.code,
          'spec.schedule',
          schedule,
          'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
        ),
      );
    return errs;
  },
};

const CONCURRENCY = ['Allow', 'Forbid', 'Replace'];

export const cronJobConcurrencyPolicy: ValidationRule = {
  code: 'cronjob-concurrency-policy',
  description: 'concurrencyPolicy is Allow, Forbid or Replace.',
  kinds: ['CronJob'],
  validate(o) {
    const v = obj(o, 'spec')?.concurrencyPolicy;
    if (v === undefined || v === '') return [required(this.code, 'spec.concurrencyPolicy')];
    return typeof v === 'string' && CONCURRENCY.includes(v)
      ? []
      : [notSupported(this.code, 'spec.concurrencyPolicy', v, CONCURRENCY)];
  },
};

export const cronJobName: ValidationRule = {
  code: 'cronjob-name-length',
  description: 'CronJob names are at most 52 characters, leaving room for the Job suffix.',
  kinds: ['CronJob'],
  validate(o) {
    const name = o.metadata?.name ?? '';
    return name.length > 52 ? [invalid(this.code, 'metadata.name', name, 'must be no more than 52 characters')] : [];
  },
};
