/**
 * Evaluates compiled `x-kubernetes-validations` over an object, as kube-apiserver does after schema validation
 * (upstream: apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: Validator.Validate): every rule at every
 * node its schema reaches, `self` the node's value; transition rules (`oldSelf`) only on update where the old value
 * correlates (same property, same map key, same key of an `x-kubernetes-list-type: map` list), unless
 * `optionalOldSelf`; rules without oldSelf skipped where the value did not change (validation ratcheting, on by
 * default since 1.30); one runtime budget for the whole object.
 */
import type { FieldError } from '../../admission/validation/fieldError';
import { duplicate, forbidden, invalid, required } from '../../admission/validation/fieldError';
import { Optional } from '@marcbachmann/cel-js';
import { CelEvaluationError } from '../engine';
import { CostMeter, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from '../cost';
import type { CelSchema } from '../schema';
import { toCelValue } from '../values';
import { jsonEqual } from '../../util/json';
import type { CompiledNode, CompiledRule } from './compileRules';

const CODE = 'crd-validation-rules';
/** upstream: celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

class Budget {
  remaining = RUNTIME_CEL_COST_BUDGET;
  exhausted = false;
}

/**
 * The errors of `obj` against the rules (none when `compiled` is undefined). `oldObj` makes it an update. Paths are
 * in upstream notation; a rule on the root reports at `<nil>`, as kube-apiserver prints it.
 */
export function validateWithRules(compiled: CompiledNode | undefined, obj: unknown, oldObj?: unknown): FieldError[] {
  if (compiled === undefined) return [];
  const errors: FieldError[] = [];
  walk(
    compiled,
    obj,
    oldObj === undefined ? NO_OLD : { value: oldObj },
    '',
    errors,
    new Budget(),
    oldObj !== undefined,
  );
  return errors;
}

interface Old {
  readonly value: unknown;
}
const NO_OLD: Old | undefined = undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function walk(
  node: CompiledNode,
  value: unknown,
  old: Old | undefined,
  path: string,
  errors: FieldError[],
  budget: Budget,
  update: boolean,
): void {
  if (value === undefined || budget.exhausted) return;
  if (value !== null) runRules(node, value, old, path, errors, budget, update);
  if (budget.exhausted) return;
  if (isObject(value)) {
    for (const [name, child] of node.properties) {
      if (!(name in value)) continue;
      const o = old && isObject(old.value) && name in old.value ? { value: old.value[name] } : undefined;
      walk(child, value[name], o, join(path, name), errors, budget, update);
    }
    if (node.additionalProperties) {
      for (const [key, v] of Object.entries(value)) {
        const o = old && isObject(old.value) && key in old.value ? { value: old.value[key] } : undefined;
        walk(node.additionalProperties, v, o, `${path}[${key}]`, errors, budget, update);
      }
    }
  }
  if (Array.isArray(value) && node.items) {
    const correlate = listCorrelation(node.schema, old?.value);
    value.forEach((item, i) => walk(node.items!, item, correlate(item), `${path}[${i}]`, errors, budget, update));
  }
}

/** Old items of a `x-kubernetes-list-type: map` list by their keys; other lists do not correlate. */
function listCorrelation(schema: CelSchema, old: unknown): (item: unknown) => Old | undefined {
  const keys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-list-type'] !== 'map' || !keys || !Array.isArray(old)) return () => undefined;
  const keyOf = (item: unknown): string | undefined =>
    isObject(item) ? JSON.stringify(keys.map((k) => item[k] ?? null)) : undefined;
  const byKey = new Map<string, unknown>();
  for (const item of old) {
    const k = keyOf(item);
    if (k !== undefined) byKey.set(k, item);
  }
  return (item) => {
    const k = keyOf(item);
    return k !== undefined && byKey.has(k) ? { value: byKey.get(k) } : undefined;
  };
}

function typeName(schema: CelSchema): string {
  return schema.type ?? '';
}

function runRules(
  node: CompiledNode,
  value: unknown,
  old: Old | undefined,
  path: string,
  errors: FieldError[],
  budget: Budget,
  update: boolean,
): void {
  const unchanged = update && old !== undefined && jsonEqual(value, old.value);
  let self: unknown;
  let oldSelf: unknown;
  for (const r of node.rules) {
    if (budget.exhausted) return;
    if (r.usesOldSelf) {
      if (old === undefined && r.rule.optionalOldSelf !== true) continue;
    } else if (unchanged) continue;
    self ??= toCelValue(value, node.schema);
    if (old !== undefined) oldSelf ??= toCelValue(old.value, node.schema);
    const activation: Record<string, unknown> = { self };
    if (r.usesOldSelf)
      activation.oldSelf =
        r.rule.optionalOldSelf === true ? (old === undefined ? Optional.none() : Optional.of(oldSelf)) : oldSelf;
    evaluateRule(r, node.schema, activation, path, errors, budget);
  }
}

function ruleText(r: CompiledRule): string {
  return (r.rule.message ?? '').trim() !== '' ? r.rule.message!.trim() : r.rule.rule.trim();
}

function defaultMessage(r: CompiledRule): string {
  return (r.rule.message ?? '').trim() !== '' ? r.rule.message!.trim() : `failed rule: ${ruleText(r)}`;
}

function at(path: string): string {
  return path === '' ? '<nil>' : path;
}

function evaluateRule(
  r: CompiledRule,
  schema: CelSchema,
  activation: Record<string, unknown>,
  path: string,
  errors: FieldError[],
  budget: Budget,
): void {
  const type = typeName(schema);
  const meter = new CostMeter(Math.min(PER_CALL_LIMIT, budget.remaining));
  let result: unknown;
  try {
    result = r.program.evaluate(activation, meter);
  } catch (e) {
    budget.remaining -= meter.used;
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof CelEvaluationError && e.costExceeded) {
      budget.exhausted = true;
      const why =
        meter.limit < PER_CALL_LIMIT
          ? 'validation failed due to running out of cost budget, no further validation rules will be run'
          : `'${message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(r)}`;
      errors.push(invalid(CODE, at(path), type, why));
      return;
    }
    if (message.startsWith('no such overload'))
      errors.push(
        invalid(
          CODE,
          at(path),
          type,
          `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(r)}`,
        ),
      );
    else errors.push(invalid(CODE, at(path), type, `${message} evaluating rule: ${ruleText(r)}`));
    return;
  }
  budget.remaining -= meter.used;
  if (result === true) return;
  const target =
    r.fieldPath === undefined
      ? at(path)
      : path === ''
        ? r.fieldPath
        : `${path}${r.fieldPath.startsWith('[') ? '' : '.'}${r.fieldPath}`;
  const message = messageOf(r, activation, budget) ?? defaultMessage(r);
  if (budget.exhausted) {
    errors.push(
      invalid(
        CODE,
        target,
        type,
        'validation failed due to running out of cost budget, no further validation rules will be run',
      ),
    );
    return;
  }
  errors.push(reasonError(r.rule.reason, target, type, message));
}

/** The messageExpression's text, or undefined to fall back to `message` (a failure is only logged upstream). */
function messageOf(r: CompiledRule, activation: Record<string, unknown>, budget: Budget): string | undefined {
  if (r.messageProgram === undefined) return undefined;
  const meter = new CostMeter(Math.min(PER_CALL_LIMIT, budget.remaining));
  try {
    const text = r.messageProgram.evaluate(activation, meter);
    budget.remaining -= meter.used;
    if (typeof text !== 'string') return undefined;
    const trimmed = text.trim();
    if (trimmed === '' || /[\n\r]/.test(trimmed) || new TextEncoder().encode(trimmed).length > MAX_MESSAGE_BYTES)
      return undefined;
    return trimmed;
  } catch (e) {
    budget.remaining -= meter.used;
    if (e instanceof CelEvaluationError && e.costExceeded && meter.limit < PER_CALL_LIMIT) budget.exhausted = true;
    return undefined;
  }
}

/** upstream: fieldErrorForReason — the value shown is the schema type (`"object"`). */
function reasonError(reason: string | undefined, path: string, type: string, message: string): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(CODE, path, message);
    case 'FieldValueRequired':
      return required(CODE, path, message);
    case 'FieldValueDuplicate':
      return duplicate(CODE, path, type);
    default:
      return invalid(CODE, path, type, message);
  }
}
