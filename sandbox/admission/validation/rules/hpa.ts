/** HorizontalPodAutoscaler spec (autoscaling validation `ValidateHorizontalPodAutoscalerSpec`). */
import { num, obj, str } from '../access';
import { invalid, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';

export const hpaReplicas: ValidationRule = {
  code: 'hpa-replicas',
  description: 'minReplicas ≥ 1, maxReplicas ≥ 1 and ≥ minReplicas.',
  kinds: ['HorizontalPodAutoscaler'],
  validate(o) {
    const code = this.code;
    const errs: FieldError[] = [];
    const min = num(o.spec, 'minReplicas');
    const max = num(o.spec, 'maxReplicas') ?? 0;
    if (min !== undefined && min < 1)
      errs.push(invalid(code, 'spec.minReplicas', min, 'must be greater than or equal to 1'));
    if (max < 1) errs.push(invalid(code, 'spec.maxReplicas', max, 'must be greater than 0'));
    if (min !== undefined && max < min)
      errs.push(invalid(code, 'spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
    return errs;
  },
};

export const hpaScaleTargetRef: ValidationRule = {
  code: 'hpa-scale-target-ref',
  description: 'scaleTargetRef names a kind and a name.',
  kinds: ['HorizontalPodAutoscaler'],
  validate(o) {
    const ref = obj(o.spec, 'scaleTargetRef');
    const errs: FieldError[] = [];
    for (const f of ['kind', 'name']) {
      const v = str(ref, f) ?? '';
      const path = `spec.scaleTargetRef.${f}`;
      if (v === '') errs.push(required(this.code, path));
      else if (v === '.' || v === '..') errs.push(invalid(this.code, path, v, `may not be '${v}'`));
      else
        for (const bad of ['/', '%'])
          if (v.includes(bad)) errs.push(invalid(this.code, path, v, `may not contain '${bad}'`));
    }
    return errs;
  },
};
