/**
 * The one call site of the CEL rules of a schema (`x-kubernetes-validations`): compiling them when a CRD is
 * written, evaluating them when a custom resource is. Both are no-ops until the CEL engine lands.
 *
 * TODO(h/cel): plug `compileValidationRules(schema)` and `evaluateValidationRules(...)` from sandbox/cel/ in here:
 * compile errors and cost errors become the CRD's 422 causes; evaluation errors join the custom resource's schema
 * errors (after pruning, defaulting and the schema checks, as upstream's `customResourceStrategy.Validate`).
 */
import type { FieldError } from '../../admission/validation/fieldError';
import type { JSONSchemaProps } from './types';

/** Errors of the CEL rules of a CRD version's schema (compilation, cost), with paths under `path`. */
export function celSchemaErrors(_schema: JSONSchemaProps, _path: string): FieldError[] {
  return [];
}

/** Errors of the CEL rules against a custom resource (and its old version, for transition rules). */
export function celValidation(_schema: JSONSchemaProps, _obj: unknown, _old: unknown): FieldError[] {
  return [];
}
