/**
 * PriorityClass (upstream: pkg/apis/scheduling/validation/validation.go `ValidatePriorityClass`,
 * `ValidatePriorityClassUpdate`; `IsKnownSystemPriorityClass` in pkg/apis/scheduling/v1/helpers.go).
 */
import type { FieldError } from '../fieldError';
import { forbidden, invalid, notSupported, required } from '../fieldError';
import type { ValidationRule } from '../rule';

const SYSTEM_PREFIX = 'system-';
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_CLASSES: Readonly<Record<string, number>> = {
  'system-node-critical': 2_000_001_000,
  'system-cluster-critical': 2_000_000_000,
};
const POLICIES = ['PreemptLowerPriority', 'Never'];

interface PriorityClassFields {
  value?: unknown;
  globalDefault?: unknown;
  preemptionPolicy?: unknown;
}

/** `IsKnownSystemPriorityClass`: the error text, or undefined when the class is the system one it names. */
function systemClassError(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const want = SYSTEM_CLASSES[name];
  if (want === undefined) return `${name} is not a known system priority class`;
  if (value !== want) return `value of ${name} PriorityClass must be ${want}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export const priorityClassSpec: ValidationRule = {
  code: 'priority-class',
  description:
    "Names starting with 'system-' are reserved for the system classes; user values are at most 1000000000; preemptionPolicy is PreemptLowerPriority or Never; value and preemptionPolicy never change.",
  kinds: ['PriorityClass'],
  validate(o, ctx) {
    const code = this.code;
    const pc = o as typeof o & PriorityClassFields;
    const errs: FieldError[] = [];
    const name = o.metadata?.name ?? '';
    if (name.startsWith(SYSTEM_PREFIX)) {
      const err = systemClassError(name, pc.value ?? 0, pc.globalDefault === true);
      if (err)
        errs.push(
          forbidden(
            code,
            'metadata.name',
            `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${err}`,
          ),
        );
    } else if (typeof pc.value === 'number' && pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
      errs.push(
        forbidden(
          code,
          'value',
          `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
        ),
      );
    }
    const policy = pc.preemptionPolicy;
    if (policy !== undefined && policy !== null) {
      if (policy === '') errs.push(required(code, 'preemptionPolicy'));
      else if (typeof policy !== 'string' || !POLICIES.includes(policy))
        errs.push(notSupported(code, 'preemptionPolicy', policy, POLICIES));
    }
    const old = ctx.old as (typeof o & PriorityClassFields) | undefined;
    if (ctx.operation === 'UPDATE' && old) {
      if ((pc.value ?? 0) !== (old.value ?? 0)) errs.push(forbidden(code, 'value', 'may not be changed in an update.'));
      if ((pc.preemptionPolicy ?? null) !== (old.preemptionPolicy ?? null))
        errs.push(invalid(code, 'preemptionPolicy', pc.preemptionPolicy, 'field is immutable'));
    }
    return errs;
  },
};
