/**
 * Mutating then validating admission: upstream defaults, then the validation
 * rules shared with the language server. Errors (not warnings) reject the
 * write with 422 Invalid and every cause.
 */
import { applyDefaults } from '../admission/defaults/index';
import type { FieldError } from '../admission/validation/fieldError';
import { fieldErrorMessage } from '../admission/validation/format';
import { validateObject } from '../admission/validation/index';
import type { ApiError, StatusCause } from '../api/errors';
import { badRequest, invalid } from '../api/errors';
import type { ResourceType } from '../api/resources';
import type { KubeObject } from '../api/types';

export function toCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: fieldErrorMessage(e), field: e.field }));
}

/** 422 for the errors among `found` (warnings are not rejections), or undefined when there are none. */
export function invalidIfAny(r: ResourceType, name: string, found: readonly FieldError[]): ApiError | undefined {
  const errors = found.filter((e) => !e.warning);
  return errors.length === 0 ? undefined : invalid(r, name, toCauses(errors));
}

/** Runs a rule set that may meet malformed input; a shape it cannot handle is a 400, never a crash. */
function guarded<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError)
      throw badRequest(`malformed object: ${what} failed: ${e.message}`);
    throw e;
  }
}

export function defaultObject(obj: KubeObject, r: ResourceType): void {
  guarded('defaulting', () => applyDefaults(obj, r));
}

/**
 * Validates `obj` (already defaulted); throws 422 when it has errors, returns its warnings. `extra`: the kind's own
 * errors found elsewhere (a CRD's, a custom resource's schema), reported after the shared rules' in one 422.
 */
export function validateOrThrow(
  obj: KubeObject,
  r: ResourceType,
  old?: KubeObject,
  extra: readonly FieldError[] = [],
): FieldError[] {
  const found = guarded('validation', () => [
    ...validateObject(obj, { resource: r, operation: old ? 'UPDATE' : 'CREATE', old }),
    ...extra,
  ]);
  const err = invalidIfAny(r, obj.metadata.name ?? obj.metadata.generateName ?? '', found);
  if (err) throw err;
  return found.filter((e) => e.warning);
}
