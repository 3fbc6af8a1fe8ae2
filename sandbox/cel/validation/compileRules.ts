/**
 * `x-kubernetes-validations` compiled for a whole CRD schema, as kube-apiserver compiles them when the CRD is written
 * (upstream: apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go:
 * ValidateCustomResourceDefinitionOpenAPISchema, and pkg/apiserver/schema/cel/compilation.go: Compile): each rule
 * checked against the type of its node (`self`, and `oldSelf` for transition rules), its messageExpression against
 * string, its estimated cost × how often it can run against the per-rule budget, and all of them together against
 * the per-CRD budget. Errors carry upstream's paths and words.
 */
import type { FieldError } from '../../admission/validation/fieldError';
import { forbidden, invalid, notSupported, required } from '../../admission/validation/fieldError';
import { goLiteral } from '../../admission/validation/fieldError';
import type { CelAst, CompiledExpression } from '../engine';
import { compileExpression, extendBase } from '../engine';
import { STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from '../cost';
import { estimateCost, maxElements, unboundedCardinality } from '../estimate';
import type { CelSchema, ValidationRule } from '../schema';
import { mapValues } from '../schema';
import { declareSchemaType } from '../types';
import { normalizeFieldPath } from './fieldPath';

const CODE = 'crd-validation-rules';
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program: CompiledExpression;
  readonly messageProgram?: CompiledExpression;
  readonly usesOldSelf: boolean;
  /** `fieldPath` in upstream notation, relative to the node. */
  readonly fieldPath?: string;
  /** Estimated cost of one evaluation × how often it can run. */
  readonly estimatedCost: number;
}

/** The compiled rules of one schema node and of the nodes below it that have any. */
export interface CompiledNode {
  readonly schema: CelSchema;
  readonly rules: readonly CompiledRule[];
  readonly properties: ReadonlyMap<string, CompiledNode>;
  readonly items?: CompiledNode;
  readonly additionalProperties?: CompiledNode;
}

export interface RuleCompilation {
  /** Undefined when no node of the schema has rules. */
  readonly rules: CompiledNode | undefined;
  /** Why the CRD must be refused, at upstream's paths below `path`. */
  readonly errors: FieldError[];
}

interface Walk {
  errors: FieldError[];
  costs: { path: string; cost: number }[];
}

/**
 * Compiles every rule of `schema`. `path` is where the schema sits in the CRD
 * (`spec.versions[0].schema.openAPIV3Schema`); errors are reported below it.
 */
export function compileValidationRules(schema: CelSchema, path = 'openAPIV3Schema'): RuleCompilation {
  const walk: Walk = { errors: [], costs: [] };
  // The root of a CRD's schema is a resource: apiVersion, kind and metadata.name are there for rules (isRootResource).
  const root: CelSchema = { ...schema, 'x-kubernetes-embedded-resource': true };
  const rules = compileNode(root, path, walk, 1, undefined);
  const total = walk.costs.reduce((sum, c) => sum + c.cost, 0);
  if (total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const top = [...walk.costs].sort((a, b) => b.cost - a.cost).slice(0, 4);
    for (const c of top)
      walk.errors.push(
        forbidden(
          CODE,
          c.path,
          'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        ),
      );
    walk.errors.push(
      forbidden(
        CODE,
        path,
        costMessage(
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
          total,
          STATIC_ESTIMATED_CRD_COST_LIMIT,
        ),
      ),
    );
  }
  return { rules, errors: walk.errors };
}

/** upstream: getCostErrorMessage. */
export function costMessage(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/**
 * `cardinality`: how often this node can occur in one object (the product of the bounds of the lists and maps
 * above it), or undefined once an unbounded one is above it. `uncorrelatable`: the path of the nearest list above
 * that is not `x-kubernetes-list-type: map`, under which oldSelf has nothing to compare with.
 */
function compileNode(
  schema: CelSchema,
  path: string,
  walk: Walk,
  cardinality: number | undefined,
  uncorrelatable: string | undefined,
): CompiledNode | undefined {
  const properties = new Map<string, CompiledNode>();
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const node = compileNode(child, `${path}.properties[${name}]`, walk, cardinality, uncorrelatable);
    if (node) properties.set(name, node);
  }
  const bound = (s: CelSchema): number | undefined =>
    cardinality === undefined || (s.type === 'array' ? s.maxItems : s.maxProperties) === undefined
      ? undefined
      : cardinality * maxElements(s);
  let items: CompiledNode | undefined;
  if (schema.items !== undefined) {
    const listType = schema['x-kubernetes-list-type'];
    const uncorrelated = uncorrelatable ?? (listType === 'map' ? undefined : `${path}.items`);
    items = compileNode(schema.items, `${path}.items`, walk, bound(schema), uncorrelated);
  }
  const values = mapValues(schema);
  const additionalProperties =
    values === undefined
      ? undefined
      : compileNode(values, `${path}.additionalProperties`, walk, bound(schema), uncorrelatable);
  const rules = compileRulesOf(schema, path, walk, cardinality, uncorrelatable);
  if (rules.length === 0 && properties.size === 0 && !items && !additionalProperties) return undefined;
  return { schema, rules, properties, items, additionalProperties };
}

/** upstream prints the whole rule, Go-style, as the invalid value. */
function ruleLiteral(r: ValidationRule): ReturnType<typeof goLiteral> {
  const q = (s: string | undefined): string => JSON.stringify(s ?? '');
  const reason = r.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `&"${r.reason}"`;
  const old = r.optionalOldSelf === undefined ? '(*bool)(nil)' : `&${r.optionalOldSelf}`;
  return goLiteral(
    `apiextensions.ValidationRule{Rule:${q(r.rule)}, Message:${q(r.message)}, MessageExpression:${q(r.messageExpression)}, Reason:${reason}, FieldPath:${q(r.fieldPath)}, OptionalOldSelf:${old}}`,
  );
}

function usesVariable(ast: unknown, name: string, seen = new Set<unknown>()): boolean {
  if (typeof ast !== 'object' || ast === null || seen.has(ast)) return false;
  seen.add(ast);
  const node = ast as CelAst;
  if (node.op === 'id' && node.args === name) return true;
  const args = node.args;
  if (Array.isArray(args)) return args.some((a) => usesVariable(a, name, seen));
  return typeof args === 'object' && args !== null && usesVariable(args, name, seen);
}

function compileRulesOf(
  schema: CelSchema,
  path: string,
  walk: Walk,
  cardinality: number | undefined,
  uncorrelatable: string | undefined,
): CompiledRule[] {
  const list = schema['x-kubernetes-validations'];
  if (!list || list.length === 0) return [];
  const out: CompiledRule[] = [];
  const before = walk.errors.length;
  const at = (i: number, f: string): string => `${path}.x-kubernetes-validations[${i}].${f}`;
  list.forEach((r, i) => {
    if ((r.rule ?? '').trim() === '') walk.errors.push(required(CODE, at(i, 'rule'), 'rule is not specified'));
    else if (r.message !== undefined && r.message !== '' && r.message.trim() === '')
      walk.errors.push(invalid(CODE, at(i, 'message'), r.message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test((r.message ?? '').trim()))
      walk.errors.push(invalid(CODE, at(i, 'message'), r.message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(r.rule.trim()) && (r.message ?? '').trim() === '')
      walk.errors.push(required(CODE, at(i, 'message'), 'message must be specified if rule contains line breaks'));
    if (r.messageExpression !== undefined && r.messageExpression !== '' && r.messageExpression.trim() === '')
      walk.errors.push(required(CODE, at(i, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    if (r.reason !== undefined && !REASONS.includes(r.reason))
      walk.errors.push(notSupported(CODE, at(i, 'reason'), r.reason, REASONS));
    if (r.fieldPath !== undefined && r.fieldPath !== '') {
      if (r.fieldPath.trim() === '')
        walk.errors.push(invalid(CODE, at(i, 'fieldPath'), r.fieldPath, 'fieldPath must be non-empty if specified'));
      else if (/[\n\r]/.test(r.fieldPath))
        walk.errors.push(invalid(CODE, at(i, 'fieldPath'), r.fieldPath, 'fieldPath must not contain line breaks'));
      else if (normalizeFieldPath(r.fieldPath, schema) === undefined)
        walk.errors.push(invalid(CODE, at(i, 'fieldPath'), r.fieldPath, 'fieldPath must be a valid path'));
    }
  });
  if (walk.errors.length > before) return [];
  const times = cardinality ?? unboundedCardinality(schema);
  list.forEach((r, i) => {
    const compiled = compileOne(schema, r);
    if (!compiled.ok) {
      walk.errors.push(invalid(CODE, at(i, 'rule'), ruleLiteral(r), compiled.detail));
      return;
    }
    const vars = new Map([
      ['self', schema],
      ['oldSelf', schema],
    ]);
    const cost = estimateCost(compiled.program.ast, vars) * times;
    if (cost > STATIC_ESTIMATED_COST_LIMIT)
      walk.errors.push(
        forbidden(CODE, at(i, 'rule'), costMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)),
      );
    walk.costs.push({ path: at(i, 'rule'), cost });
    let messageProgram: CompiledExpression | undefined;
    if (r.messageExpression !== undefined && r.messageExpression.trim() !== '') {
      const m = compileMessage(schema, r);
      if (!m.ok) walk.errors.push(invalid(CODE, at(i, 'messageExpression'), ruleLiteral(r), m.detail));
      else {
        messageProgram = m;
        const mcost = estimateCost(m.ast, vars) * times;
        if (mcost > STATIC_ESTIMATED_COST_LIMIT)
          walk.errors.push(
            forbidden(
              CODE,
              at(i, 'messageExpression'),
              costMessage('estimated messageExpression cost', mcost, STATIC_ESTIMATED_COST_LIMIT),
            ),
          );
        walk.costs.push({ path: at(i, 'messageExpression'), cost: mcost });
      }
    }
    if (compiled.usesOldSelf && uncorrelatable !== undefined)
      walk.errors.push(
        invalid(
          CODE,
          at(i, 'rule'),
          r.rule,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
        ),
      );
    else if (!compiled.usesOldSelf && r.optionalOldSelf !== undefined)
      walk.errors.push(
        invalid(CODE, at(i, 'optionalOldSelf'), r.optionalOldSelf, 'may not be set if oldSelf is not used in rule'),
      );
    out.push({
      rule: r,
      program: compiled.program,
      messageProgram,
      usesOldSelf: compiled.usesOldSelf,
      fieldPath: r.fieldPath ? normalizeFieldPath(r.fieldPath, schema) : undefined,
      estimatedCost: cost,
    });
  });
  return out;
}

type Compiled = { ok: true; program: CompiledExpression; usesOldSelf: boolean } | { ok: false; detail: string };

function typedEnvironment(schema: CelSchema, optionalOldSelf: boolean): ReturnType<typeof extendBase> {
  const env = extendBase();
  const selfType = declareSchemaType(env, schema, 'selfType');
  env.registerVariable('self', selfType);
  // The library loses the type through optional<T>.value() for declared object types: oldSelf's value is dyn there.
  env.registerVariable('oldSelf', optionalOldSelf ? 'optional<dyn>' : selfType);
  return env;
}

function runtimeVariables(r: ValidationRule): string[] {
  return ['self', r.optionalOldSelf === true ? 'oldSelf:optional<dyn>' : 'oldSelf'];
}

function compileOne(schema: CelSchema, r: ValidationRule): Compiled {
  const program = compileExpression(r.rule, typedEnvironment(schema, r.optionalOldSelf === true), runtimeVariables(r));
  if (!program.ok) return program;
  if (program.outputType !== 'bool') return { ok: false, detail: 'cel expression must evaluate to a bool' };
  return { ok: true, program, usesOldSelf: usesVariable(program.ast, 'oldSelf') };
}

function compileMessage(schema: CelSchema, r: ValidationRule): CompiledExpression | { ok: false; detail: string } {
  const env = typedEnvironment(schema, r.optionalOldSelf === true);
  const m = compileExpression(r.messageExpression ?? '', env, runtimeVariables(r));
  if (!m.ok) return { ok: false, detail: `messageExpression ${m.detail}` };
  if (m.outputType !== 'string') return { ok: false, detail: 'must evaluate to a string' };
  return m;
}
