/**
 * CEL for Kubernetes: the engine with Kubernetes' libraries, the schema → type mapping, cost limits, and the
 * evaluation of a CRD's `x-kubernetes-validations`. ValidatingAdmissionPolicy (sandbox/admission/policy) compiles
 * its expressions here too.
 */
export type { CelSchema, ValidationRule } from './schema';
export type { CompiledExpression, CompileFailure, CelTypeName } from './engine';
export { compileExpression, extendBase, CelEvaluationError } from './engine';
export { CostMeter, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from './cost';
export { STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from './cost';
export { toCelValue } from './values';
export { declareSchemaType } from './types';
export { estimateCost } from './estimate';
export type { CompiledNode, CompiledRule, RuleCompilation } from './validation/compileRules';
export { compileValidationRules, costMessage } from './validation/compileRules';
export { validateWithRules } from './validation/validateRules';
