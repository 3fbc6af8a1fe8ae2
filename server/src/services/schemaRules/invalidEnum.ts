/**
 * `invalid-enum`: a string outside the values the schema lists for the field,
 * with the API server's own wording (`Unsupported value: "always": supported
 * values: "Always", "IfNotPresent", "Never"`). The empty string is left to
 * admission: upstream treats it as unset for most enums and defaults it.
 * Under `status`, which the API server ignores on create, only a warning.
 */
import { isScalar } from 'yaml';
import type { Diagnostic } from 'vscode-languageserver-types';
import { notSupported } from '../../../../sandbox/admission/validation/fieldError';
import { formatFieldError } from '../../../../sandbox/admission/validation/format';
import { makeDiagnostic } from '../diagnostic';
import type { SchemaDiagnosticData } from './diagnosticData';
import { upstreamFieldPath } from './paths';
import type { SchemaRule } from './rule';
import { nodeRange, scalarKind } from './scalars';
import { walkSchema } from './walkSchema';

export const invalidEnumRule: SchemaRule = {
  code: 'invalid-enum',
  validate(doc, ctx) {
    const out: Diagnostic[] = [];
    walkSchema(doc.root, ctx.definition, invalidEnumRule.visitor!(doc, ctx, out));
    return out;
  },
  visitor(_doc, ctx, out) {
    return {
      value(node, type, _key, path) {
        if (type.kind !== 'string' || type.enum === undefined || !isScalar(node) || scalarKind(node) !== 'string')
          return;
        const value = node.value;
        if (typeof value !== 'string' || value === '' || type.enum.includes(value)) return;
        const message = formatFieldError(
          notSupported('invalid-enum', upstreamFieldPath(ctx.definition, path), value, type.enum),
        );
        const lower = value.toLowerCase();
        const replacement = type.enum.find((e) => e.toLowerCase() === lower);
        const data: SchemaDiagnosticData = {
          rule: 'invalid-enum',
          path: [...path],
          value,
          allowed: [...type.enum],
          ...(replacement === undefined ? {} : { replacement }),
        };
        out.push({
          ...makeDiagnostic(nodeRange(node, ctx.lineCounter), 'invalid-enum', message, path[0] === 'status'),
          data,
        });
      },
    };
  },
};
