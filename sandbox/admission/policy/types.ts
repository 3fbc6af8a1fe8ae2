/**
 * The shapes of `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding the
 * plugin reads (as stored: defaults applied, validated).
 */
import type { LabelSelector } from '../../api/selectors/labelSelector';

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  resourceNames?: string[];
}

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: RuleWithOperations[];
  excludeResourceRules?: RuleWithOperations[];
  matchPolicy?: 'Exact' | 'Equivalent';
}

export interface PolicyValidation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

export interface NamedExpression {
  name: string;
  expression: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface PolicySpec {
  paramKind?: { apiVersion?: string; kind?: string };
  matchConstraints?: MatchResources;
  validations?: PolicyValidation[];
  failurePolicy?: 'Fail' | 'Ignore';
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: NamedExpression[];
  variables?: NamedExpression[];
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: 'Allow' | 'Deny';
}

export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

export interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: ValidationAction[];
}

export const POLICY_KIND = 'ValidatingAdmissionPolicy';
export const BINDING_KIND = 'ValidatingAdmissionPolicyBinding';
export const POLICY_GROUP = 'admissionregistration.k8s.io';
