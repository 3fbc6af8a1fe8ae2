/** ValidatingAdmissionPolicy: matching, compilation, evaluation, and the validation of the policy objects. */
export type { PolicySource, PolicyOutcome, PolicyDenial } from './dispatch';
export { evaluatePolicies, denialMessage } from './dispatch';
export type { AdmissionAttributes, Operation } from './matching';
export { matchesResources } from './matching';
export { compilePolicy } from './compilePolicy';
export { validatingAdmissionPolicySpec } from './validatePolicy';
export { defaultBindingSpec, defaultPolicySpec } from './defaults';
export * from './types';
export type { PolicyVerdict } from './workspace';
export { checkAgainstPolicies, hasPolicies, workspacePolicySource } from './workspace';
