/**
 * ValidatingAdmissionPolicy admission (upstream: apiserver/pkg/admission/plugin/policy/validating/{dispatcher,
 * validator,policy_decision}.go and generic/policy_dispatcher.go): for each policy whose matchConstraints match the
 * request, each of its bindings that matches too, and each param the binding selects, the matchConditions, then the
 * variables, the validations (with message / messageExpression / reason) and the auditAnnotations; a failed
 * validation is denied, warned or audited as the binding's validationActions say, and an error in an expression or
 * in the binding's configuration is a failure or ignored as the policy's failurePolicy says.
 *
 * The request's user is the sandbox's one user (`kubernetes-admin` in `system:masters`): the sandbox does not model
 * authentication, and `authorizer` is not available to expressions.
 */
import { labelSelectorMatches } from '../../api/selectors/labelSelector';
import type { KubeObject } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import type { CompiledExpression } from '../../cel/engine';
import { CelEvaluationError } from '../../cel/engine';
import { CostMeter, PER_CALL_LIMIT } from '../../cel/cost';
import { toCelValue } from '../../cel/values';
import type { CompiledPolicy } from './compilePolicy';
import { compilePolicy } from './compilePolicy';
import type { AdmissionAttributes } from './matching';
import { matchesResources } from './matching';
import type { BindingSpec, PolicySpec, ValidationAction } from './types';

/** What the plugin reads from the cluster (the API server's store, or the documents of a workspace). */
export interface PolicySource {
  policies(): readonly KubeObject[];
  bindings(): readonly KubeObject[];
  namespace(name: string): KubeObject | undefined;
  /**
   * Objects of a param kind in `namespace` (all namespaces when undefined; cluster-scoped kinds ignore it), or
   * undefined when the kind is not served. `namespaced` says whether the kind is namespaced.
   */
  params(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
  ): { namespaced: boolean; objects: readonly KubeObject[] } | undefined;
}

export interface PolicyDenial {
  readonly policy: string;
  readonly binding: string;
  readonly message: string;
  /** The Status reason: `Invalid` (422) unless the validation says `Forbidden` (403) or another. */
  readonly reason: string;
}

export interface PolicyOutcome {
  /** The first denial, which rejects the request. */
  readonly denied?: PolicyDenial;
  /** `Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': message`, one per Warn. */
  readonly warnings: readonly string[];
  /** Audit annotations: the validation failures of Audit bindings and the policies' auditAnnotations. */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** upstream: the sandbox's single user, as a kind cluster's admin credentials present it. */
const USER_INFO = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

function requestValue(a: AdmissionAttributes): Record<string, unknown> {
  const r = a.resource;
  const req: Record<string, unknown> = {
    uid: '',
    kind: { group: r.group, version: r.version, kind: r.kind },
    resource: { group: r.group, version: r.version, resource: r.plural },
    requestKind: { group: r.group, version: r.version, kind: r.kind },
    requestResource: { group: r.group, version: r.version, resource: r.plural },
    name: a.name,
    operation: a.operation,
    userInfo: USER_INFO,
    dryRun: a.dryRun,
  };
  if (a.subresource) req.subResource = req.requestSubResource = a.subresource;
  if (a.namespace) req.namespace = a.namespace;
  return req;
}

interface Failure {
  message: string;
  reason: string;
  index: number;
  isError: boolean;
}

function evaluate(expr: CompiledExpression | string, activation: Record<string, unknown>): unknown {
  if (typeof expr === 'string') throw new CelEvaluationError(`compilation error: ${expr}`);
  return expr.evaluate(activation, new CostMeter(PER_CALL_LIMIT));
}

function errorText(source: string, e: unknown): string {
  return `expression '${source}' resulted in error: ${e instanceof Error ? e.message : String(e)}`;
}

/** The validations of one policy for one binding and param: failures, and the audit annotations it sets. */
function runPolicy(
  spec: PolicySpec,
  compiled: CompiledPolicy,
  activation: Record<string, unknown>,
  audit: Record<string, string>,
  policyName: string,
): Failure[] | 'skip' {
  const fail = spec.failurePolicy !== 'Ignore';
  for (const [i, m] of compiled.matchConditions.entries()) {
    try {
      if (evaluate(m.expression, activation) !== true) return 'skip';
    } catch (e) {
      if (!fail) return 'skip';
      const source = spec.matchConditions?.[i]?.expression ?? '';
      return [
        {
          message: `failed to evaluate matchCondition '${m.name}': ${errorText(source, e)}`,
          reason: '',
          index: -1,
          isError: true,
        },
      ];
    }
  }
  const variables: Record<string, unknown> = {};
  for (const v of compiled.variables) {
    // A fresh object each time: the evaluator may remember what it saw of an object.
    activation.variables = { ...variables };
    try {
      variables[v.name] = evaluate(v.expression, activation);
    } catch {
      // A variable that fails is an error only where it is used (upstream evaluates them lazily).
    }
  }
  activation.variables = variables;
  const failures: Failure[] = [];
  compiled.validations.forEach((v, i) => {
    const validation = spec.validations![i];
    let result: unknown;
    try {
      result = evaluate(v.expression, activation);
    } catch (e) {
      if (fail) failures.push({ message: errorText(validation.expression, e), reason: '', index: i, isError: true });
      return;
    }
    if (result === true) return;
    if (typeof result !== 'boolean') {
      if (fail)
        failures.push({
          message: `expression '${validation.expression}' resulted in error: cel expression must evaluate to a bool`,
          reason: '',
          index: i,
          isError: true,
        });
      return;
    }
    failures.push({
      message: messageOf(validation, v.message, activation),
      reason: validation.reason ?? 'Invalid',
      index: i,
      isError: false,
    });
  });
  compiled.auditAnnotations.forEach((a) => {
    try {
      const value = evaluate(a.expression, activation);
      if (typeof value === 'string' && value !== '') audit[`${policyName}/${a.key}`] = value;
    } catch {
      // upstream: an auditAnnotation that fails is an error under failurePolicy Fail; recorded nowhere here.
    }
  });
  return failures;
}

function messageOf(
  validation: { expression: string; message?: string },
  expr: CompiledExpression | string | undefined,
  activation: Record<string, unknown>,
): string {
  if (expr !== undefined) {
    try {
      const text = evaluate(expr, activation);
      if (typeof text === 'string') {
        const trimmed = text.trim();
        if (trimmed !== '' && !text.includes('\n') && text.length <= 5 * 1024) return trimmed;
      }
    } catch {
      // upstream falls back to message when messageExpression fails.
    }
  }
  const m = (validation.message ?? '').trim();
  return m !== '' ? m : `failed expression: ${validation.expression.trim()}`;
}

type Params = { objects: (KubeObject | null)[] } | { error: string };

/** upstream: generic/policy_dispatcher.go collectParams. */
function collectParams(spec: PolicySpec, binding: BindingSpec, a: AdmissionAttributes, source: PolicySource): Params {
  const kind = spec.paramKind;
  if (kind === undefined || kind === null) return { objects: [null] };
  const ref = binding.paramRef;
  if (ref === undefined || ref === null) return { error: 'paramRef is required when paramKind is specified' };
  const found = source.params(kind.apiVersion ?? '', kind.kind ?? '', ref.namespace || a.namespace || undefined);
  if (found === undefined) {
    const gv = parseApiVersion(kind.apiVersion ?? '');
    return {
      error: `paramKind kind \`${gv.group ? `${gv.group}/` : ''}${gv.version}, Kind=${kind.kind ?? ''}\` not yet synced to use for admission`,
    };
  }
  if (found.namespaced && !ref.namespace && !a.namespace)
    return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  const objects = found.objects.filter((o) =>
    ref.name ? o.metadata.name === ref.name : labelSelectorMatches(ref.selector ?? {}, o.metadata.labels),
  );
  if (objects.length === 0) {
    if (ref.parameterNotFoundAction === 'Deny')
      return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
    return { objects: [] };
  }
  return { objects: [...objects].sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '')) };
}

const byName = (x: KubeObject, y: KubeObject): number => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '');

/** Runs every policy on one request. */
export function evaluatePolicies(source: PolicySource, a: AdmissionAttributes): PolicyOutcome {
  const warnings: string[] = [];
  const audit: Record<string, string> = {};
  const auditFailures: unknown[] = [];
  let denied: PolicyDenial | undefined;
  const policies = [...source.policies()].sort(byName);
  if (policies.length === 0) return { warnings, auditAnnotations: audit };
  const bindings = [...source.bindings()].sort(byName);
  const nsLabels = (name: string): Readonly<Record<string, string>> | undefined =>
    source.namespace(name)?.metadata.labels ?? {};
  const nsObject = a.namespace ? source.namespace(a.namespace) : undefined;
  for (const policy of policies) {
    const spec = (policy.spec ?? {}) as PolicySpec;
    const name = policy.metadata.name ?? '';
    if (!spec.matchConstraints || !matchesResources(spec.matchConstraints, a, nsLabels)) continue;
    const compiled = compilePolicy(spec);
    for (const b of bindings) {
      const bspec = (b.spec ?? {}) as BindingSpec;
      if (bspec.policyName !== name) continue;
      if (bspec.matchResources && !matchesResources(bspec.matchResources, a, nsLabels)) continue;
      const bname = b.metadata.name ?? '';
      const actions: ValidationAction[] = bspec.validationActions ?? [];
      const params = collectParams(spec, bspec, a, source);
      if ('error' in params) {
        if (spec.failurePolicy !== 'Ignore')
          denied ??= {
            policy: name,
            binding: bname,
            message: `failed to configure binding: ${params.error}`,
            reason: 'Invalid',
          };
        continue;
      }
      for (const param of params.objects) {
        const activation: Record<string, unknown> = {
          object: a.object ? toCelValue(a.object, undefined) : null,
          oldObject: a.oldObject ? toCelValue(a.oldObject, undefined) : null,
          request: toCelValue(requestValue(a), undefined),
          namespaceObject: nsObject ? toCelValue(nsObject, undefined) : null,
        };
        if (spec.paramKind) activation.params = param ? toCelValue(param, undefined) : null;
        const failures = runPolicy(spec, compiled, activation, audit, name);
        if (failures === 'skip') continue;
        for (const f of failures) {
          if (f.isError) {
            denied ??= { policy: name, binding: bname, message: f.message, reason: 'Invalid' };
            continue;
          }
          if (actions.includes('Deny'))
            denied ??= { policy: name, binding: bname, message: f.message, reason: f.reason };
          if (actions.includes('Warn'))
            warnings.push(
              `Validation failed for ValidatingAdmissionPolicy '${name}' with binding '${bname}': ${f.message}`,
            );
          if (actions.includes('Audit'))
            auditFailures.push({
              message: f.message,
              policy: name,
              binding: bname,
              expressionIndex: f.index,
              validationActions: actions,
            });
        }
      }
    }
  }
  if (auditFailures.length > 0)
    audit['validation.policy.admission.k8s.io/validation_failure'] = JSON.stringify(auditFailures);
  return { denied, warnings, auditAnnotations: audit };
}

/** The denial text of the 403/422 (upstream: validating/dispatcher.go). */
export function denialMessage(d: PolicyDenial): string {
  return `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
}
