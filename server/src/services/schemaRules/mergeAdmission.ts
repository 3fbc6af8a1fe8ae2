/**
 * Schema rules and admission (the sandbox API server's validation) can report
 * the same field: a required field both know (`spec.selector`), an enum both
 * check (`imagePullPolicy`), or admission tripping over a value the schema
 * already found to be of the wrong type. One diagnostic per problem:
 *
 * - same field, Required vs missing-required, Unsupported vs invalid-enum, or
 *   Unsupported "" or Invalid "" vs missing-required (a left-out string decodes as ""):
 *   the admission diagnostic stays (it is the API server's exact answer) and
 *   takes the schema diagnostic's `data`, so its quick fix still works;
 * - at or below a wrong-type value: admission's findings go, since the API
 *   server could not have decoded the object to validate it.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { FieldError } from '../../../../sandbox/admission/validation/fieldError';
import type { Definition } from '../../schema/types';
import { schemaData } from './diagnosticData';
import { upstreamFieldPath } from './paths';

/** An admission diagnostic with the FieldError it renders. */
export interface AdmissionFinding {
  readonly error: FieldError;
  readonly diagnostic: Diagnostic;
}

/** The union of both lists, without duplicates (order: admission, then schema). */
export function mergeAdmission(
  root: Definition,
  admission: readonly AdmissionFinding[],
  schema: readonly Diagnostic[],
): Diagnostic[] {
  if (schema.length === 0) return admission.map((a) => a.diagnostic);
  const undecodable: string[] = [];
  const missing: Array<{ field: string; diagnostic: Diagnostic }> = [];
  const unsupported = new Map<string, Diagnostic>();
  for (const d of schema) {
    const data = schemaData(d.data);
    if (data === undefined) continue;
    const field = upstreamFieldPath(root, data.path);
    if (data.rule === 'wrong-type') undecodable.push(field);
    else if (data.rule === 'missing-required') missing.push({ field, diagnostic: d });
    else if (data.rule === 'invalid-enum') unsupported.set(field, d);
  }
  const merged = new Set<Diagnostic>();
  const out: Diagnostic[] = [];
  for (const { error, diagnostic } of admission) {
    if (undecodable.some((p) => within(error.field, p))) continue;
    const twin = twinOf(error, missing, unsupported);
    // Upstream may report a missing struct by its own required fields (`spec.scaleTargetRef.kind`): the first takes the
    // payload.
    if (twin !== undefined && !merged.has(twin)) {
      merged.add(twin);
      out.push({ ...diagnostic, data: twin.data });
    } else {
      out.push(diagnostic);
    }
  }
  for (const d of schema) if (!merged.has(d)) out.push(d);
  return out;
}

/** The schema diagnostic about the same problem as an admission error, if any. */
function twinOf(
  error: FieldError,
  missing: ReadonlyArray<{ field: string; diagnostic: Diagnostic }>,
  unsupported: ReadonlyMap<string, Diagnostic>,
): Diagnostic | undefined {
  if (error.type === 'FieldValueNotSupported') {
    // A value left out decodes as "": upstream answers NotSupported "" where the schema says it is required.
    const left = error.value === '' || error.value === undefined;
    return (
      unsupported.get(error.field) ?? (left ? missing.find((m) => m.field === error.field)?.diagnostic : undefined)
    );
  }
  if (error.type === 'FieldValueRequired') return missing.find((m) => within(error.field, m.field))?.diagnostic;
  // A left-out string decodes as "", which upstream may find Invalid (a LimitRange item's `type`).
  if (error.type === 'FieldValueInvalid' && error.value === '')
    return missing.find((m) => m.field === error.field)?.diagnostic;
  return undefined;
}

/** True when `field` is `prefix` or lies below it. */
function within(field: string, prefix: string): boolean {
  if (!field.startsWith(prefix)) return false;
  const next = field[prefix.length];
  return next === undefined || next === '.' || next === '[' || prefix === '';
}
