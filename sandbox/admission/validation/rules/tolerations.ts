/** Pod tolerations (core validation `validateTolerations`). */
import { arr, isObj, str } from '../access';
import { goLiteral, invalid, notSupported, type FieldError } from '../fieldError';
import { goValue } from '../format';
import { labelValueErrors, qualifiedNameErrors } from './labels';
import { podSpecRule } from '../podSpecRule';

const OPERATORS = ['Equal', 'Exists'];
export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function tolerationLiteral(t: Record<string, unknown>): string {
  const secs = typeof t.tolerationSeconds === 'number' ? `&${t.tolerationSeconds}` : '(*int64)(nil)';
  return `core.Toleration{Key:${goValue(str(t, 'key') ?? '')}, Operator:${goValue(str(t, 'operator') ?? '')}, Value:${goValue(str(t, 'value') ?? '')}, Effect:${goValue(str(t, 'effect') ?? '')}, TolerationSeconds:${secs}}`;
}

function validateToleration(code: string, t: Record<string, unknown>, tp: string): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(t, 'key') ?? '';
  const op = str(t, 'operator') ?? '';
  const value = str(t, 'value') ?? '';
  const effect = str(t, 'effect') ?? '';
  if (key !== '') for (const msg of qualifiedNameErrors(key)) errs.push(invalid(code, `${tp}.key`, key, msg));
  if (key === '' && op !== 'Exists') {
    errs.push(
      invalid(
        code,
        `${tp}.operator`,
        op,
        'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ),
    );
  }
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
    errs.push(invalid(code, `${tp}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  }
  if (op === 'Equal' || op === '') {
    const msgs = labelValueErrors(value);
    if (msgs.length > 0) errs.push(invalid(code, `${tp}.operator`, value, msgs.join(';')));
  } else if (op === 'Exists') {
    if (value !== '')
      errs.push(
        invalid(
          code,
          `${tp}.operator`,
          goLiteral(tolerationLiteral(t)),
          "value must be empty when `operator` is 'Exists'",
        ),
      );
  } else {
    errs.push(notSupported(code, `${tp}.operator`, op, OPERATORS));
  }
  if (effect !== '' && !TAINT_EFFECTS.includes(effect))
    errs.push(notSupported(code, `${tp}.effect`, effect, TAINT_EFFECTS));
  return errs;
}

export const podTolerations = podSpecRule(
  'pod-tolerations',
  'Toleration keys, operators (Equal, Exists), values and effects are valid.',
  ({ spec, path }) => {
    const errs: FieldError[] = [];
    arr(spec, 'tolerations').forEach((t, i) => {
      if (isObj(t)) errs.push(...validateToleration('pod-tolerations', t, `${path}.tolerations[${i}]`));
    });
    return errs;
  },
);
