/**
 * `unknown-field`: a key the schema does not declare. The API server's strict
 * field validation (kubectl's default since 1.27) rejects the object with
 * `strict decoding error: unknown field "spec.template.spec.containers[0].poarts"`.
 * The fields are found by the API server's own walk (sandbox/schema/strictFields)
 * over the object kubectl would send, so the editor flags exactly what the
 * sandbox refuses; each diagnostic sits on the key, with a suggestion.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import { strictFieldErrors } from '../../../../sandbox/schema/strictFields';
import { makeDiagnostic } from '../diagnostic';
import { fieldRange } from '../pathToRange';
import type { SchemaDiagnosticData } from './diagnosticData';
import type { SchemaRule } from './rule';
import { closestName } from './suggest';

export const unknownFieldRule: SchemaRule = {
  code: 'unknown-field',
  validate(doc, ctx) {
    const out: Diagnostic[] = [];
    for (const e of strictFieldErrors(doc.object, ctx.definition)) {
      const def = e.parent;
      const name = e.segments[e.segments.length - 1];
      if (e.kind !== 'unknown' || def === undefined || typeof name !== 'string') continue;
      const replacement = closestName(name, Object.keys(def.properties));
      const hint = replacement === undefined ? '' : `; did you mean \`${replacement}\`?`;
      const data: SchemaDiagnosticData = {
        rule: 'unknown-field',
        path: e.segments,
        field: name,
        parent: def.title,
        ...(replacement === undefined ? {} : { replacement }),
      };
      const message = `Unknown field \`${name}\` in \`${def.title}\`${hint}`;
      const range = fieldRange(doc.root, e.segments, ctx.lineCounter, { part: 'key' });
      out.push({ ...makeDiagnostic(range, 'unknown-field', message), data });
    }
    return out;
  },
};
