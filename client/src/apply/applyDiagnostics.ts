/**
 * What the editor shows after an apply: for each rejected document the API
 * server's own message — on each field it names when the rejection names
 * fields (`strict decoding error: unknown field "spec.containers[0].poarts"`
 * sits on `poarts`; a 422 sits on each field of its causes, where the
 * language server's own diagnostic for it is), otherwise on the document's
 * first line; and one warning
 * when YAML errors kept documents from being applied.
 * Plain data here; the vscode glue turns it into `vscode.Diagnostic`s.
 */
import type { ApplyReply } from '../sandbox/protocol';
import type { ParsedForApply } from './manifestsForApply';

export const APPLY_DIAGNOSTIC_SOURCE = 'sandbox';
export const APPLY_DIAGNOSTIC_COLLECTION = 'kube-reconcile-apply';

export interface ApplyDiagnostic {
  line: number;
  /** Start of the highlighted range on that line (default 0). */
  character?: number;
  /** End of the highlighted range on that line (the line's length for a whole line). */
  endCharacter: number;
  message: string;
  severity: 'error' | 'warning';
  /** The Status reason (`Invalid`, `NotFound`, …) when the API server rejected the document. */
  code?: string;
}

function lineLength(text: string, line: number): number {
  let start = 0;
  for (let i = 0; i < line; i++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return 0;
    start = nl + 1;
  }
  const end = text.indexOf('\n', start);
  return (end < 0 ? text.length : end) - start - (text[(end < 0 ? text.length : end) - 1] === '\r' ? 1 : 0);
}

export function applyDiagnostics(
  text: string,
  parsed: ParsedForApply,
  reply: ApplyReply | undefined,
): ApplyDiagnostic[] {
  const out: ApplyDiagnostic[] = [];
  for (const o of reply?.outcomes ?? []) {
    if (o.ok) continue;
    const code = o.status?.reason || undefined;
    // The fields the rejection names: its own list (strict decoding), else the Status causes (a 422 names each field).
    const fields = o.fields ?? (o.status?.details?.causes ?? []).flatMap((c) => (c.field ? [c.field] : []));
    const spans = fields.map((f) => parsed.keyOf(o.line, f)).filter((s) => s !== undefined);
    if (spans.length === 0) spans.push({ line: o.line, character: 0, endCharacter: lineLength(text, o.line) });
    const seen = new Set<string>();
    for (const span of spans) {
      const key = JSON.stringify(span);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...span, message: o.message, severity: 'error', ...(code ? { code } : {}) });
    }
  }
  const first = parsed.yamlErrors[0];
  if (first) {
    const more = parsed.yamlErrors.length > 1 ? ` (and ${parsed.yamlErrors.length - 1} more)` : '';
    const message = `Not applied to the sandbox: the document has a YAML error${more}: ${first.message}. Objects it declared are kept until it parses again.`;
    out.push({ line: first.line, endCharacter: lineLength(text, first.line), message, severity: 'warning' });
  }
  return out.sort((a, b) => a.line - b.line);
}
