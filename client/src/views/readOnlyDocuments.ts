/**
 * Read-only text documents (events tables, describe, followed logs) under the
 * `kube-reconcile:` scheme: they open in an editor, cannot be edited, and never
 * ask to be saved.
 */
import { EventEmitter, Uri, workspace } from 'vscode';
import type { Disposable, TextDocumentContentProvider } from 'vscode';

export const READ_ONLY_SCHEME = 'kube-reconcile';

export class ReadOnlyDocuments implements TextDocumentContentProvider, Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new EventEmitter<Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = workspace.registerTextDocumentContentProvider(READ_ONLY_SCHEME, this);

  /** Sets the text behind `name` and returns its uri; an open editor on it is updated. */
  put(name: string, text: string): Uri {
    const uri = Uri.from({ scheme: READ_ONLY_SCHEME, path: `/${name.replace(/[\\/]/g, '∕')}` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  /** Most a streamed document keeps: the newest text (a followed log) beyond it drops its oldest lines. */
  static readonly MAX_CHARS = 2_000_000;

  /** Adds text at the end of an open document (a followed log); its editors update at most 10 times a second. */
  append(uri: Uri, text: string): void {
    const key = uri.toString();
    let next = (this.texts.get(key) ?? '') + text;
    if (next.length > ReadOnlyDocuments.MAX_CHARS) {
      const cut = next.indexOf('\n', next.length - ReadOnlyDocuments.MAX_CHARS / 2);
      next = next.slice(cut + 1);
    }
    this.texts.set(key, next);
    if (this.pending.has(key)) return;
    this.pending.add(key);
    setTimeout(() => {
      this.pending.delete(key);
      this.changed.fire(uri);
    }, 100);
  }

  private readonly pending = new Set<string>();

  provideTextDocumentContent(uri: Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
