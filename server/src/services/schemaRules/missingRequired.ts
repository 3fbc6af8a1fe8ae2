/**
 * `missing-required`: a field the schema marks required is absent. Marked on
 * the key whose value is the incomplete map (for a list item its first key,
 * for the document root `kind`), with the upstream message
 * `spec.template.spec.containers[0].ports[0].containerPort: Required value`.
 *
 * Not checked: maps with a merge key (`<<`), whose merged fields the AST walk
 * does not see, and `status`, which the API server ignores on create.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import { isNode } from 'yaml';
import type { Node, Scalar, YAMLMap } from 'yaml';
import { formatFieldError } from '../../../../sandbox/admission/validation/format';
import { required } from '../../../../sandbox/admission/validation/fieldError';
import { describeType } from '../../schema/schema';
import { makeDiagnostic } from '../diagnostic';
import type { SchemaDiagnosticData } from './diagnosticData';
import { upstreamFieldPath } from './paths';
import type { SchemaRule } from './rule';
import { nodeRange } from './scalars';
import { isMergeKey, keyText, walkSchema } from './walkSchema';

export const missingRequiredRule: SchemaRule = {
  code: 'missing-required',
  validate(doc, ctx) {
    const out: Diagnostic[] = [];
    walkSchema(doc.root, ctx.definition, missingRequiredRule.visitor!(doc, ctx, out));
    return out;
  },
  visitor(_doc, ctx, out) {
    return {
      object(map, def, key, path) {
        if (def.required.length === 0 || path[0] === 'status' || map.items.some(isMergeKey)) return;
        for (const field of def.required) {
          if (map.items.some((p) => keyText(p) === field)) continue;
          const fieldPath = [...path, field];
          const message = formatFieldError(required('missing-required', upstreamFieldPath(ctx.definition, fieldPath)));
          const data: SchemaDiagnosticData = {
            rule: 'missing-required',
            path: fieldPath,
            field,
            type: describeType(def.properties[field].type),
          };
          out.push({
            ...makeDiagnostic(
              nodeRange(anchor(map, key, path.length === 0), ctx.lineCounter),
              'missing-required',
              message,
            ),
            data,
          });
        }
      },
    };
  },
};

/** Where a missing field of `map` is marked: its key, else (list items, root) its first key or `kind`. */
function anchor(map: YAMLMap, key: Scalar | undefined, root: boolean): Node {
  if (key !== undefined) return key;
  const holder = root ? map.items.find((p) => keyText(p) === 'kind') : map.items[0];
  return isNode(holder?.key) ? holder.key : map;
}
