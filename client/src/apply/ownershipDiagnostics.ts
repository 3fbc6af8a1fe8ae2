/**
 * A warning on each document of an object two files declare (which one is in
 * the cluster, and what happens when either lets go: model/ownership.ts),
 * kept in step with the desired state the worker sends.
 */
import * as vscode from 'vscode';
import { ownershipWarnings } from '../model/ownership';
import type { SandboxConnection } from '../sandbox/connection';
import { uriOfSource } from '../workspaceUris';
import { APPLY_DIAGNOSTIC_SOURCE } from './applyDiagnostics';

export const OWNERSHIP_DIAGNOSTIC_COLLECTION = 'kube-reconcile-ownership';
/** The code of the warning, after Argo CD's SharedResourceWarning. */
export const SHARED_RESOURCE_CODE = 'SharedResource';

export function registerOwnershipDiagnostics(connection: SandboxConnection): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection(OWNERSHIP_DIAGNOSTIC_COLLECTION);
  const update = () => {
    const bySource = new Map<string, vscode.Diagnostic[]>();
    for (const w of ownershipWarnings(connection.desired.all())) {
      const d = new vscode.Diagnostic(
        new vscode.Range(w.line, 0, w.line, 1000),
        w.message,
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = APPLY_DIAGNOSTIC_SOURCE;
      d.code = SHARED_RESOURCE_CODE;
      bySource.set(w.source, [...(bySource.get(w.source) ?? []), d]);
    }
    collection.clear();
    for (const [source, diagnostics] of bySource) {
      const uri = uriOfSource(source);
      if (uri) collection.set(uri, diagnostics);
    }
  };
  update();
  const subscription = connection.onDidChangeDesired(update);
  return { dispose: () => (subscription.dispose(), collection.dispose()) };
}
