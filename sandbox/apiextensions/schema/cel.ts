/**
 * The one call site of the CEL rules of a schema (`x-kubernetes-validations`), over sandbox/cel: compiling them
 * when a CRD is written (compile and cost errors are the CRD's 422 causes), evaluating them when a custom resource
 * is (after pruning, defaulting and the schema checks, as upstream's `customResourceStrategy.Validate`).
 *
 * upstream: apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * (ValidateCustomResourceDefinitionOpenAPISchema), pkg/registry/customresource/strategy.go (Validate,
 * ValidateUpdate with the CEL validator, ratcheting).
 */
import type { FieldError } from '../../admission/validation/fieldError';
import type { CelSchema, CompiledNode } from '../../cel/index';
import { compileValidationRules, validateWithRules } from '../../cel/index';
import type { JSONSchemaProps } from './types';

/**
 * Compiled rules per schema object. A served version's schema is one object for as long as its CRD is registered
 * (sandbox/api/registry.ts), so each CRD version compiles once; a changed CRD brings a new schema object.
 */
const compiled = new WeakMap<JSONSchemaProps, CompiledNode | undefined>();

function hasRules(s: unknown): boolean {
  // Cheap pre-check so that schemas without any rule never reach the compiler.
  return JSON.stringify(s).includes('"x-kubernetes-validations"');
}

/** Errors of the CEL rules of a CRD version's schema (compilation, cost), with paths under `path`. */
export function celSchemaErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  if (!hasRules(schema)) return [];
  const result = compileValidationRules(schema as CelSchema, path);
  if (result.errors.length === 0) compiled.set(schema, result.rules);
  return result.errors;
}

/** Errors of the CEL rules against a custom resource (and its old version, for transition rules). */
export function celValidation(schema: JSONSchemaProps, obj: unknown, old: unknown): FieldError[] {
  let rules: CompiledNode | undefined;
  if (compiled.has(schema)) rules = compiled.get(schema);
  else {
    rules = hasRules(schema) ? compileValidationRules(schema as CelSchema).rules : undefined;
    compiled.set(schema, rules);
  }
  return validateWithRules(rules, obj, old ?? undefined);
}
