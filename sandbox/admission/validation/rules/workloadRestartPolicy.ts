/** Which restartPolicy each workload's pod template may use. */
import { podSpecOf } from '../../podSpecs';
import { isObj, obj } from '../access';
import { invalid, notSupported } from '../fieldError';
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
      // Upstream validateJobSpec (pkg/apis/batch/validation): the template's restartPolicy has been
      // defaulted to "Always" (SetDefaults_PodSpec) before validation, so an unset one is refused as
      // `Unsupported value: "Always"` (its `Required value` branch is unreachable through the API);
      // with a podFailurePolicy only "Never" is allowed.
      const value = policy === undefined || policy === '' ? 'Always' : policy;
      if (value !== 'OnFailure' && value !== 'Never') {
        return [notSupported(this.code, field, value, ['OnFailure', 'Never'])];
      }
      const jobSpec = o.kind === 'Job' ? obj(o, 'spec') : obj(obj(o.spec, 'jobTemplate'), 'spec');
      if (value !== 'Never' && isObj(jobSpec?.podFailurePolicy)) {
        return [invalid(this.code, field, value, 'only "Never" is supported when podFailurePolicy is specified')];
      }
      return [];
    }
    return policy === 'Always' ? [] : [notSupported(this.code, field, policy ?? '', ['Always'])];
  },
};
