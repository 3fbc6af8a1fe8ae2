/**
 * The language server's main service: a YAML text in, the diagnostics the
 * sandbox API server would answer with (as 422 causes) out, each at the key or
 * value it is about. Pure: no connection, no file system, no clock.
 *
 * Schema rules (schemaRules/) check every kind the generated schema knows:
 * unknown fields, wrong types, missing required fields, enum values.
 *
 * Admission runs exactly as the API server runs it on a create: defaults are
 * applied to a private copy, then the object is validated. Paths that only
 * defaulting created (say `spec.template.spec.containers[0].imagePullPolicy`)
 * do not exist in the source; pathToRange maps them to their nearest existing
 * ancestor.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LineCounter } from 'yaml';
import { applyDefaults } from '../../../sandbox/admission/defaults';
import type { FieldError } from '../../../sandbox/admission/validation/fieldError';
import { formatFieldError } from '../../../sandbox/admission/validation/format';
import { validateObject } from '../../../sandbox/admission/validation';
import type { ResourceType } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';
import { definition } from '../schema/schema';
import { checkKind } from './checkKind';
import { makeDiagnostic } from './diagnostic';
import { isKubectlList, listItems } from './listItems';
import { parseManifests } from './parseManifests';
import type { ManifestDocument } from './parseManifests';
import { fieldRange } from '../../../sandbox/manifests/pathToRange';
import { runSchemaRules } from './schemaRules';
import type { SchemaDiagnosticData } from './schemaRules/diagnosticData';
import { mergeAdmission } from './schemaRules/mergeAdmission';
import type { AdmissionFinding } from './schemaRules/mergeAdmission';

/** What {@link analyzeManifestText} found in one text. */
export interface ManifestReport {
  /** Every diagnostic, sorted by position. */
  readonly diagnostics: Diagnostic[];
  /** How many documents are Kubernetes objects (a map with string `apiVersion` and `kind`). */
  readonly resources: number;
}

/** Diagnostics plus the number of Kubernetes objects in a (multi-document) text. Never throws. */
export function analyzeManifestText(text: string): ManifestReport {
  const parsed = parseManifests(text);
  const out = [...parsed.diagnostics];
  for (const m of parsed.manifests) out.push(...validateManifest(m, parsed.lineCounter));
  return { diagnostics: sortByPosition(out), resources: parsed.manifests.length };
}

/** All diagnostics for a (multi-document) manifest text, sorted by position. Never throws. */
export function validateManifestText(text: string): Diagnostic[] {
  return analyzeManifestText(text).diagnostics;
}

/**
 * Diagnostics for one manifest document: its kind, then the schema rules (for
 * every kind the schema knows) and admission (for the kinds the sandbox
 * serves), merged so that each problem is reported once.
 */
export function validateManifest(m: ManifestDocument, lc: LineCounter): Diagnostic[] {
  if (isKubectlList(m)) return listItems(m).flatMap((item) => validateManifest(item, lc));
  const checked = checkKind(m.root, m.apiVersion, m.kind, lc);
  if ('diagnostic' in checked) return [checked.diagnostic];
  const def = checked.entry === undefined ? undefined : definition(checked.entry.definition);
  let schema =
    checked.entry === undefined || def === undefined
      ? []
      : runSchemaRules(m, { lineCounter: lc, kind: checked.entry, definition: def });
  if (checked.resource === undefined) return schema;
  const admission = admit(m, checked.resource, lc);
  // A required field the API server's defaulting fills in (a condition pattern's `status: "True"`) is not missing.
  schema = schema.filter((d) => !filledByDefaults(d, m.object));
  if (!Array.isArray(admission)) {
    // Admission can trip over a value of the wrong type; the schema has already said what is wrong.
    return schema.some((d) => d.code === 'wrong-type') ? schema : [admission.internalError, ...schema];
  }
  return def === undefined
    ? [...admission.map((a) => a.diagnostic), ...schema]
    : mergeAdmission(def, admission, schema);
}

/** A `missing-required` finding whose field the defaulted object (admission ran on it) does have. */
function filledByDefaults(d: Diagnostic, defaulted: unknown): boolean {
  const data = d.data as SchemaDiagnosticData | undefined;
  if (data?.rule !== 'missing-required') return false;
  let at: unknown = defaulted;
  for (const seg of data.path) {
    if (at === null || typeof at !== 'object') return false;
    at = (at as Record<string | number, unknown>)[seg];
  }
  return at !== undefined && at !== null;
}

/** Runs admission as the API server does on a create: defaults on a private copy, then validation. */
function admit(
  m: ManifestDocument,
  resource: ResourceType,
  lc: LineCounter,
): AdmissionFinding[] | { internalError: Diagnostic } {
  // A missing metadata decodes to an empty ObjectMeta in the API server.
  if (m.object.metadata === undefined || m.object.metadata === null) m.object.metadata = {};
  const obj = m.object as KubeObject;
  let errors: FieldError[];
  try {
    applyDefaults(obj, resource);
    errors = validateObject(obj, { resource, operation: 'CREATE' });
  } catch (e) {
    const message = `The document could not be validated: ${e instanceof Error ? e.message : String(e)}`;
    return { internalError: makeDiagnostic(fieldRange(m.root, 'kind', lc), 'internal-error', message) };
  }
  return errors.map((error) => ({
    error,
    diagnostic: makeDiagnostic(
      fieldRange(m.root, error.field, lc, error.source),
      error.code,
      formatFieldError(error),
      error.warning === true,
    ),
  }));
}

function sortByPosition(ds: Diagnostic[]): Diagnostic[] {
  // Array.prototype.sort is stable, so diagnostics at one position keep the validator's order.
  return ds.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}
