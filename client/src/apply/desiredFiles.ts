/**
 * VS Code glue for the desired-state selection: which workspace files
 * `kubeReconcile.desiredState.include` / `.exclude` select, per workspace
 * folder (the rules are in model/desiredSelection.ts), and the list of them.
 */
import * as vscode from 'vscode';
import { SECTION } from '../config';
import { desiredFilter, readDesiredSelection } from '../model/desiredSelection';
import type { DesiredFilter } from '../model/desiredSelection';
import { EXCLUDE_GLOB, MAX_WORKSPACE_FILES, YAML_GLOB } from './workspaceFiles';

export const DESIRED_STATE_KEYS = ['desiredState.include', 'desiredState.exclude'].map((k) => `${SECTION}.${k}`);

export class DesiredFiles implements vscode.Disposable {
  private readonly filters = new Map<string, DesiredFilter>();
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (DESIRED_STATE_KEYS.some((k) => e.affectsConfiguration(k))) this.filters.clear();
  });

  /** True when `uri` is a file of a workspace folder that the folder's selection includes. */
  includes(uri: vscode.Uri): boolean {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || folder.uri.scheme !== uri.scheme) return false;
    const base = folder.uri.path.replace(/\/+$/, '');
    if (!uri.path.startsWith(`${base}/`)) return false;
    return this.filterOf(folder)(uri.path.slice(base.length + 1));
  }

  /** The selected YAML files of every folder (at most MAX_WORKSPACE_FILES), sorted; `capped` when there were more. */
  async list(): Promise<{ uris: vscode.Uri[]; capped: boolean }> {
    const found = await vscode.workspace.findFiles(YAML_GLOB, EXCLUDE_GLOB, MAX_WORKSPACE_FILES);
    const uris = found.filter((u) => this.includes(u)).sort((a, b) => a.path.localeCompare(b.path));
    return { uris, capped: found.length >= MAX_WORKSPACE_FILES };
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private filterOf(folder: vscode.WorkspaceFolder): DesiredFilter {
    const key = folder.uri.toString();
    let filter = this.filters.get(key);
    if (!filter) {
      const cfg = vscode.workspace.getConfiguration(SECTION, folder.uri);
      filter = desiredFilter(readDesiredSelection(cfg.get('desiredState.include'), cfg.get('desiredState.exclude')));
      this.filters.set(key, filter);
    }
    return filter;
  }
}
