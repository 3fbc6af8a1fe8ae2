/**
 * `unknown-field`: a key the schema does not declare. The API server's strict
 * field validation (kubectl's default since 1.27) rejects the object with
 * `strict decoding error: unknown field "spec.template.spec.containers[0].poarts"`.
 * The fields are found by the API server's own walk (sandbox/schema/strictFields)
 * over the object kubectl would send, so the editor flags exactly what the
 * sandbox refuses; each diagnostic sits on the key, with a suggestion.
 *
 * When the object mirrors the document's nodes one to one (sandbox/manifests/parseManifests `mirrorsNodes`: read
 * straight off them, no alias expanded, no key JavaScript would list first), the same walk is the schema walk of the
 * nodes the other rules share: the keys it finds undeclared, in its order, deduplicated and capped as the strict walk
 * does (`strictFieldErrors`: one message per path text, the first MAX_STRICT_ERRORS), are the strict walk's own.
 * test/server/schema/unknownFieldWalk.test.ts compares both.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import { compareKubernetesVersions, fieldVersions, kubernetesVersion } from '../../schema/schema';
import {
  MAX_STRICT_ERRORS,
  pathText,
  strictErrorText,
  strictFieldErrors,
} from '../../../../sandbox/schema/strictFields';
import { mirrorsNodes } from '../../../../sandbox/manifests/parseManifests';
import type { ManifestDocument } from '../parseManifests';
import type { Definition } from '../../schema/types';
import type { SchemaRuleContext } from './rule';
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

/** The diagnostic of one unknown field: `name`, the last of `segments`, which `def` does not declare. */
function unknownField(
  doc: ManifestDocument,
  ctx: SchemaRuleContext,
  def: Definition,
  name: string,
  segments: (string | number)[],
): Diagnostic {
  const elsewhere = otherReleases(def.name, name);
  const replacement = elsewhere === undefined ? closestName(name, Object.keys(def.properties)) : undefined;
  const hint = replacement === undefined ? '' : `; did you mean "${replacement}"?`;
  const data: SchemaDiagnosticData = {
    rule: 'unknown-field',
    path: segments,
    field: name,
    parent: def.title,
    ...(replacement === undefined ? {} : { replacement }),
  };
  const message =
    elsewhere === undefined
      ? `Unknown field "${name}" in ${def.title}${hint}`
      : `"${name}" is not in Kubernetes ${kubernetesVersion()} (${elsewhere}): unknown field in ${def.title}`;
  const range = fieldRange(doc.root, segments, ctx.lineCounter, { part: 'key' });
  return { ...makeDiagnostic(range, 'unknown-field', message), data };
}

export const unknownFieldRule: SchemaRule = {
  code: 'unknown-field',
  validate(doc, ctx) {
    const out: Diagnostic[] = [];
    for (const e of strictFieldErrors(doc.object, ctx.definition)) {
      const def = e.parent;
      const name = e.segments[e.segments.length - 1];
      if (e.kind !== 'unknown' || def === undefined || typeof name !== 'string') continue;
      out.push(unknownField(doc, ctx, def, name, e.segments));
    }
    return out;
  },
  visitor(doc, ctx, out) {
    if (!mirrorsNodes(doc)) {
      out.push(...unknownFieldRule.validate(doc, ctx));
      return {};
    }
    // The strict walk's bookkeeping (Walk.error): the first MAX_STRICT_ERRORS distinct messages, in walk order.
    const seen = new Set<string>();
    return {
      unknown(_pair, name, def, path) {
        if (seen.size >= MAX_STRICT_ERRORS) return;
        const segments = [...path, name];
        const text = strictErrorText({ kind: 'unknown', path: pathText(segments) });
        if (seen.has(text)) return;
        seen.add(text);
        out.push(unknownField(doc, ctx, def, name, segments));
      },
    };
  },
};
