/** Deployment strategy and progress deadline (apps validation `ValidateDeploymentSpec`). */
import { isObj, num, obj } from '../access';
import { forbidden, invalid, notSupported, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';
import { intOrPercentValue, notMoreThan100Percent, validateIntOrPercent } from './intOrPercent';

export const deploymentStrategy: ValidationRule = {
  code: 'deployment-strategy',
  description:
    'strategy.type is Recreate or RollingUpdate; rollingUpdate is only for RollingUpdate and cannot have maxSurge and maxUnavailable both 0.',
  kinds: ['Deployment'],
  validate(o) {
    const code = this.code;
    const strategy = obj(o.spec, 'strategy') ?? {};
    const type = strategy.type;
    const ru = strategy.rollingUpdate;
    if (type === 'Recreate') {
      return ru !== undefined && ru !== null
        ? [forbidden(code, 'spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")]
        : [];
    }
    if (type !== 'RollingUpdate')
      return [notSupported(code, 'spec.strategy.type', type ?? '', ['Recreate', 'RollingUpdate'])];
    if (!isObj(ru)) return [required(code, 'spec.strategy.rollingUpdate', 'this should be defaulted and never be nil')];
    const p = 'spec.strategy.rollingUpdate';
    const errs: FieldError[] = [
      ...validateIntOrPercent(code, ru.maxUnavailable, `${p}.maxUnavailable`),
      ...validateIntOrPercent(code, ru.maxSurge, `${p}.maxSurge`),
    ];
    if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
      errs.push(invalid(code, `${p}.maxUnavailable`, ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
    }
    errs.push(...notMoreThan100Percent(code, ru.maxUnavailable, `${p}.maxUnavailable`));
    return errs;
  },
};

export const deploymentProgressDeadline: ValidationRule = {
  code: 'deployment-progress-deadline',
  description: 'progressDeadlineSeconds must be greater than minReadySeconds.',
  kinds: ['Deployment'],
  validate(o) {
    const deadline = num(o.spec, 'progressDeadlineSeconds');
    if (deadline === undefined) return [];
    const minReady = num(o.spec, 'minReadySeconds') ?? 0;
    return deadline <= minReady
      ? [invalid(this.code, 'spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds')]
      : [];
  },
};
