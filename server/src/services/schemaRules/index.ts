/**
 * The schema rules, in the order their diagnostics are reported for one
 * position, and the runner the document validator calls.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ManifestDocument } from '../parseManifests';
import { droppedFieldRule } from './droppedField';
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
  droppedFieldRule,
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
  // The visitors with each hook, called as methods (no bound copies, no flatMap: this runs once per document).
  const values: SchemaVisitor[] = [];
  const objects: SchemaVisitor[] = [];
  for (const v of visitors) {
    if (v.value !== undefined) values.push(v);
    if (v.object !== undefined) objects.push(v);
  }
  return {
    value(node, type, key, path) {
      for (let i = 0; i < values.length; i++) values[i].value!(node, type, key, path);
    },
    object(map, def, key, path) {
      for (let i = 0; i < objects.length; i++) objects[i].object!(map, def, key, path);
    },
  };
}
