/** StatefulSet policies and update restrictions (apps validation `ValidateStatefulSetSpec`). */
import { jsonEqual } from '../../../util/json';
import { isObj, obj } from '../access';
import { forbidden, invalid, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';

export const statefulSetPolicies: ValidationRule = {
  code: 'statefulset-policies',
  description: 'podManagementPolicy is OrderedReady or Parallel; updateStrategy.type is RollingUpdate or OnDelete.',
  kinds: ['StatefulSet'],
  validate(o) {
    const code = this.code;
    const errs: FieldError[] = [];
    const pmp = obj(o, 'spec')?.podManagementPolicy;
    if (pmp === undefined || pmp === '') errs.push(required(code, 'spec.podManagementPolicy'));
    else if (pmp !== 'OrderedReady' && pmp !== 'Parallel')
      errs.push(invalid(code, 'spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));
    const us = obj(o.spec, 'updateStrategy') ?? {};
    const type = us.type;
    const ru = us.rollingUpdate;
    if (type === undefined || type === '') errs.push(required(code, 'spec.updateStrategy'));
    else if (type === 'OnDelete') {
      if (ru !== undefined && ru !== null)
        errs.push(
          invalid(code, 'spec.updateStrategy.rollingUpdate', ru, "only allowed for updateStrategy 'RollingUpdate'"),
        );
    } else if (type === 'RollingUpdate') {
      const partition = isObj(ru) ? ru.partition : undefined;
      if (typeof partition === 'number' && partition < 0)
        errs.push(
          invalid(code, 'spec.updateStrategy.rollingUpdate.partition', partition, 'must be greater than or equal to 0'),
        );
    } else errs.push(invalid(code, 'spec.updateStrategy.type', type, "must be 'RollingUpdate' or 'OnDelete'"));
    return errs;
  },
};

/** Fields a StatefulSet update may change (upstream ValidateStatefulSetUpdate). */
const MUTABLE = new Set([
  'replicas',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'persistentVolumeClaimRetentionPolicy',
  'ordinals',
  'revisionHistoryLimit',
]);

export const statefulSetSpecUpdate: ValidationRule = {
  code: 'statefulset-spec-update',
  description:
    'Only replicas, template, updateStrategy, minReadySeconds, persistentVolumeClaimRetentionPolicy, ordinals and revisionHistoryLimit may change.',
  kinds: ['StatefulSet'],
  validate(o, ctx) {
    if (ctx.operation !== 'UPDATE' || !ctx.old) return [];
    const strip = (spec: unknown): Record<string, unknown> =>
      Object.fromEntries(Object.entries(isObj(spec) ? spec : {}).filter(([k]) => !MUTABLE.has(k)));
    if (jsonEqual(strip(o.spec), strip(ctx.old.spec))) return [];
    return [
      forbidden(
        this.code,
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    ];
  },
};
