/** Which restartPolicy each workload's pod template may use. */
import { podSpecOf } from '../../podSpecs';
import { notSupported, required } from '../fieldError';
import type { ValidationRule } from '../rule';

export const workloadRestartPolicy: ValidationRule = {
  code: 'workload-restart-policy',
  description:
    'Deployment, ReplicaSet, StatefulSet and DaemonSet templates restart Always; Job and CronJob templates OnFailure or Never.',
  kinds: ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'],
  validate(o) {
    const at = podSpecOf(o);
    if (!at) return [];
    const policy = at.spec.restartPolicy;
    const field = `${at.path}.restartPolicy`;
    if (o.kind === 'Job' || o.kind === 'CronJob') {
      return policy === 'OnFailure' || policy === 'Never'
        ? []
        : [required(this.code, field, 'valid values: "OnFailure", "Never"')];
    }
    return policy === 'Always' ? [] : [notSupported(this.code, field, policy ?? '', ['Always'])];
  },
};
