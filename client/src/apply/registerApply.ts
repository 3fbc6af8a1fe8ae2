/**
 * VS Code glue for GitOps-style apply: saved YAML files in the workspace are
 * the desired state. Saving applies a file (setting `kubeReconcile.applyOnSave`),
 * deleting one prunes what it declared, files changed on disk outside the
 * editor (git checkout) are applied too, and two commands apply by hand.
 * Rejections appear as diagnostics (`kube-reconcile-apply`, source `sandbox`).
 */
import * as vscode from 'vscode';
import type { SandboxConnection } from '../sandbox/connection';
import { APPLY_DIAGNOSTIC_COLLECTION, APPLY_DIAGNOSTIC_SOURCE } from './applyDiagnostics';
import type { ApplyDiagnostic } from './applyDiagnostics';
import { FileApplier } from './fileApplier';
import type { FileApplyResult } from './fileApplier';
import {
  describeSkipped,
  EXCLUDE_GLOB,
  isYamlPath,
  MAX_FILE_BYTES,
  MAX_WORKSPACE_FILES,
  YAML_GLOB,
} from './workspaceFiles';

export const APPLY_FILE_COMMAND = 'kubeReconcile.applyFile';
export const APPLY_WORKSPACE_COMMAND = 'kubeReconcile.applyWorkspace';

export interface ApplyRegistration extends vscode.Disposable {
  /** Applies every YAML manifest of the workspace once (also run at registration). */
  applyWorkspace(): Promise<void>;
}

function toDiagnostic(d: ApplyDiagnostic): vscode.Diagnostic {
  const range = new vscode.Range(d.line, d.character ?? 0, d.line, d.endCharacter);
  const diag = new vscode.Diagnostic(
    range,
    d.message,
    d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  diag.source = APPLY_DIAGNOSTIC_SOURCE;
  if (d.code) diag.code = d.code;
  return diag;
}

function relativePath(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

function applyOnSave(): boolean {
  return vscode.workspace.getConfiguration('kubeReconcile').get<boolean>('applyOnSave', true);
}

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Wires save-to-apply, delete-to-prune and the apply commands, then applies
 * the workspace once. Call after the sandbox's `init` has answered.
 */
export function registerApply(context: vscode.ExtensionContext, connection: SandboxConnection): ApplyRegistration {
  const diagnostics = vscode.languages.createDiagnosticCollection(APPLY_DIAGNOSTIC_COLLECTION);
  const applier = new FileApplier(connection);

  const show = (uri: vscode.Uri, result: FileApplyResult) => diagnostics.set(uri, result.diagnostics.map(toDiagnostic));
  const applyText = async (uri: vscode.Uri, text: string): Promise<FileApplyResult | undefined> => {
    const file = relativePath(uri);
    if (!file || !isYamlPath(uri.path)) return undefined;
    const result = await applier.applyText(file, text);
    show(uri, result);
    return result;
  };
  const applyFromDisk = async (uri: vscode.Uri): Promise<'applied' | 'skipped' | number> => {
    const { size } = await vscode.workspace.fs.stat(uri);
    if (size > MAX_FILE_BYTES) return size;
    const result = await applyText(uri, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    return result ? 'applied' : 'skipped';
  };
  const report = (what: string) => (e: unknown) =>
    void vscode.window.showErrorMessage(`Kube Reconcile: ${what}: ${errorText(e)}`);

  const applyWorkspace = async (): Promise<void> => {
    const uris = await vscode.workspace.findFiles(YAML_GLOB, EXCLUDE_GLOB, MAX_WORKSPACE_FILES);
    uris.sort((a, b) => a.path.localeCompare(b.path));
    const skipped: string[] = [];
    for (const uri of uris) {
      try {
        const outcome = await applyFromDisk(uri);
        if (typeof outcome === 'number') skipped.push(describeSkipped(vscode.workspace.asRelativePath(uri), outcome));
      } catch (e) {
        report(`could not apply ${vscode.workspace.asRelativePath(uri)}`)(e);
      }
    }
    if (skipped.length > 0)
      void vscode.window.showWarningMessage(`Kube Reconcile: not applied, larger than 10 MiB: ${skipped.join(', ')}`);
    if (uris.length >= MAX_WORKSPACE_FILES)
      void vscode.window.showWarningMessage(
        `Kube Reconcile: only the first ${MAX_WORKSPACE_FILES} YAML files of the workspace were applied.`,
      );
  };

  const applyFileCommand = async (arg?: vscode.Uri): Promise<void> => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return void vscode.window.showInformationMessage('Kube Reconcile: open a YAML manifest to apply it.');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const result = doc ? await applyText(uri, doc.getText()) : await applyFromDisk(uri);
    if (result === undefined || result === 'skipped')
      return void vscode.window.showWarningMessage(
        'Kube Reconcile: only YAML files inside the workspace can be applied.',
      );
    if (typeof result === 'number')
      return void vscode.window.showWarningMessage(
        `Kube Reconcile: ${describeSkipped(vscode.workspace.asRelativePath(uri), result)} is larger than 10 MiB; not applied.`,
      );
    if (typeof result === 'object') {
      const lines = [...result.reply.outcomes.map((o) => o.message), ...result.reply.pruned.map((p) => `${p} pruned`)];
      void vscode.window.showInformationMessage(
        lines.length > 0 ? lines.join('; ') : 'Kube Reconcile: no Kubernetes manifests in this file.',
      );
    }
  };

  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const onDiskChange = (uri: vscode.Uri) => {
    if (isYamlPath(uri.path) && !isOpen(uri) && applyOnSave())
      applyFromDisk(uri).catch(report(`could not apply ${vscode.workspace.asRelativePath(uri)}`));
  };
  const onDelete = (uri: vscode.Uri) => {
    const file = relativePath(uri) ?? vscode.workspace.asRelativePath(uri);
    diagnostics.delete(uri);
    const done = isYamlPath(uri.path) ? applier.remove(file) : applier.removeFolder(file);
    done.catch(report(`could not prune what ${file} declared`));
  };

  const subscriptions: vscode.Disposable[] = [
    diagnostics,
    watcher,
    watcher.onDidCreate(onDiskChange),
    watcher.onDidChange(onDiskChange),
    watcher.onDidDelete(onDelete),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (applyOnSave())
        applyText(doc.uri, doc.getText()).catch(report(`could not apply ${vscode.workspace.asRelativePath(doc.uri)}`));
    }),
    vscode.commands.registerCommand(APPLY_FILE_COMMAND, (arg?: vscode.Uri) =>
      applyFileCommand(arg).catch(report('apply failed')),
    ),
    vscode.commands.registerCommand(APPLY_WORKSPACE_COMMAND, () => applyWorkspace().catch(report('apply failed'))),
  ];
  context.subscriptions.push(...subscriptions);
  void applyWorkspace().catch(report('could not apply the workspace'));
  return { applyWorkspace, dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
