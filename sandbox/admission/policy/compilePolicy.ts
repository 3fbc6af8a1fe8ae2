/**
 * A ValidatingAdmissionPolicy's expressions compiled once per stored object (upstream:
 * apiserver/pkg/admission/plugin/policy/validating/{compile,validator}.go, cel/compile.go): every expression sees
 * `object`, `oldObject`, `request`, `namespaceObject` and `variables`, and `params` when the policy has a paramKind.
 * `authorizer` is not modelled: an expression using it does not compile here (it says so).
 */
import type { CompiledExpression } from '../../cel/engine';
import { compileExpression, dynamicEnvironment } from '../../cel/engine';
import type { PolicySpec } from './types';

export interface CompiledPolicy {
  readonly validations: readonly {
    readonly expression: CompiledExpression | string;
    readonly message?: CompiledExpression | string;
  }[];
  readonly matchConditions: readonly { readonly name: string; readonly expression: CompiledExpression | string }[];
  readonly variables: readonly { readonly name: string; readonly expression: CompiledExpression | string }[];
  readonly auditAnnotations: readonly { readonly key: string; readonly expression: CompiledExpression | string }[];
}

/** The variables an expression of a policy may use. */
export function policyVariables(hasParams: boolean): string[] {
  const vars = ['object', 'oldObject', 'request', 'namespaceObject', 'variables'];
  return hasParams ? [...vars, 'params'] : vars;
}

/** A compiled expression, or the detail of its compile error (`compilation failed: ERROR: <input>:…`). */
export function compilePolicyExpression(
  source: string,
  hasParams: boolean,
  result: 'bool' | 'string' | 'any',
): CompiledExpression | string {
  const vars = policyVariables(hasParams);
  const compiled = compileExpression(source, dynamicEnvironment(vars), vars);
  if (!compiled.ok) {
    if (/undeclared reference to 'authorizer'/.test(compiled.detail))
      return `${compiled.detail}\n(the sandbox does not model authorization: \`authorizer\` is not available)`;
    return compiled.detail;
  }
  if (result === 'bool' && compiled.outputType !== 'bool' && compiled.outputType !== 'dyn')
    return 'cel expression must evaluate to a bool';
  if (result === 'string' && compiled.outputType !== 'string' && compiled.outputType !== 'dyn')
    return 'must evaluate to string';
  return compiled;
}

const cache = new WeakMap<object, CompiledPolicy>();
/** Specs that may still change (a workspace's documents): the compiled form with the JSON it was compiled from. */
const unfrozenCache = new WeakMap<object, { json: string; compiled: CompiledPolicy }>();

/**
 * Compiles a policy's spec, cached per stored, frozen spec; a spec that is not frozen (the editor's and `validate`'s
 * documents, judged against every manifest of their scope) is compiled again only when its content changed.
 */
export function compilePolicy(spec: PolicySpec): CompiledPolicy {
  const hit = cache.get(spec);
  if (hit) return hit;
  if (Object.isFrozen(spec)) {
    const compiled = compileSpec(spec);
    cache.set(spec, compiled);
    return compiled;
  }
  const json = JSON.stringify(spec);
  const seen = unfrozenCache.get(spec);
  if (seen?.json === json) return seen.compiled;
  const compiled = compileSpec(spec);
  unfrozenCache.set(spec, { json, compiled });
  return compiled;
}

function compileSpec(spec: PolicySpec): CompiledPolicy {
  const params = spec.paramKind !== undefined && spec.paramKind !== null;
  const compiled: CompiledPolicy = {
    validations: (spec.validations ?? []).map((v) => ({
      expression: compilePolicyExpression(v.expression ?? '', params, 'bool'),
      message:
        v.messageExpression && v.messageExpression.trim() !== ''
          ? compilePolicyExpression(v.messageExpression, params, 'string')
          : undefined,
    })),
    matchConditions: (spec.matchConditions ?? []).map((m) => ({
      name: m.name,
      expression: compilePolicyExpression(m.expression ?? '', params, 'bool'),
    })),
    variables: (spec.variables ?? []).map((v) => ({
      name: v.name,
      expression: compilePolicyExpression(v.expression ?? '', params, 'any'),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key,
      expression: compilePolicyExpression(a.valueExpression ?? '', params, 'any'),
    })),
  };
  return compiled;
}
