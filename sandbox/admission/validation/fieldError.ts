/**
 * One validation failure at one field, in the form kube-apiserver reports it
 * (k8s.io/apimachinery/pkg/util/validation/field). The same value becomes a
 * 422 cause in the API server and a diagnostic in the language server, which
 * finds the YAML node from `field`.
 */

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueNotFound'
  | 'FieldValueTypeInvalid';

export interface FieldError {
  /** Stable code of the rule that produced it, e.g. `deployment-selector-matches-template`. */
  code: string;
  type: FieldErrorType;
  /** Path in the upstream notation: `spec.template.spec.containers[0].image`, `metadata.labels[app]`. */
  field: string;
  /** The offending value, shown Go-style in the message (omitted for Required/Forbidden). */
  value?: unknown;
  /** Extra explanation after the standard prefix. */
  detail?: string;
  /** For NotSupported: the allowed values. */
  supported?: readonly string[];
  /**
   * Accepted by the API server but likely wrong: the language server shows it as a warning; the API server ignores it.
   */
  warning?: boolean;
  /**
   * For editors (the API server does not send it): which source node is at fault when `field` does not say. Upstream
   * reports a bad label at the map (`metadata.labels: Invalid value: "-x"`); `entry` names the map's key whose key or
   * value is at fault, `part` which of the two (default: the value). `part: 'key'` without `entry` means the key of
   * `field`'s own last step (`data[bad key]`).
   */
  source?: { entry?: string; part?: 'key' | 'value' };
}

/** A value printed exactly as given in messages, for Go literals such as `&v1.LabelSelector{…}`. */
export interface GoLiteral {
  readonly goLiteral: string;
}

export function goLiteral(text: string): GoLiteral {
  return { goLiteral: text };
}

export function isGoLiteral(value: unknown): value is GoLiteral {
  return (
    typeof value === 'object' && value !== null && typeof (value as { goLiteral?: unknown }).goLiteral === 'string'
  );
}

/** `field.Required`: the field is missing or empty. */
export function required(code: string, field: string, detail?: string): FieldError {
  return detail ? { code, type: 'FieldValueRequired', field, detail } : { code, type: 'FieldValueRequired', field };
}

/** `field.Invalid`: the value is malformed or out of range. */
export function invalid(code: string, field: string, value: unknown, detail: string): FieldError {
  return { code, type: 'FieldValueInvalid', field, value, detail };
}

/** `field.NotSupported`: the value is not one of an enum's values. */
export function notSupported(code: string, field: string, value: unknown, supported: readonly string[]): FieldError {
  return { code, type: 'FieldValueNotSupported', field, value, supported };
}

/** `field.Duplicate`: the value repeats one seen earlier in the same list. */
export function duplicate(code: string, field: string, value: unknown): FieldError {
  return { code, type: 'FieldValueDuplicate', field, value };
}

/** `field.Forbidden`: the field may not be set (in this situation). */
export function forbidden(code: string, field: string, detail: string): FieldError {
  return { code, type: 'FieldValueForbidden', field, detail };
}

/** `field.NotFound`: the value refers to something that does not exist. */
export function notFound(code: string, field: string, value: unknown): FieldError {
  return { code, type: 'FieldValueNotFound', field, value };
}

/** `field.TooLong`: the value exceeds `maxBytes`. */
export function tooLong(code: string, field: string, maxBytes: number): FieldError {
  return { code, type: 'FieldValueTooLong', field, detail: `may not be more than ${maxBytes} bytes` };
}

/** Says which source node `e` is about (see `FieldError.source`). */
export function about(e: FieldError, source: NonNullable<FieldError['source']>): FieldError {
  return { ...e, source };
}

/** Marks errors as warnings: accepted by the API server but probably wrong. */
export function asWarnings(errors: FieldError[]): FieldError[] {
  return errors.map((e) => ({ ...e, warning: true }));
}
