/**
 * Quick fixes for the schema rules' diagnostics, driven by their `data`
 * (schemaRules/diagnosticData.ts): rename a misspelled key, put the enum value
 * in its right case, quote a number where a string belongs, add a missing
 * required field with a placeholder of its type.
 */
import { isMap } from 'yaml';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { typeAtPath } from '../../schema/schema';
import { documentSchema } from '../completion/documentSchema';
import type { SchemaDiagnosticData } from '../schemaRules/diagnosticData';
import { documentBounds } from '../yamlLines';
import { quickFix } from './action';
import { nodeAtPath, parseDocumentAt } from './parsedDocument';
import { placeholder, placeholderForTypeText } from './placeholder';
import { insertPairEdit } from './yamlEdits';

/** The fixes for one schema diagnostic (at most one: each has a single obvious fix). */
export function schemaFixes(doc: TextDocument, d: Diagnostic, data: SchemaDiagnosticData): CodeAction[] {
  const at = doc.getText(d.range);
  switch (data.rule) {
    case 'unknown-field':
      if (data.replacement === undefined || unquote(at) !== data.field) return [];
      return [
        quickFix(
          `Change "${data.field}" to "${data.replacement}"`,
          doc.uri,
          d,
          [{ range: d.range, newText: data.replacement }],
          true,
        ),
      ];
    case 'invalid-enum':
      if (data.replacement === undefined || unquote(at) !== data.value) return [];
      return [
        quickFix(`Change to "${data.replacement}"`, doc.uri, d, [{ range: d.range, newText: data.replacement }], true),
      ];
    case 'wrong-type':
      if (data.replacement === undefined || at === '') return [];
      return [
        quickFix(
          `Quote as a string: ${data.replacement}`,
          doc.uri,
          d,
          [{ range: d.range, newText: data.replacement }],
          true,
        ),
      ];
    case 'missing-required':
      return addMissingField(doc, d, data);
  }
}

function addMissingField(
  doc: TextDocument,
  d: Diagnostic,
  data: Extract<SchemaDiagnosticData, { rule: 'missing-required' }>,
): CodeAction[] {
  const pd = parseDocumentAt(doc, d.range.start.line);
  const map = pd.root === undefined ? undefined : nodeAtPath(pd.root, data.path.slice(0, -1));
  if (!isMap(map)) return [];
  const schema = documentSchema(pd.lines, documentBounds(pd.lines, d.range.start.line));
  const type = schema === undefined ? undefined : typeAtPath(schema.definition, data.path)?.type;
  const value = type === undefined ? placeholderForTypeText(data.type) : placeholder(type);
  const edit = insertPairEdit(pd, map, data.field, value);
  return edit === undefined ? [] : [quickFix(`Add required field "${data.field}"`, doc.uri, d, [edit], true)];
}

function unquote(text: string): string {
  return /^(["']).*\1$/s.test(text) ? text.slice(1, -1) : text;
}
