/**
 * Mutating then validating admission: upstream defaults, then the validation
 * rules shared with the language server. Errors (not warnings) reject the
 * write with 422 Invalid and every cause. Then ValidatingAdmissionPolicy
 * (sandbox/admission/policy), as the validating admission plugin that runs after.
 */
import { applyDefaults } from '../admission/defaults/index';
import type { FieldError } from '../admission/validation/fieldError';
import { fieldErrorMessage } from '../admission/validation/format';
import { validateObject } from '../admission/validation/index';
import type { AdmissionAttributes, PolicySource } from '../admission/policy/index';
import { denialMessage, evaluatePolicies } from '../admission/policy/index';
import type { ApiError, StatusCause, StatusReason } from '../api/errors';
import { badRequest, forbidden, invalid, statusFailure } from '../api/errors';
import type { ResourceType } from '../api/resources';
import { qualifiedResource } from '../api/resources';
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

// ---- ValidatingAdmissionPolicy (validating admission, after the validation above) ---------------------------------

/** The audit annotations policies set, kept for whoever asks (the sandbox writes no audit log); the last 1,000. */
export class PolicyAuditLog {
  readonly records: {
    operation: string;
    resource: string;
    namespace: string;
    name: string;
    annotations: Record<string, string>;
  }[] = [];

  record(a: AdmissionAttributes, annotations: Readonly<Record<string, string>>): void {
    this.records.push({
      operation: a.operation,
      resource: qualifiedResource(a.resource),
      namespace: a.namespace,
      name: a.name,
      annotations: { ...annotations },
    });
    if (this.records.length > 1000) this.records.shift();
  }
}

const REASON_CODES: Record<string, number> = {
  Forbidden: 403,
  Unauthorized: 401,
  RequestEntityTooLarge: 413,
  Invalid: 422,
};

/**
 * Runs every ValidatingAdmissionPolicy on a write: Warn failures go to `warn`, audit annotations to `audit`, and the
 * first Deny rejects it — `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied
 * request: <message>`, 422 unless the validation's reason says otherwise (upstream: validating/dispatcher.go).
 */
export function admitPolicies(
  source: PolicySource,
  a: AdmissionAttributes,
  warn: ((text: string) => void) | undefined,
  audit: PolicyAuditLog,
): void {
  const outcome = evaluatePolicies(source, a);
  for (const w of outcome.warnings) warn?.(w);
  if (Object.keys(outcome.auditAnnotations).length > 0) audit.record(a, outcome.auditAnnotations);
  const d = outcome.denied;
  if (!d) return;
  const message = denialMessage(d);
  const status = forbidden(a.resource, a.name, message).status;
  // upstream appends a cause with the message alone (no reason, no field).
  const cause = { message } as StatusCause;
  throw statusFailure(REASON_CODES[d.reason] ?? 422, d.reason as StatusReason, status.message, {
    ...status.details,
    causes: [cause],
  });
}
