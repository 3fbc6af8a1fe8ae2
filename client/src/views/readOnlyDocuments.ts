/**
 * Read-only text documents (events tables) under the `kube-reconcile:`
 * scheme: they open in an editor, cannot be edited, and never ask to be saved.
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

  provideTextDocumentContent(uri: Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
