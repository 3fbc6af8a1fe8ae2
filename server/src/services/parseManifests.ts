/**
 * Text → the Kubernetes manifests in it, and the parser's problems as
 * diagnostics. The parsing itself lives in core (sandbox/manifests/), shared
 * with save-to-apply and `simulate`; this turns its problems into LSP
 * diagnostics with the language server's source and codes.
 */
import type { LineCounter } from 'yaml';
import type { Diagnostic } from 'vscode-languageserver-types';
import { parseManifestText } from '../../../sandbox/manifests/parseManifests';
import type { ManifestDocument } from '../../../sandbox/manifests/parseManifests';
import { makeDiagnostic } from './diagnostic';
import type { ServerDiagnosticCode } from './diagnostic';

export {
  MAX_ALIAS_COUNT,
  MAX_NESTING_DEPTH,
  MAX_PARSE_DIAGNOSTICS,
  MAX_TEXT_LENGTH,
} from '../../../sandbox/manifests/parseManifests';
export type { ManifestDocument } from '../../../sandbox/manifests/parseManifests';

export interface ParsedManifests {
  /** Offsets → lines for every range in this text. */
  readonly lineCounter: LineCounter;
  /** Problems found while reading the text, in source order. */
  readonly diagnostics: Diagnostic[];
  readonly manifests: ManifestDocument[];
}

/**
 * Parses a (multi-document) YAML text. Never throws: hostile input (binary
 * data, alias bombs, huge or deeply nested text) becomes a diagnostic, and a
 * document with syntax errors is reported but not offered as a manifest.
 */
export function parseManifests(text: string): ParsedManifests {
  const parsed = parseManifestText(text);
  const diagnostics = parsed.problems.map((p) => {
    const code: ServerDiagnosticCode = p.code; // the parser's codes are the language server's
    return makeDiagnostic(p.range, code, p.message, p.severity === 'warning');
  });
  return { lineCounter: parsed.lineCounter, diagnostics, manifests: parsed.manifests };
}
