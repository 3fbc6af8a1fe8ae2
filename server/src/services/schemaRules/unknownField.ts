/**
 * `unknown-field`: a key the schema does not declare. The API server's strict
 * field validation (kubectl's default since 1.27) rejects the object with
 * `strict decoding error: unknown field "spec.template.spec.containers[0].poarts"`.
 * The fields are found by the API server's own walk (sandbox/schema/strictFields)
 * over the object kubectl would send, so the editor flags exactly what the
 * sandbox refuses; each diagnostic sits on the key, with a suggestion.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import { compareKubernetesVersions, fieldVersions, kubernetesVersion } from '../../schema/schema';
import { strictFieldErrors } from '../../../../sandbox/schema/strictFields';
import { makeDiagnostic } from '../diagnostic';
import { fieldRange } from '../../../../sandbox/manifests/pathToRange';
import type { SchemaDiagnosticData } from './diagnosticData';
import type { SchemaRule } from './rule';
import { closestName } from './suggest';

/**
 * For a field another supported release has: `added in 1.34` (the first later release with it) or `removed
 * in 1.33` (the first release after the last one with it). Undefined for a field no release has.
 */
function otherReleases(definitionName: string, field: string): string | undefined {
  const versions = fieldVersions(definitionName, field);
  if (versions.length === 0) return undefined;
  const active = kubernetesVersion();
  const later = versions.find((v) => compareKubernetesVersions(v, active) > 0);
  if (later !== undefined) return `added in ${later}`;
  const last = versions[versions.length - 1];
  const [major, minor] = last.split('.').map(Number);
  return `removed in ${major}.${minor + 1}`;
}

export const unknownFieldRule: SchemaRule = {
  code: 'unknown-field',
  validate(doc, ctx) {
    const out: Diagnostic[] = [];
    for (const e of strictFieldErrors(doc.object, ctx.definition)) {
      const def = e.parent;
      const name = e.segments[e.segments.length - 1];
      if (e.kind !== 'unknown' || def === undefined || typeof name !== 'string') continue;
      const elsewhere = otherReleases(def.name, name);
      const replacement = elsewhere === undefined ? closestName(name, Object.keys(def.properties)) : undefined;
      const hint = replacement === undefined ? '' : `; did you mean "${replacement}"?`;
      const data: SchemaDiagnosticData = {
        rule: 'unknown-field',
        path: e.segments,
        field: name,
        parent: def.title,
        ...(replacement === undefined ? {} : { replacement }),
      };
      const message =
        elsewhere === undefined
          ? `Unknown field "${name}" in ${def.title}${hint}`
          : `"${name}" is not in Kubernetes ${kubernetesVersion()} (${elsewhere}): unknown field in ${def.title}`;
      const range = fieldRange(doc.root, e.segments, ctx.lineCounter, { part: 'key' });
      out.push({ ...makeDiagnostic(range, 'unknown-field', message), data });
    }
    return out;
  },
};
