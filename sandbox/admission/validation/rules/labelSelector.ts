/** metav1.LabelSelector objects (apimachinery `ValidateLabelSelector`), plus Go-style printing for messages. */
import { arr, isObj, obj, str, strMap } from '../access';
import { forbidden, goLiteral, invalid, required, type FieldError, type GoLiteral } from '../fieldError';
import { goStringMap, goValue } from '../format';
import { labelValueErrors, qualifiedNameErrors, validateLabels } from './labels';

function validateRequirement(code: string, req: Record<string, unknown>, rp: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = req.operator;
  const values = arr(req, 'values');
  if (op === 'In' || op === 'NotIn') {
    if (values.length === 0)
      errs.push(required(code, `${rp}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (values.length > 0)
      errs.push(forbidden(code, `${rp}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else {
    errs.push(invalid(code, `${rp}.operator`, op ?? '', 'not a valid selector operator'));
  }
  const key = str(req, 'key') ?? '';
  for (const msg of qualifiedNameErrors(key)) errs.push(invalid(code, `${rp}.key`, key, msg));
  values.forEach((v, i) => {
    if (typeof v === 'string')
      for (const msg of labelValueErrors(v)) errs.push(invalid(code, `${rp}.values[${i}]`, v, msg));
  });
  return errs;
}

/** Errors for a LabelSelector at `path` (nothing when it is absent). */
export function validateLabelSelector(code: string, selector: unknown, path: string): FieldError[] {
  if (!isObj(selector)) return [];
  const errs = validateLabels(code, strMap(selector, 'matchLabels'), `${path}.matchLabels`);
  arr(selector, 'matchExpressions').forEach((r, i) => {
    if (isObj(r)) errs.push(...validateRequirement(code, r, `${path}.matchExpressions[${i}]`));
  });
  return errs;
}

/** True when the selector has neither matchLabels nor matchExpressions. */
export function isEmptySelector(selector: Record<string, unknown>): boolean {
  return Object.keys(obj(selector, 'matchLabels') ?? {}).length + arr(selector, 'matchExpressions').length === 0;
}

/**
 * `&v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`
 */
export function goLabelSelector(selector: unknown): GoLiteral {
  if (!isObj(selector)) return goLiteral('(*v1.LabelSelector)(nil)');
  const labels = strMap(selector, 'matchLabels');
  const exprs = arr(selector, 'matchExpressions').filter(isObj);
  const exprText =
    exprs.length === 0
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${exprs
          .map(
            (e) =>
              `v1.LabelSelectorRequirement{Key:${goValue(str(e, 'key') ?? '')}, Operator:${goValue(str(e, 'operator') ?? '')}, Values:${goValue(arr(e, 'values'))}}`,
          )
          .join(', ')}}`;
  return goLiteral(`&v1.LabelSelector{MatchLabels:${goStringMap(labels)}, MatchExpressions:${exprText}}`);
}
