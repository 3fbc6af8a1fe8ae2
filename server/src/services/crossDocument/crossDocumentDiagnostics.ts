/**
 * The cross-document checks of one scope (a workspace folder, or one file
 * outside any folder): the facts of its files in, the diagnostics of each
 * file out. Pure.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { KubeObject } from '../../../../sandbox/api/types';
import type { FileFacts } from './facts';
import type { CrossDocumentRule } from './rule';
import { buildContext } from './rule';
import { customResourceValidation } from './rules/customResourceValidation';
import { duplicateObject } from './rules/duplicateObject';
import { hpaTargetMissing } from './rules/hpaTargetMissing';
import { missingReference } from './rules/missingReference';
import { podSelectorMatchesNothing } from './rules/podSelectorMatchesNothing';
import { serviceSelectorMatchesNothing } from './rules/serviceSelectorMatchesNothing';
import { validatingAdmissionPolicy } from './rules/validatingAdmissionPolicy';

/** Every cross-document rule, in the order their diagnostics are reported at one position. */
export const CROSS_DOCUMENT_RULES: readonly CrossDocumentRule[] = [
  duplicateObject,
  serviceSelectorMatchesNothing,
  podSelectorMatchesNothing,
  missingReference,
  hpaTargetMissing,
  validatingAdmissionPolicy,
  customResourceValidation,
];

/** How messages name the scope. */
export const FOLDER_SCOPE = 'this workspace folder';
export const FILE_SCOPE = 'this file';

/**
 * Diagnostics per file URI: every file of `files` has an entry (empty when it
 * has no problem, so callers know to clear earlier ones), sorted by position.
 * `externalCrds` serve custom resources after the scope's own CRDs (customSchema/externalCrds.ts).
 */
export function crossDocumentDiagnostics(
  files: readonly FileFacts[],
  scopeName: string = FOLDER_SCOPE,
  rules: readonly CrossDocumentRule[] = CROSS_DOCUMENT_RULES,
  externalCrds: readonly KubeObject[] = [],
): Map<string, Diagnostic[]> {
  const out = new Map<string, Diagnostic[]>(files.map((f) => [f.uri, []]));
  const ctx = buildContext(files, scopeName, externalCrds);
  for (const rule of rules) {
    for (const { uri, diagnostic } of rule.check(ctx)) out.get(uri)?.push(diagnostic);
  }
  for (const list of out.values())
    list.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return out;
}
