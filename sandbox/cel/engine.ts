/**
 * The CEL engine of the sandbox: @marcbachmann/cel-js (parser, type checker, evaluator) with Kubernetes' extension
 * libraries and options (upstream: apiserver/pkg/cel/environment/base.go — homogeneous aggregate literals, optional
 * types, UTC time zone, the lists, regex, URLs, quantity, IP/CIDR and format libraries, the strings extension).
 *
 * An expression is compiled twice from the same text: once in a *typed* environment that knows the types of its
 * variables (a CRD's schema), so mistakes are refused when the CRD or policy is written, as cel-go's checker does;
 * and once in a *dynamic* environment that evaluates it over plain values (see values.ts).
 */
import type { ParseResult } from '@marcbachmann/cel-js';
import { Environment } from '@marcbachmann/cel-js';
import { celGoMessage, displayError, errorOffset } from './errors';
import { chargeActive, CostLimitExceeded, CostMeter, PER_CALL_LIMIT, withMeter } from './cost';
import { registerKubernetesLibraries } from './library/index';

/** A CEL type in the library's notation: `int`, `string`, `list<string>`, `map<string, dyn>`, a registered name. */
export type CelTypeName = string;

/** An AST node as the library builds it (`op` and `args`, source offsets). */
export interface CelAst {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
}

let base: Environment | undefined;

/** The environment every compilation starts from: the standard library plus Kubernetes' libraries. */
export function baseEnvironment(): Environment {
  if (base === undefined) {
    base = new Environment({
      enableOptionalTypes: true,
      homogeneousAggregateLiterals: true,
      unlistedVariablesAreDyn: false,
    });
    registerKubernetesLibraries(base);
  }
  return base;
}

/** A new environment for one set of declarations (the base stays as it is). */
export function extendBase(): Environment {
  return baseEnvironment().clone();
}

const dynamicEnvironments = new Map<string, Environment>();

/** The evaluation environment where each of `variables` is `dyn` (or the type after a colon: `x:optional<dyn>`). */
export function dynamicEnvironment(variables: readonly string[]): Environment {
  const key = [...variables].sort().join(',');
  let env = dynamicEnvironments.get(key);
  if (env === undefined) {
    env = extendBase();
    for (const v of variables) {
      const colon = v.indexOf(':');
      env.registerVariable(colon < 0 ? v : v.slice(0, colon), colon < 0 ? 'dyn' : v.slice(colon + 1));
    }
    dynamicEnvironments.set(key, env);
  }
  return env;
}

/** A compile error in kube-apiserver's words: `compilation failed: ERROR: <input>:1:6: …`. */
export interface CompileFailure {
  readonly ok: false;
  readonly detail: string;
}

export interface CompiledExpression {
  readonly ok: true;
  readonly source: string;
  /** The checked result type (`bool`, `string`, …; `dyn` when it depends on the data). */
  readonly outputType: CelTypeName;
  readonly ast: CelAst;
  /** Evaluates over `activation`; throws {@link CelEvaluationError} (runtime errors and exceeded cost). */
  evaluate(activation: Record<string, unknown>, meter?: CostMeter): unknown;
}

/** A failed evaluation, in cel-go's words (`no such key: foo`), or the cost limit. */
export class CelEvaluationError extends Error {
  constructor(
    message: string,
    readonly costExceeded = false,
  ) {
    super(message);
    this.name = 'CelEvaluationError';
  }
}

/**
 * Parses and type-checks `source` against `typed` (the declarations) and prepares it for evaluation with the given
 * dynamic variables. Parse and type errors come back as upstream words them.
 */
export function compileExpression(
  source: string,
  typed: Environment,
  variables: readonly string[],
): CompiledExpression | CompileFailure {
  let checked: ParseResult;
  try {
    checked = typed.parse(source);
  } catch (e) {
    return failure(source, e, 'check');
  }
  const result = checked.check();
  if (!result.valid) return failure(source, result.error, 'check');
  let runnable: ParseResult;
  try {
    runnable = dynamicEnvironment(variables).parse(source);
    const dynCheck = runnable.check();
    if (!dynCheck.valid) return failure(source, dynCheck.error, 'check');
  } catch (e) {
    return failure(source, e, 'check');
  }
  return {
    ok: true,
    source,
    outputType: result.type ?? 'dyn',
    ast: checked.ast as unknown as CelAst,
    evaluate: (activation, meter) => run(runnable, activation, meter ?? new CostMeter(PER_CALL_LIMIT)),
  };
}

function failure(source: string, e: unknown, phase: 'check' | 'eval'): CompileFailure {
  return { ok: false, detail: `compilation failed: ${displayError(source, errorOffset(e), celGoMessage(e, phase))}` };
}

const INSTRUMENTED = Symbol('kube-reconcile.cel.instrumented');

interface Evaluator {
  run(ast: unknown, ctx: unknown): unknown;
  [INSTRUMENTED]?: true;
}

/**
 * Counts one unit of cost per evaluation step: every step of the library's evaluator goes through its `run`, which
 * is wrapped once per evaluator (the evaluator reaches us as the first argument of the root node's `evaluate`).
 */
function instrument(parsed: ParseResult): void {
  const root = parsed.ast as unknown as {
    evaluate: (ev: Evaluator, ast: unknown, ctx: unknown) => unknown;
  };
  const original = root.evaluate;
  root.evaluate = function (this: unknown, ev: Evaluator, ast: unknown, ctx: unknown) {
    if (!ev[INSTRUMENTED]) {
      const run = ev.run;
      ev.run = function (this: Evaluator, node: unknown, c: unknown) {
        chargeActive(1);
        return run.call(this, node, c);
      };
      ev[INSTRUMENTED] = true;
    }
    return original.call(this, ev, ast, ctx);
  };
}

function run(parsed: ParseResult, activation: Record<string, unknown>, meter: CostMeter): unknown {
  if (!(parsed as { [INSTRUMENTED]?: true })[INSTRUMENTED]) {
    instrument(parsed);
    (parsed as { [INSTRUMENTED]?: true })[INSTRUMENTED] = true;
  }
  try {
    return withMeter(meter, () => {
      chargeActive(1);
      return parsed(activation) as unknown;
    });
  } catch (e) {
    if (e instanceof CostLimitExceeded) throw new CelEvaluationError(e.message, true);
    if (e instanceof CelEvaluationError) throw e;
    throw new CelEvaluationError(celGoMessage(e, 'eval'));
  }
}
