/**
 * Whether the language server's diagnostics of an open document describe its
 * current text: it validates a quiet moment after the last keystroke, so a
 * save right after typing may come before them. The host marks a document
 * changed on each edit and fresh on each publication; a save that must know
 * its errors waits (bounded) for fresh ones. Documents the server never
 * published for (not validated: another language, excluded) never wait.
 * No `vscode`: uris are strings, and timers are injected.
 */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Longest a save waits for the language server (it validates on each change, at once). */
export const FRESH_DIAGNOSTICS_TIMEOUT_MS = 2000;

export class DiagnosticsFreshness {
  /** Documents the server published diagnostics for. */
  private readonly validated = new Set<string>();
  /** Validated documents edited since their last publication. */
  private readonly stale = new Set<string>();
  private readonly waiters = new Map<string, Set<(fresh: boolean) => void>>();

  constructor(private readonly timers: Timers = realTimers) {}

  /** The document's text changed. */
  changed(uri: string): void {
    if (this.validated.has(uri)) this.stale.add(uri);
  }

  /** The language server published diagnostics for the document (after they were stored). */
  published(uri: string): void {
    this.validated.add(uri);
    this.stale.delete(uri);
    this.settle(uri, true);
  }

  /** The document closed: nothing to wait for. */
  closed(uri: string): void {
    this.validated.delete(uri);
    this.stale.delete(uri);
    this.settle(uri, true);
  }

  /** True when the diagnostics known for `uri` are those of its current text (or it is not validated at all). */
  isFresh(uri: string): boolean {
    return !this.stale.has(uri);
  }

  /** Resolves true once the diagnostics are fresh (at once when they are), false after `timeoutMs`. */
  whenFresh(uri: string, timeoutMs = FRESH_DIAGNOSTICS_TIMEOUT_MS): Promise<boolean> {
    if (this.isFresh(uri)) return Promise.resolve(true);
    return new Promise((resolve) => {
      let waiters = this.waiters.get(uri);
      if (!waiters) this.waiters.set(uri, (waiters = new Set()));
      const done = (fresh: boolean) => {
        this.timers.clearTimeout(timer);
        waiters.delete(done);
        resolve(fresh);
      };
      const timer = this.timers.setTimeout(() => done(false), timeoutMs);
      waiters.add(done);
    });
  }

  private settle(uri: string, fresh: boolean): void {
    const waiters = this.waiters.get(uri);
    this.waiters.delete(uri);
    for (const w of [...(waiters ?? [])]) w(fresh);
  }
}
