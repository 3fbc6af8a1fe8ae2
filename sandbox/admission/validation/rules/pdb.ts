/** PodDisruptionBudget spec (policy validation `ValidatePodDisruptionBudgetSpec`). */
import { obj } from '../access';
import { invalid, notSupported, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';
import { notMoreThan100Percent, validateIntOrPercent } from './intOrPercent';
import { validateLabelSelector } from './labelSelector';

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

export const pdbSpec: ValidationRule = {
  code: 'pdb-spec',
  description:
    'At most one of minAvailable and maxUnavailable, each an int ≥ 0 or a percent ≤ 100%; the selector is valid.',
  kinds: ['PodDisruptionBudget'],
  validate(o) {
    const code = this.code;
    const spec = obj(o, 'spec') ?? {};
    const errs: FieldError[] = [];
    const has = (k: string): boolean => spec[k] !== undefined && spec[k] !== null;
    if (has('minAvailable') && has('maxUnavailable')) {
      errs.push(
        invalid(code, 'spec.minAvailable', spec.minAvailable, 'minAvailable and maxUnavailable cannot be both set'),
      );
    }
    for (const f of ['minAvailable', 'maxUnavailable']) {
      errs.push(
        ...validateIntOrPercent(code, spec[f], `spec.${f}`),
        ...notMoreThan100Percent(code, spec[f], `spec.${f}`),
      );
    }
    errs.push(...validateLabelSelector(code, spec.selector, 'spec.selector'));
    const policy = spec.unhealthyPodEvictionPolicy;
    if (
      policy !== undefined &&
      policy !== null &&
      (typeof policy !== 'string' || !EVICTION_POLICIES.includes(policy))
    ) {
      errs.push(notSupported(code, 'spec.unhealthyPodEvictionPolicy', policy, EVICTION_POLICIES));
    }
    return errs;
  },
};
