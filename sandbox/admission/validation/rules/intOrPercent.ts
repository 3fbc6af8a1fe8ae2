/** IntOrString fields such as maxSurge / maxUnavailable (apps validation helpers). */
import { invalid, type FieldError } from '../fieldError';
import { isValidPercent } from '../../../api/names';

/** Upstream `ValidatePositiveIntOrPercent`: a non-negative int or an `N%` string. */
export function validateIntOrPercent(code: string, value: unknown, path: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return isValidPercent(value).map((m) => invalid(code, path, value, m));
  if (typeof value === 'number')
    return value < 0 ? [invalid(code, path, value, 'must be greater than or equal to 0')] : [];
  return [invalid(code, path, value, "must be an integer or percentage (e.g '5%')")];
}

/** The int, or the percent number for `N%` strings (upstream `getIntOrPercentValue`); 0 when absent or malformed. */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^[0-9]+%$/.test(value)) return Number(value.slice(0, -1));
  return 0;
}

/** Upstream `IsNotMoreThan100Percent`. */
export function notMoreThan100Percent(code: string, value: unknown, path: string): FieldError[] {
  if (typeof value !== 'string' || isValidPercent(value).length > 0) return [];
  return intOrPercentValue(value) > 100 ? [invalid(code, path, value, 'must not be greater than 100%')] : [];
}
