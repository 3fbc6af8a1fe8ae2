/**
 * LimitRange items (upstream: pkg/apis/core/validation/validation.go `ValidateLimitRange`,
 * `validateLimitRangeTypeName`): each item's `type` is a qualified name, and one of Pod, Container,
 * PersistentVolumeClaim unless it has a prefix; no type twice; a Pod item has no `default` or `defaultRequest`; a
 * PersistentVolumeClaim item sets a minimum or maximum storage. Not checked here: the resource names, and how min,
 * max, default, defaultRequest and maxLimitRequestRatio compare (upstream prints those values as Go structs).
 */
import { isQualifiedName } from '../../../api/names';
import { arr, isObj } from '../access';
import type { FieldError } from '../fieldError';
import { duplicate, forbidden, invalid, required } from '../fieldError';
import type { ValidationRule } from '../rule';

const STANDARD_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

function typeNameErrors(code: string, value: string, path: string): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => invalid(code, path, value, msg));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !STANDARD_TYPES.has(value))
    return [invalid(code, path, value, 'must be a standard limit type or fully qualified')];
  return [];
}

function nonEmpty(v: unknown): boolean {
  return isObj(v) && Object.keys(v).length > 0;
}

export const limitRangeSpec: ValidationRule = {
  code: 'limit-range',
  description:
    'Each limit has a type (Pod, Container, PersistentVolumeClaim or a prefixed name), no type twice; a Pod limit has no default or defaultRequest; a PersistentVolumeClaim limit sets min or max storage.',
  kinds: ['LimitRange'],
  validate(o) {
    const code = this.code;
    const errs: FieldError[] = [];
    if (!isObj(o.spec)) return errs;
    const seen = new Set<string>();
    arr(o.spec, 'limits').forEach((item, i) => {
      if (!isObj(item)) return;
      const path = `spec.limits[${i}]`;
      // A left-out type decodes as "".
      const type = typeof item.type === 'string' ? item.type : '';
      errs.push(...typeNameErrors(code, type, `${path}.type`));
      if (seen.has(type)) errs.push(duplicate(code, `${path}.type`, type));
      seen.add(type);
      if (type === 'Pod') {
        if (nonEmpty(item.default))
          errs.push(forbidden(code, `${path}.default`, "may not be specified when `type` is 'Pod'"));
        if (nonEmpty(item.defaultRequest))
          errs.push(forbidden(code, `${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
      }
      if (type === 'PersistentVolumeClaim') {
        const min = isObj(item.min) ? item.min : {};
        const max = isObj(item.max) ? item.max : {};
        if (min.storage === undefined && max.storage === undefined)
          errs.push(
            required(
              code,
              `${path}.limits`,
              'either minimum or maximum storage value is required, but neither was provided',
            ),
          );
      }
    });
    return errs;
  },
};
