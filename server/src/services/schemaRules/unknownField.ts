/**
 * `unknown-field`: a key the schema does not declare. The API server's strict
 * field validation (kubectl's default since 1.27) rejects the object with
 * `strict decoding error: unknown field "spec.template.spec.containers[0].poarts"`.
 */
import { isScalar } from 'yaml';
import type { Diagnostic } from 'vscode-languageserver-types';
import { makeDiagnostic } from '../diagnostic';
import type { SchemaDiagnosticData } from './diagnosticData';
import type { SchemaRule } from './rule';
import { nodeRange } from './scalars';
import { closestName } from './suggest';
import { isMergeKey, keyText, walkSchema } from './walkSchema';

export const unknownFieldRule: SchemaRule = {
  code: 'unknown-field',
  validate(doc, ctx) {
    const out: Diagnostic[] = [];
    walkSchema(doc.root, ctx.definition, {
      object(map, def, _key, path) {
        for (const pair of map.items) {
          const name = keyText(pair);
          if (name === undefined || isMergeKey(pair) || Object.hasOwn(def.properties, name) || !isScalar(pair.key))
            continue;
          const replacement = closestName(name, Object.keys(def.properties));
          const hint = replacement === undefined ? '' : `; did you mean \`${replacement}\`?`;
          const data: SchemaDiagnosticData = {
            rule: 'unknown-field',
            path: [...path, name],
            field: name,
            parent: def.title,
            ...(replacement === undefined ? {} : { replacement }),
          };
          const message = `Unknown field \`${name}\` in \`${def.title}\`${hint}`;
          out.push({ ...makeDiagnostic(nodeRange(pair.key, ctx.lineCounter), 'unknown-field', message), data });
        }
      },
    });
    return out;
  },
};
