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

/** The diagnostics of every schema rule for one document. */
export function runSchemaRules(doc: ManifestDocument, ctx: SchemaRuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of SCHEMA_RULES) out.push(...rule.validate(doc, ctx));
  return out;
}
