/**
 * `custom-resource-validation`: a custom resource of a kind a CustomResourceDefinition of the scope serves, which
 * the API server would refuse once that CRD is established — its version's schema or its `x-kubernetes-validations`
 * rules (an error at the exact key or value the field path names — the nearest key that exists when the field is
 * missing —, with the API server's message). The same checks as the API server's (sandbox/apiextensions/workspace.ts
 * over sandbox/apiextensions/schema), over the documents instead of the store.
 *
 * A kind the scope's CRDs serve is not unknown either: {@link withoutServedKindWarnings} drops the single-document
 * `unknown-kind` warning ("No CustomResourceDefinition for …") of its objects.
 */
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { FieldError } from '../../../../../sandbox/admission/validation/fieldError';
import type { KubeObject } from '../../../../../sandbox/api/types';
import { formatFieldError } from '../../../../../sandbox/admission/validation/format';
import { workspaceCrds } from '../../../../../sandbox/apiextensions/workspace';
import { parseFieldPath } from '../../../../../sandbox/manifests/fieldPath';
import { makeDiagnostic } from '../../diagnostic';
import type { FileFacts, ObjectFacts } from '../facts';
import { fieldPathKey, keyOnly } from '../facts';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic, LocatedObject } from '../rule';
import type { WorkspaceCrds } from '../../../../../sandbox/apiextensions/workspace';
import type { JSONSchemaProps } from '../../../../../sandbox/apiextensions/schema/types';
import { additionalSchema, itemsSchema } from '../../../../../sandbox/apiextensions/schema/types';
import type { SchemaDiagnosticData } from '../../schemaRules/diagnosticData';
import { closestName } from '../../schemaRules/suggest';

export const customResourceValidation: CrossDocumentRule = {
  code: 'custom-resource-validation',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    // The scope's CRDs first: a workspace CRD wins over the catalogue's or the sandbox's for the same kind.
    const crds = workspaceCrds([...ctx.objects.map((o) => o.facts.object), ...ctx.externalCrds]);
    if (crds.empty) return [];
    const out: FileDiagnostic[] = [];
    for (const located of ctx.objects) {
      const obj = located.facts.object;
      const metadata = located.namespace === '' ? obj.metadata : { ...obj.metadata, namespace: located.namespace };
      const unknown = crds.serves(obj.apiVersion, obj.kind) ? unknownFields(located, crds) : [];
      for (const diagnostic of unknown) out.push({ uri: located.file.uri, diagnostic });
      const errors = crds.check({ ...obj, metadata }) ?? [];
      // As the API server's 422 names the object: `Widget.example.com "w" is invalid: spec.replicas: …`.
      const prefix = `${located.facts.kind}.${located.facts.group} "${located.facts.name ?? ''}" is invalid: `;
      for (const e of errors)
        out.push({
          uri: located.file.uri,
          diagnostic: makeDiagnostic(errorRange(located.facts, e), this.code, prefix + formatFieldError(e)),
        });
    }
    return out;
  },
};

/**
 * `unknown-field` at each key of a custom resource its version's schema does not declare, with the closest declared
 * name: kubectl's default strict field validation refuses the object (`strict decoding error: unknown field
 * "spec.colr"`), a lenient one prunes the field silently.
 */
function unknownFields(located: LocatedObject, crds: WorkspaceCrds): Diagnostic[] {
  const { facts } = located;
  const schema = crds.schema(facts.apiVersion, facts.kind);
  return crds.unknownFields(facts.object).map((f) => {
    const name = String(f.segments[f.segments.length - 1]);
    const parentPath = f.segments.slice(0, -1);
    const declared = Object.keys(schemaAt(schema, parentPath)?.properties ?? {});
    const replacement = closestName(name, declared);
    const parent = [facts.kind, ...parentPath].map(String).join('.');
    const message =
      `Unknown field "${name}" in ${parent}${replacement === undefined ? '' : `; did you mean "${replacement}"?`}` +
      ` (strict field validation refuses it: unknown field "${f.path}")`;
    const data: SchemaDiagnosticData = {
      rule: 'unknown-field',
      path: f.segments,
      field: name,
      parent,
      ...(replacement === undefined ? {} : { replacement }),
    };
    const key = fieldPathKey(f.segments.map(String));
    const range = facts.fieldRanges?.get(keyOnly(key)) ?? facts.fieldRanges?.get(key) ?? facts.nameRange;
    return { ...makeDiagnostic(range, 'unknown-field', message), data };
  });
}

/** The schema at `segments` under `schema` (list items, declared properties, or additionalProperties). */
function schemaAt(
  schema: JSONSchemaProps | undefined,
  segments: readonly (string | number)[],
): JSONSchemaProps | undefined {
  let s = schema;
  for (const seg of segments) {
    if (s === undefined) return undefined;
    s = typeof seg === 'number' ? itemsSchema(s) : (s.properties?.[seg] ?? additionalSchema(s));
  }
  return s;
}

/**
 * Where an error of a custom resource sits: the range of its field path in the source, or of the nearest ancestor
 * written there (a required field that is missing: its parent's key); the name when the ranges were not kept.
 */
function errorRange(facts: ObjectFacts, e: FieldError): Range {
  const ranges = facts.fieldRanges;
  if (ranges === undefined) return facts.nameRange;
  const segments = parseFieldPath(e.field).map((s) => (s.kind === 'name' ? s.name : s.text));
  if (e.source?.entry !== undefined) segments.push(e.source.entry);
  for (let n = segments.length; n >= 0; n--) {
    const range = ranges.get(fieldPathKey(segments.slice(0, n)));
    // The root's range is the `kind` key: the name says better which object is at fault.
    if (range !== undefined) return n === 0 ? facts.nameRange : range;
  }
  return facts.nameRange;
}

/**
 * `own` (a file's single-document diagnostics) without the `unknown-kind` warnings of objects whose kind a CRD of
 * the scope serves: the CRD is in the workspace after all, and `custom-resource-validation` checks the object. The
 * same for a kind one of `externalCrds` serves (the `kubeReconcile.crdFolders` catalogue, the running sandbox).
 */
export function withoutServedKindWarnings(
  scope: readonly FileFacts[],
  externalCrds: readonly KubeObject[] = [],
): (file: FileFacts, own: readonly Diagnostic[]) => readonly Diagnostic[] {
  const crds = workspaceCrds([...scope.flatMap((f) => f.objects.map((o) => o.object)), ...externalCrds]);
  if (crds.empty) return (_file, own) => own;
  return (file, own) => {
    const served = file.objects.filter((o) => crds.serves(o.apiVersion, o.kind)).map((o) => o.kindRange);
    if (served.length === 0) return own;
    return own.filter(
      (d) =>
        !(
          d.code === 'unknown-kind' &&
          d.severity === DiagnosticSeverity.Warning &&
          served.some((r) => sameRange(r, d.range))
        ),
    );
  };
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}
