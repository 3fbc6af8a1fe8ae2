/**
 * One webview panel speaking the protocol of ./protocol: it builds the page
 * with a strict CSP, waits for the page's `ready` before posting anything,
 * validates every message from the page before acting on it, and re-posts
 * the state when the sandbox changes something the view shows — coalesced, so
 * a burst of watch events becomes one post.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { SandboxConnection } from '../sandbox/connection';
import type { WatchChange } from '../sandbox/protocol';
import { makeNonce, renderHtml } from './html';
import { isWebviewMessage, type HostMessage, type ViewState, type WebviewMessage } from './protocol';

/** What a particular view contributes: its state, which changes concern it, and its answers to the page. */
export interface ViewSource {
  build(): Promise<ViewState>;
  isRelevant(changes: readonly WatchChange[]): boolean;
  /** Handles a validated message other than ready/refresh; may reply. */
  handle(message: WebviewMessage): Promise<HostMessage | undefined>;
}

/** Longest a change waits before the view is re-posted (the tree's ≤10 updates a second, too). */
const COALESCE_MS = 100;

export class StatePanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private ready = false;
  private timer: NodeJS.Timeout | undefined;
  private posting: Promise<void> | undefined;
  private dirty = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    context: vscode.ExtensionContext,
    connection: SandboxConnection,
    viewType: string,
    title: string,
    private readonly source: ViewSource,
    viewColumn: vscode.ViewColumn = vscode.ViewColumn.Beside,
  ) {
    const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(context.extensionUri, 'media');
    this.panel = vscode.window.createWebviewPanel(
      viewType,
      title,
      { viewColumn, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: [dist, media],
      },
    );
    const webview = this.panel.webview;
    const uri = (base: vscode.Uri, ...path: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(base, ...path)).toString();
    webview.html = renderHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      title,
      scriptUri: uri(dist, 'webview.js'),
      styleUris: [uri(dist, 'webview.css'), uri(media, 'webview', 'main.css')],
      editorWorkerUri: uri(dist, 'editor.worker.js'),
      yamlWorkerUri: uri(dist, 'yaml.worker.js'),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      connection.onDidChange((changes) => {
        if (this.source.isRelevant(changes)) this.schedule();
      }),
      // What the files declare changed: sync status and the desired side may be different now.
      connection.onDidChangeDesired(() => this.schedule()),
    );
  }

  onDidChangeViewState(listener: () => void): void {
    this.disposables.push(this.panel.onDidChangeViewState(listener));
  }

  onDidDispose(listener: () => void): void {
    this.disposables.push(this.panel.onDidDispose(listener));
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }

  private async receive(message: unknown): Promise<void> {
    if (!isWebviewMessage(message)) {
      console.warn(`Kube Reconcile: ignored an invalid webview message: ${JSON.stringify(message)?.slice(0, 200)}`);
      return;
    }
    if (message.type === 'ready' || message.type === 'refresh') {
      // A page re-created after being hidden says ready again: it gets the whole state again.
      this.ready = true;
      this.schedule(0);
      return;
    }
    try {
      const reply = await this.source.handle(message);
      if (reply) await this.panel.webview.postMessage(reply);
    } catch (e) {
      void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    }
  }

  private schedule(delay = COALESCE_MS): void {
    if (!this.ready) return;
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.post();
    }, delay);
  }

  /** One post at a time; changes during a post cause exactly one more. */
  private async post(): Promise<void> {
    if (this.posting) {
      this.dirty = true;
      return;
    }
    this.posting = (async () => {
      try {
        const state = await this.source.build();
        const message: HostMessage = { type: 'state', state };
        await this.panel.webview.postMessage(message);
      } catch (e) {
        console.warn(`Kube Reconcile: could not update the webview: ${e instanceof Error ? e.message : String(e)}`);
      }
    })();
    await this.posting;
    this.posting = undefined;
    if (this.dirty) {
      this.dirty = false;
      void this.post();
    }
  }
}
