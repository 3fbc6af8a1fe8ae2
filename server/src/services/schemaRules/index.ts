/**
 * The schema rules, in the order their diagnostics are reported for one
 * position, and the runner the document validator calls.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ManifestDocument } from '../parseManifests';
import { invalidEnumRule } from './invalidEnum';
import { missingRequiredRule } from './missingRequired';
import type { SchemaRule, SchemaRuleContext } from './rule';
import { unknownFieldRule } from './unknownField';
import { walkSchema } from './walkSchema';
import type { SchemaVisitor } from './walkSchema';
import { wrongTypeRule } from './wrongType';

export type { SchemaRule, SchemaRuleContext } from './rule';
export type { SchemaDiagnosticData, YamlPath } from './diagnosticData';

/** Every schema rule. */
export const SCHEMA_RULES: readonly SchemaRule[] = [
  unknownFieldRule,
  wrongTypeRule,
  missingRequiredRule,
  invalidEnumRule,
];

/**
 * The diagnostics of every schema rule for one document, rule after rule. The rules that walk the document along its
 * schema share one walk: each pushes to its own list, so the order is the same as running them one by one.
 */
export function runSchemaRules(doc: ManifestDocument, ctx: SchemaRuleContext): Diagnostic[] {
  const outs: Diagnostic[][] = [];
  const visitors: SchemaVisitor[] = [];
  for (const rule of SCHEMA_RULES) {
    const out: Diagnostic[] = [];
    outs.push(out);
    if (rule.visitor === undefined) out.push(...rule.validate(doc, ctx));
    else visitors.push(rule.visitor(doc, ctx, out));
  }
  if (visitors.length > 0) walkSchema(doc.root, ctx.definition, allOf(visitors));
  return outs.flat();
}

/** One visitor calling each of `visitors` in turn. */
function allOf(visitors: readonly SchemaVisitor[]): SchemaVisitor {
  const values = visitors.flatMap((v) => (v.value === undefined ? [] : [v.value.bind(v)]));
  const objects = visitors.flatMap((v) => (v.object === undefined ? [] : [v.object.bind(v)]));
  return {
    value(node, type, key, path) {
      for (const f of values) f(node, type, key, path);
    },
    object(map, def, key, path) {
      for (const f of objects) f(map, def, key, path);
    },
  };
}
