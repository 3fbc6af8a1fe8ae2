/**
 * Validation of ValidatingAdmissionPolicy and its binding (upstream: pkg/apis/admissionregistration/validation/
 * validation.go: validateValidatingAdmissionPolicySpec, validateValidatingAdmissionPolicyBindingSpec), the CEL
 * expressions compiled as they are written, so a policy that cannot run is refused with upstream's words.
 */
import { isDns1123Subdomain, isQualifiedName } from '../../api/names';
import { validateLabelSelector } from '../validation/rules/labelSelector';
import type { FieldError } from '../validation/fieldError';
import { duplicate, forbidden, invalid, notSupported, required } from '../validation/fieldError';
import type { ValidationRule } from '../validation/rule';
import { compilePolicyExpression } from './compilePolicy';
import { boundedMemo } from '../../util/memo';
import type { BindingSpec, MatchResources, PolicySpec, RuleWithOperations } from './types';
import { BINDING_KIND, POLICY_KIND } from './types';

const CODE = 'validating-admission-policy';
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

function isObj(v: unknown): v is Record<string, unknown> {
  return isSet(v);
}

/** An object is there (without narrowing a typed field to a record). */
function isSet(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The compile verdict of an expression (its error text, or null when it compiles), by what decides it: the source, the
 * result type wanted and whether `params` is declared. Compiling is pure in those three (the environments are fixed),
 * and a batch `validate` of many folders holds the same policies many times over, so each text is compiled once here.
 * Bounded: past the limit, a new text is compiled every time as before.
 */
const compileVerdict = boundedMemo(
  2048,
  (source: string, hasParams: boolean, result: 'bool' | 'string' | 'any') =>
    `${hasParams ? 'p' : '-'}${result}:${source}`,
  (source: string, hasParams: boolean, result: 'bool' | 'string' | 'any'): string | null => {
    const compiled = compilePolicyExpression(source, hasParams, result);
    return typeof compiled === 'string' ? compiled : null;
  },
);

function expressionErrors(
  code: string,
  path: string,
  source: string,
  hasParams: boolean,
  result: 'bool' | 'string' | 'any',
): FieldError[] {
  const verdict = compileVerdict(source, hasParams, result);
  return verdict !== null ? [invalid(code, path, source, verdict)] : [];
}

function validateRules(rules: RuleWithOperations[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (rules ?? []).forEach((r, i) => {
    const at = `${path}[${i}]`;
    if (!r.operations || r.operations.length === 0) errs.push(required(CODE, `${at}.operations`, ''));
    (r.operations ?? []).forEach((op, j) => {
      if (!OPERATIONS.includes(op)) errs.push(notSupported(CODE, `${at}.operations[${j}]`, op, OPERATIONS));
    });
    if (!r.apiGroups || r.apiGroups.length === 0) errs.push(required(CODE, `${at}.apiGroups`, ''));
    if (!r.apiVersions || r.apiVersions.length === 0) errs.push(required(CODE, `${at}.apiVersions`, ''));
    if (!r.resources || r.resources.length === 0) errs.push(required(CODE, `${at}.resources`, ''));
    if (r.scope !== undefined && !SCOPES.includes(r.scope))
      errs.push(notSupported(CODE, `${at}.scope`, r.scope, SCOPES));
  });
  return errs;
}

function validateMatchResources(m: MatchResources | undefined, path: string): FieldError[] {
  if (m === undefined || !isSet(m)) return [];
  const errs: FieldError[] = [];
  if (m.matchPolicy === undefined) errs.push(required(CODE, `${path}.matchPolicy`, ''));
  else if (!['Equivalent', 'Exact'].includes(m.matchPolicy))
    errs.push(notSupported(CODE, `${path}.matchPolicy`, m.matchPolicy, ['Equivalent', 'Exact']));
  if (m.namespaceSelector === undefined) errs.push(required(CODE, `${path}.namespaceSelector`, ''));
  else errs.push(...validateLabelSelector(CODE, m.namespaceSelector, `${path}.namespaceSelector`));
  if (m.objectSelector === undefined) errs.push(required(CODE, `${path}.objectSelector`, ''));
  else errs.push(...validateLabelSelector(CODE, m.objectSelector, `${path}.objectSelector`));
  errs.push(...validateRules(m.resourceRules, `${path}.resourceRules`));
  errs.push(...validateRules(m.excludeResourceRules, `${path}.excludeResourceRules`));
  return errs;
}

function validatePolicySpec(spec: PolicySpec, name: string): FieldError[] {
  const errs: FieldError[] = [];
  const params = isSet(spec.paramKind);
  if (spec.failurePolicy === undefined) errs.push(required(CODE, 'spec.failurePolicy', ''));
  else if (!['Fail', 'Ignore'].includes(spec.failurePolicy))
    errs.push(notSupported(CODE, 'spec.failurePolicy', spec.failurePolicy, ['Fail', 'Ignore']));
  if (params) {
    if (!spec.paramKind!.apiVersion) errs.push(required(CODE, 'spec.paramKind.apiVersion', ''));
    if (!spec.paramKind!.kind) errs.push(required(CODE, 'spec.paramKind.kind', ''));
  }
  if (spec.matchConstraints === undefined || !isSet(spec.matchConstraints))
    errs.push(required(CODE, 'spec.matchConstraints', ''));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    if (!spec.matchConstraints.resourceRules || spec.matchConstraints.resourceRules.length === 0)
      errs.push(required(CODE, 'spec.matchConstraints.resourceRules', ''));
  }
  const names = new Set<string>();
  (spec.matchConditions ?? []).forEach((m, i) => {
    const at = `spec.matchConditions[${i}]`;
    if (!m.expression || m.expression.trim() === '') errs.push(required(CODE, `${at}.expression`, ''));
    else errs.push(...expressionErrors(CODE, `${at}.expression`, m.expression.trim(), params, 'bool'));
    if (!m.name) errs.push(required(CODE, `${at}.name`, ''));
    else {
      for (const msg of isQualifiedName(m.name)) errs.push(invalid(CODE, `${at}.name`, m.name, msg));
      if (names.has(m.name)) errs.push(duplicate(CODE, `${at}.name`, m.name));
      names.add(m.name);
    }
  });
  (spec.variables ?? []).forEach((v, i) => {
    const at = `spec.variables[${i}]`;
    if (!v.name || v.name.trim() === '') errs.push(required(CODE, `${at}.name`, 'name is not specified'));
    else if (!CEL_IDENT.test(v.name) || CEL_RESERVED.has(v.name))
      errs.push(invalid(CODE, `${at}.name`, v.name, 'name is not a valid CEL identifier'));
    if (!v.expression || v.expression.trim() === '')
      errs.push(required(CODE, `${at}.expression`, 'expression is not specified'));
    else errs.push(...expressionErrors(CODE, `${at}.expression`, v.expression, params, 'any'));
  });
  const validations = spec.validations ?? [];
  const audits = spec.auditAnnotations ?? [];
  if (validations.length === 0 && audits.length === 0) {
    const why = 'validations or auditAnnotations must contain at least one item';
    errs.push(required(CODE, 'spec.validations', why), required(CODE, 'spec.auditAnnotations', why));
    return errs;
  }
  validations.forEach((v, i) => {
    const at = `spec.validations[${i}]`;
    if (!v.expression || v.expression.trim() === '')
      errs.push(required(CODE, `${at}.expression`, 'expression is not specified'));
    else errs.push(...expressionErrors(CODE, `${at}.expression`, v.expression, params, 'bool'));
    if (v.messageExpression !== undefined && v.messageExpression !== '' && v.messageExpression.trim() === '')
      errs.push(invalid(CODE, `${at}.messageExpression`, v.messageExpression, 'must be non-empty if specified'));
    else if (v.messageExpression && v.messageExpression.trim() !== '')
      errs.push(...expressionErrors(CODE, `${at}.messageExpression`, v.messageExpression, params, 'string'));
    const msg = (v.message ?? '').trim();
    if (v.message && msg === '')
      errs.push(invalid(CODE, `${at}.message`, v.message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(msg))
      errs.push(invalid(CODE, `${at}.message`, v.message, 'message must not contain line breaks'));
    if (v.reason !== undefined && !REASONS.includes(v.reason))
      errs.push(notSupported(CODE, `${at}.reason`, v.reason, REASONS));
  });
  const keys = new Set<string>();
  audits.forEach((a, i) => {
    const at = `spec.auditAnnotations[${i}]`;
    for (const msg of isQualifiedName(`${name}/${a.key}`))
      errs.push(invalid(CODE, `${at}.key`, `${name}/${a.key}`, msg));
    if (!a.valueExpression || a.valueExpression.trim() === '')
      errs.push(required(CODE, `${at}.valueExpression`, 'valueExpression is not specified'));
    else errs.push(...expressionErrors(CODE, `${at}.valueExpression`, a.valueExpression, params, 'any'));
    if (keys.has(a.key)) errs.push(duplicate(CODE, `${at}.key`, a.key));
    keys.add(a.key);
  });
  return errs;
}

function validateBindingSpec(spec: BindingSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.policyName) errs.push(required(CODE, 'spec.policyName', ''));
  else
    for (const msg of isDns1123Subdomain(spec.policyName))
      errs.push(invalid(CODE, 'spec.policyName', spec.policyName, msg));
  const ref = spec.paramRef;
  if (ref !== undefined && isSet(ref)) {
    if (ref.name && ref.selector !== undefined)
      errs.push(
        forbidden(CODE, 'spec.paramRef.name', 'name and selector are mutually exclusive'),
        forbidden(CODE, 'spec.paramRef.selector', 'name and selector are mutually exclusive'),
      );
    if (ref.selector !== undefined) errs.push(...validateLabelSelector(CODE, ref.selector, 'spec.paramRef.selector'));
    if (!ref.name && ref.selector === undefined)
      errs.push(required(CODE, 'spec.paramRef', 'one of name or selector must be specified'));
    if (!ref.parameterNotFoundAction) errs.push(required(CODE, 'spec.paramRef.parameterNotFoundAction', ''));
    else if (!['Deny', 'Allow'].includes(ref.parameterNotFoundAction))
      errs.push(
        notSupported(CODE, 'spec.paramRef.parameterNotFoundAction', ref.parameterNotFoundAction, ['Deny', 'Allow']),
      );
  }
  errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'));
  const actions = spec.validationActions ?? [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!['Audit', 'Deny', 'Warn'].includes(a))
      errs.push(notSupported(CODE, `spec.validationActions[${i}]`, a, ['Audit', 'Deny', 'Warn']));
    if (seen.has(a)) errs.push(duplicate(CODE, `spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errs.push(
      invalid(
        CODE,
        'spec.validationActions',
        { goLiteral: `[]admissionregistration.ValidationAction{${actions.map((a) => JSON.stringify(a)).join(', ')}}` },
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  if (seen.size === 0)
    errs.push(required(CODE, 'spec.validationActions', 'at least one validation action is required'));
  return errs;
}

export const validatingAdmissionPolicySpec: ValidationRule = {
  code: CODE,
  description:
    'A ValidatingAdmissionPolicy or its binding is well formed, and every CEL expression of the policy compiles.',
  kinds: [POLICY_KIND, BINDING_KIND],
  validate(o) {
    const spec = isObj(o.spec) ? o.spec : {};
    if (o.kind === POLICY_KIND) return validatePolicySpec(spec as PolicySpec, o.metadata.name ?? '');
    return validateBindingSpec(spec as BindingSpec);
  },
};
