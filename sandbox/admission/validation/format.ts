/**
 * Renders FieldErrors the way kube-apiserver does (field.Error.ErrorBody and
 * Error()), printing values roughly as Go's %q / %v / %#v would.
 */
import type { FieldError, FieldErrorType } from './fieldError';
import { isGoLiteral } from './fieldError';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueNotFound: 'Not found',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Types whose message never shows the value (upstream omits it). */
const VALUELESS = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong']);

/**
 * The upstream ErrorBody text without the field: `Required value`,
 * `Invalid value: "x": must be …`, `Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"`.
 */
export function fieldErrorMessage(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  if (!VALUELESS.has(e.type) && 'value' in e) s += `: ${goValue(e.value)}`;
  const detail = e.type === 'FieldValueNotSupported' && e.supported ? supportedText(e.supported) : e.detail;
  if (detail) s += `: ${detail}`;
  return s;
}

/** `spec.x: Required value` */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${fieldErrorMessage(e)}`;
}

function supportedText(values: readonly string[]): string {
  return `supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/** Prints a JSON value approximately as Go would for the corresponding typed value. */
export function goValue(value: unknown): string {
  if (isGoLiteral(value)) return value.goLiteral;
  if (value === undefined || value === null) return '<nil>';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
    return JSON.stringify(value);
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.every(([, v]) => typeof v === 'string')) return goStringMap(value as Record<string, string>);
    return JSON.stringify(value);
  }
  return String(value);
}

/** `map[string]string{"app":"web", "tier":"db"}` with keys sorted, as Go's %#v prints maps. */
export function goStringMap(map: Record<string, string> | undefined): string {
  if (map === undefined) return 'map[string]string(nil)';
  const keys = Object.keys(map).sort();
  return `map[string]string{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(map[k])}`).join(', ')}}`;
}
