/**
 * Schedules validation per document: each change replaces that document's
 * pending run (with no delay — the server's default — changes that arrived
 * together cost one validation), and a run whose document changed or closed
 * meanwhile learns it is superseded, stops, and does not publish.
 */

/** What a scheduled run needs to know about the document. */
export interface VersionedDocument {
  readonly uri: string;
  readonly version: number;
}

export class ValidationScheduler<D extends VersionedDocument> {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The newest scheduled version per open URI. */
  private readonly latest = new Map<string, number>();

  /**
   * @param delayMs quiet time after the last change before validating
   * @param run validates `doc`; `isCurrent()` says whether `doc` is still the newest version of an open document
   */
  constructor(
    private readonly delayMs: number,
    private readonly run: (doc: D, isCurrent: () => boolean) => void,
  ) {}

  /** Validates `doc` after the quiet time (or `delayMs`), replacing any earlier pending run for the same URI. */
  schedule(doc: D, delayMs = this.delayMs): void {
    const previous = this.timers.get(doc.uri);
    if (previous !== undefined) clearTimeout(previous);
    this.latest.set(doc.uri, doc.version);
    this.timers.set(
      doc.uri,
      setTimeout(() => {
        this.timers.delete(doc.uri);
        this.run(doc, () => this.latest.get(doc.uri) === doc.version);
      }, delayMs),
    );
  }

  /** Forgets a document (it closed): its pending run is dropped and a running one sees itself superseded. */
  cancel(uri: string): void {
    const timer = this.timers.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(uri);
    this.latest.delete(uri);
  }

  /** Cancels everything (server shutdown). */
  dispose(): void {
    for (const uri of [...this.latest.keys()]) this.cancel(uri);
  }
}
