/** DaemonSet update strategy (apps validation `ValidateDaemonSetUpdateStrategy`). */
import { isObj, obj } from '../access';
import { invalid, notSupported, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';
import { intOrPercentValue, notMoreThan100Percent, validateIntOrPercent } from './intOrPercent';

export const daemonSetUpdateStrategy: ValidationRule = {
  code: 'daemonset-update-strategy',
  description:
    'updateStrategy.type is RollingUpdate or OnDelete; exactly one of maxSurge and maxUnavailable is non-zero.',
  kinds: ['DaemonSet'],
  validate(o) {
    const code = this.code;
    const us = obj(o.spec, 'updateStrategy') ?? {};
    if (us.type === 'OnDelete') return [];
    if (us.type !== 'RollingUpdate')
      return [notSupported(code, 'spec.updateStrategy.type', us.type ?? '', ['RollingUpdate', 'OnDelete'])];
    const ru = us.rollingUpdate;
    const p = 'spec.updateStrategy.rollingUpdate';
    if (!isObj(ru)) return [required(code, p)];
    const errs: FieldError[] = [
      ...validateIntOrPercent(code, ru.maxUnavailable, `${p}.maxUnavailable`),
      ...validateIntOrPercent(code, ru.maxSurge, `${p}.maxSurge`),
      ...notMoreThan100Percent(code, ru.maxUnavailable, `${p}.maxUnavailable`),
      ...notMoreThan100Percent(code, ru.maxSurge, `${p}.maxSurge`),
    ];
    const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
    const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
    if (hasUnavailable && hasSurge)
      errs.push(invalid(code, `${p}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
    else if (!hasUnavailable && !hasSurge)
      errs.push(invalid(code, `${p}.maxUnavailable`, ru.maxUnavailable ?? 0, 'cannot be 0 when maxSurge is 0'));
    return errs;
  },
};
