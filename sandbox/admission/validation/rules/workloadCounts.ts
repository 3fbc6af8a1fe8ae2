/** Non-negative integer fields of workload specs (upstream `ValidateNonnegativeField`). */
import { invalid, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';
import { isObj } from '../access';

const FIELDS: Record<string, readonly string[]> = {
  Deployment: ['replicas', 'minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds'],
  ReplicaSet: ['replicas', 'minReadySeconds'],
  StatefulSet: ['replicas', 'minReadySeconds', 'revisionHistoryLimit'],
  DaemonSet: ['minReadySeconds', 'revisionHistoryLimit'],
  Job: ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'],
  CronJob: ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit'],
};

export const workloadCounts: ValidationRule = {
  code: 'workload-counts',
  description: 'Replica counts, history limits and deadlines are non-negative integers.',
  kinds: Object.keys(FIELDS),
  validate(o) {
    const spec = o.spec;
    if (!isObj(spec)) return [];
    const errs: FieldError[] = [];
    for (const f of FIELDS[o.kind] ?? []) {
      const v = spec[f];
      if (typeof v === 'number' && v < 0)
        errs.push(invalid(this.code, `spec.${f}`, v, 'must be greater than or equal to 0'));
      else if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isInteger(v))) {
        errs.push(invalid(this.code, `spec.${f}`, v, 'must be an integer'));
      }
    }
    return errs;
  },
};
