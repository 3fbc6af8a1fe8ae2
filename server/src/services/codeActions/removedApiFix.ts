/**
 * Quick fix for `removed-api-version`: put the apiVersion that serves the kind
 * today. The replacement is the diagnostic's `data.replacement` when it has
 * one, else it is worked out from the document with the same tables the
 * validator uses (a replacement that is not an apiVersion — Pod Security
 * Admission for PodSecurityPolicy — gets no fix).
 */
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { kindEntry } from '../../schema/schema';
import { preferredEntry } from '../completion/documentSchema';
import { removedApi } from '../removedApis';
import { documentBounds, documentLines } from '../yamlLines';
import { rootScalar } from '../yamlPosition';
import { quickFix } from './action';

export function removedApiFix(doc: TextDocument, d: Diagnostic): CodeAction[] {
  const replacement = fromData(d.data) ?? fromDocument(doc, d.range.start.line);
  if (replacement === undefined) return [];
  return [
    quickFix(`Change apiVersion to "${replacement}"`, doc.uri, d, [{ range: d.range, newText: replacement }], true),
  ];
}

function fromData(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('replacement' in data)) return undefined;
  return typeof data.replacement === 'string' ? data.replacement : undefined;
}

function fromDocument(doc: TextDocument, line: number): string | undefined {
  const lines = documentLines(doc);
  const bounds = documentBounds(lines, line);
  const apiVersion = rootScalar(lines, bounds, 'apiVersion')?.value;
  const kind = rootScalar(lines, bounds, 'kind')?.value;
  if (apiVersion === undefined || kind === undefined) return undefined;
  const listed = removedApi(apiVersion, kind)?.replacement;
  if (listed !== undefined) {
    const served = kindEntry(listed, kind);
    return served !== undefined && served.removed !== true ? listed : undefined;
  }
  return preferredEntry(kind)?.apiVersion;
}
