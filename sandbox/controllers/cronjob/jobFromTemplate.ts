/**
 * The Job a CronJob creates for one scheduled time (`getJobFromTemplate2`):
 * named `<cronjob>-<scheduled unix time in minutes>`, with the template's
 * labels and annotations, the scheduled-timestamp annotation and a
 * controller reference.
 */
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { Typed } from '../../api/types';
import { formatTimestamp } from '../../clock/clock';
import { cloneJson } from '../../util/json';
import { newControllerRef } from '../util/owners';

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export function jobName(cj: CronJob, scheduledMs: number): string {
  return `${cj.metadata!.name}-${Math.floor(scheduledMs / 60_000)}`;
}

export function jobFromTemplate(cj: Typed<CronJob>, scheduledMs: number): Typed<Job> {
  const template = cloneJson(cj.spec!.jobTemplate);
  const labels = { ...(template.metadata?.labels ?? {}) };
  const annotations = {
    ...(template.metadata?.annotations ?? {}),
    [SCHEDULED_TIMESTAMP_ANNOTATION]: formatTimestamp(scheduledMs),
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cj, scheduledMs),
      namespace: cj.metadata!.namespace,
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      annotations,
      ownerReferences: [newControllerRef(cj)],
    },
    spec: template.spec,
  };
}
