/**
 * Diagnostic codes owned by the language server itself (rule codes from
 * sandbox/admission pass through unchanged) and the one constructor every
 * service uses, so `source` and field order are the same everywhere.
 */
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { Diagnostic, Range } from 'vscode-languageserver-types';

/** Shown by editors next to every message. */
export const DIAGNOSTIC_SOURCE = 'kube-reconcile';

export type ServerDiagnosticCode =
  /** The YAML parser rejected the text (its own message, at its position). */
  | 'yaml-syntax'
  /** The same key twice in one mapping. */
  | 'yaml-duplicate-key'
  /** Too many alias expansions (a "billion laughs" document): not validated. */
  | 'yaml-alias-limit'
  /** Parses as YAML but has no JSON form (`.inf`, `!!binary`, nesting or size over the API server's limits). */
  | 'yaml-not-json'
  /** Nested deeper than the parser can safely handle: not validated. */
  | 'yaml-too-deep'
  /** NUL bytes or invalid UTF-8: not YAML text at all. */
  | 'binary-content'
  /** Larger than we are willing to parse. */
  | 'manifest-too-large'
  /** `metadata` and `kind` but no `apiVersion`: kubectl refuses the file. */
  | 'missing-api-version'
  /** `metadata` and `apiVersion` but no `kind`: kubectl refuses the file. */
  | 'missing-kind'
  /** apiVersion + kind neither the schema nor the sandbox API server knows. */
  | 'unknown-kind'
  /** A well-known apiVersion that Kubernetes has removed. */
  | 'removed-api-version'
  /** A key the schema does not declare (strict field validation rejects it). */
  | 'unknown-field'
  /** A value of the wrong JSON type (the API server cannot decode it). */
  | 'wrong-type'
  /** A field the schema marks required is absent. */
  | 'missing-required'
  /** A string outside the field's enum values. */
  | 'invalid-enum'
  /** A field of a feature whose gate is off by default: accepted, then dropped by the API server (a warning). */
  | 'dropped-field'
  /** A validator threw: a bug in kube-reconcile, reported rather than crashing the server. */
  | 'internal-error';

/** An Error, or a Warning when `warning` is true. */
export function makeDiagnostic(range: Range, code: string, message: string, warning = false): Diagnostic {
  return {
    range,
    severity: warning ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
    code,
    source: DIAGNOSTIC_SOURCE,
    message,
  };
}
