/**
 * Sends `textDocument/publishDiagnostics`: a file's own diagnostics merged
 * with its cross-document ones, and nothing when that would repeat what the
 * client already shows for the file.
 */
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver/node';

/** Where the publisher sends (the connection's `sendDiagnostics`, or a recorder in tests). */
export type SendDiagnostics = (params: PublishDiagnosticsParams) => void;

export class DiagnosticsPublisher {
  /** What the client currently shows per URI, as JSON (version included). */
  private readonly shown = new Map<string, string>();

  constructor(private readonly send: SendDiagnostics) {}

  /** Publishes `own` and `cross` for `uri`, sorted by position, unless the client already shows exactly that. */
  publish(uri: string, own: readonly Diagnostic[], cross: readonly Diagnostic[], version?: number): void {
    const diagnostics = [...own, ...cross].sort(
      (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
    const params: PublishDiagnosticsParams =
      version === undefined ? { uri, diagnostics } : { uri, version, diagnostics };
    const key = JSON.stringify(params);
    if (this.shown.get(uri) === key) return;
    this.shown.set(uri, key);
    this.send(params);
  }

  /** Removes every diagnostic of `uri` from the client (if it shows any). */
  clear(uri: string): void {
    if (!this.shown.has(uri)) return;
    this.shown.delete(uri);
    this.send({ uri, diagnostics: [] });
  }

  /** Clears every URI the client shows diagnostics for. */
  clearAll(): void {
    for (const uri of [...this.shown.keys()]) this.clear(uri);
  }

  /** True when the client shows diagnostics (possibly an empty list) for `uri`. */
  shows(uri: string): boolean {
    return this.shown.has(uri);
  }

  /** URIs with published diagnostics (possibly an empty list). */
  get publishedUris(): string[] {
    return [...this.shown.keys()];
  }
}
