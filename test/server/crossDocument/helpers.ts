import type { Diagnostic } from 'vscode-languageserver-types';
import { crossDocumentDiagnostics } from '../../../server/src/services/crossDocument/crossDocumentDiagnostics';
import { makeDiagnostic } from '../../../server/src/services/diagnostic';
import { analyzeFile } from '../../../server/src/services/workspace/analyzeFile';

/**
 * Cross-document diagnostics of a folder given as `{ 'a.yaml': text }`, keyed by file name, files without any left out.
 */
export function checkFolder(files: Record<string, string>, scope?: string): Record<string, Diagnostic[]> {
  const facts = Object.entries(files).map(([name, text]) => ({
    uri: `file:///w/${name}`,
    display: name,
    objects: analyzeFile(text).objects,
  }));
  const out: Record<string, Diagnostic[]> = {};
  for (const [uri, ds] of crossDocumentDiagnostics(facts, scope))
    if (ds.length > 0) out[uri.slice('file:///w/'.length)] = ds;
  return out;
}

/** An expected diagnostic on 0-based `line` from `start` to `end`. */
export function expected(
  line: number,
  start: number,
  end: number,
  code: string,
  message: string,
  severity: 'error' | 'warning' = 'warning',
): Diagnostic {
  return makeDiagnostic(
    { start: { line, character: start }, end: { line, character: end } },
    code,
    message,
    severity === 'warning',
  );
}
