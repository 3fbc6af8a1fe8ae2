/**
 * VS Code glue for GitOps-style apply: saved YAML files of the desired state
 * (`kubeReconcile.desiredState.*`) are what the sandbox should run. A save
 * applies its file when the user asked for it (`kubeReconcile.applyOn`: not an
 * auto-save, by default) and the language server reports no error in it;
 * deleting a file prunes what it declared (or hands it to another file that
 * declares it too); files changed on disk outside the editor (git checkout)
 * are applied; two commands apply by hand, and at start-up the workspace is
 * applied as `kubeReconcile.applyOnStartup` says. Every outcome is said in
 * the status bar; rejections appear as diagnostics (`kube-reconcile-apply`,
 * source `sandbox`). Files are named relative to their workspace folder and
 * found again through the folder's URI, so remote workspaces work.
 */
import * as vscode from 'vscode';
import { decideSave, decideStartup, LANGUAGE_SERVER_SOURCE, startupAnswer } from '../model/applyDecision';
import { STARTUP_APPLY, STARTUP_QUESTION, STARTUP_SKIP } from '../model/applyDecision';
import type { SaveKind, StartupAnswer } from '../model/applyDecision';
import type { DiagnosticsFreshness } from '../model/diagnosticsFreshness';
import type { Settings } from '../model/settings';
import type { SandboxConnection } from '../sandbox/connection';
import type { ApplyReply, ApplyTrigger } from '../sandbox/protocol';
import { saveTraceFrom } from '../sandbox/saveTrace';
import { sourceOfUri, uriOfSource } from '../workspaceUris';
import { APPLY_DIAGNOSTIC_COLLECTION, APPLY_DIAGNOSTIC_SOURCE } from './applyDiagnostics';
import type { ApplyDiagnostic } from './applyDiagnostics';
import { DESIRED_STATE_KEYS, DesiredFiles } from './desiredFiles';
import { ApplyFeedback } from './feedback';
import { FileApplier } from './fileApplier';
import type { FileApplyResult } from './fileApplier';
import { manifestsForApply } from './manifestsForApply';
import { registerOwnershipDiagnostics } from './ownershipDiagnostics';
import { describeSkipped, isYamlPath, MAX_FILE_BYTES, MAX_WORKSPACE_FILES } from './workspaceFiles';

export const APPLY_FILE_COMMAND = 'kubeReconcile.applyFile';
export const APPLY_WORKSPACE_COMMAND = 'kubeReconcile.applyWorkspace';

/** Where the answer to the start-up question is remembered (workspace state). */
const STARTUP_ANSWER_KEY = 'kubeReconcile.applyOnStartup.answer';
const REMOVE_ACTION = 'Remove from Sandbox';
/** bench/extension's trace of a save's stages (off unless KUBE_RECONCILE_TRACE names a file). */
const trace = saveTraceFrom('host');

export interface ApplyDeps {
  /** Whether the language server's diagnostics describe a document's current text. */
  freshness: DiagnosticsFreshness;
  settings(): Settings;
}

export interface ApplyRegistration extends vscode.Disposable {
  /** Applies every YAML manifest of the desired state once. */
  applyWorkspace(): Promise<void>;
  /** Applies one workspace file as saved on disk ("Sync"); its result is in the status bar. */
  applySource(source: string, trigger: ApplyTrigger): Promise<ApplyReply | undefined>;
  /** At start-up: applies the workspace, asks first, or not, as `kubeReconcile.applyOnStartup` says. */
  startup(): Promise<void>;
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

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function saveKind(reason: vscode.TextDocumentSaveReason | undefined): SaveKind {
  if (reason === vscode.TextDocumentSaveReason.AfterDelay) return 'afterDelay';
  if (reason === vscode.TextDocumentSaveReason.FocusOut) return 'focusOut';
  return 'explicit';
}

/** Errors the language server reports for `uri` now. */
function languageServerErrors(uri: vscode.Uri): number {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source === LANGUAGE_SERVER_SOURCE).length;
}

/**
 * Wires save-to-apply, delete-to-prune, the apply commands and the ownership warnings. Call after the sandbox's `init`
 * has answered, then `startup()`.
 */
export function registerApply(
  context: vscode.ExtensionContext,
  connection: SandboxConnection,
  deps: ApplyDeps,
): ApplyRegistration {
  const diagnostics = vscode.languages.createDiagnosticCollection(APPLY_DIAGNOSTIC_COLLECTION);
  const applier = new FileApplier(connection);
  const selection = new DesiredFiles();
  const feedback = new ApplyFeedback(connection);
  /** Why each document is being saved, from onWillSave to onDidSave. */
  const saveReasons = new Map<string, vscode.TextDocumentSaveReason>();

  const applyText = async (
    uri: vscode.Uri,
    source: string,
    text: string,
    trigger: ApplyTrigger,
  ): Promise<FileApplyResult> => {
    const result = await applier.applyText(source, text, trigger);
    diagnostics.set(uri, result.diagnostics.map(toDiagnostic));
    return result;
  };
  const applyFromDisk = async (uri: vscode.Uri, trigger: ApplyTrigger): Promise<FileApplyResult | number> => {
    const source = sourceOfUri(uri);
    if (source === undefined) throw new Error(`${uri.toString(true)} is not in an open workspace folder`);
    const { size } = await vscode.workspace.fs.stat(uri);
    if (size > MAX_FILE_BYTES) return size;
    return applyText(uri, source, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), trigger);
  };
  const report = (what: string) => (e: unknown) =>
    void vscode.window.showErrorMessage(`Kube Reconcile: ${what}: ${errorText(e)}`);
  /** The file declares objects in the sandbox now (so an apply of it can prune them). */
  const declares = (source: string) =>
    applier.files.has(source) ||
    connection.desired.all().some((o) => o.source === source || o.shadowed.some((s) => s.source === source));

  const applyWorkspace = async (): Promise<void> => {
    const { uris, capped } = await selection.list();
    const skipped: string[] = [];
    const replies: ApplyReply[] = [];
    for (const uri of uris) {
      try {
        const outcome = await applyFromDisk(uri, 'workspace');
        if (typeof outcome === 'number') skipped.push(describeSkipped(vscode.workspace.asRelativePath(uri), outcome));
        else if (outcome.reply.outcomes.length > 0 || outcome.reply.pruned.length > 0) replies.push(outcome.reply);
      } catch (e) {
        report(`could not apply ${vscode.workspace.asRelativePath(uri)}`)(e);
      }
    }
    feedback.workspaceApplied(replies);
    if (skipped.length > 0)
      void vscode.window.showWarningMessage(`Kube Reconcile: not applied, larger than 10 MiB: ${skipped.join(', ')}`);
    if (capped)
      void vscode.window.showWarningMessage(
        `Kube Reconcile: only the first ${MAX_WORKSPACE_FILES} YAML files of the workspace were applied.`,
      );
  };

  const applySource = async (source: string, trigger: ApplyTrigger): Promise<ApplyReply | undefined> => {
    const uri = uriOfSource(source);
    if (!uri) throw new Error(`${source} is not in an open workspace folder`);
    const result = await applyFromDisk(uri, trigger);
    if (typeof result === 'number') throw new Error(`${describeSkipped(source, result)} is larger than 10 MiB`);
    feedback.applied(source, result.reply);
    return result.reply;
  };

  /** Apply File: the file as the editor has it (or as saved), whatever the save rules say; the API server decides. */
  const applyFileCommand = async (arg?: vscode.Uri): Promise<void> => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return void vscode.window.showInformationMessage('Kube Reconcile: open a YAML manifest to apply it.');
    const source = sourceOfUri(uri);
    if (!source || !isYamlPath(uri.path))
      return void vscode.window.showWarningMessage(
        'Kube Reconcile: only YAML files inside the workspace can be applied.',
      );
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const result = doc ? await applyText(uri, source, doc.getText(), 'command') : await applyFromDisk(uri, 'command');
    if (typeof result === 'number')
      return void vscode.window.showWarningMessage(
        `Kube Reconcile: ${describeSkipped(source, result)} is larger than 10 MiB; not applied.`,
      );
    feedback.applied(source, result.reply);
    const lines = [
      ...result.reply.outcomes.map((o) => o.message),
      ...result.reply.pruned.map((p) => `${p} pruned`),
      ...(result.reply.reapplied ?? []).map((r) => `${r} re-applied`),
    ];
    void vscode.window.showInformationMessage(
      lines.length > 0 ? lines.join('; ') : 'Kube Reconcile: no Kubernetes manifests in this file.',
    );
  };

  const onSave = async (doc: vscode.TextDocument): Promise<void> => {
    const key = doc.uri.toString();
    const reason = saveReasons.get(key);
    saveReasons.delete(key);
    const source = sourceOfUri(doc.uri);
    if (!source || !isYamlPath(doc.uri.path)) return;
    trace.mark('save', { source });
    const text = doc.getText();
    const parsed = manifestsForApply(text);
    trace.mark('parsed', { documents: parsed.manifests.length });
    const facts = {
      kind: saveKind(reason),
      applyOn: deps.settings().applyOn,
      inDesiredState: selection.includes(doc.uri),
      errors: 0,
      relevant: parsed.manifests.length > 0 || declares(source),
    };
    let decision = decideSave(source, facts);
    if (decision.apply) {
      // The language server validates a moment after the last keystroke: its verdict on the saved text first.
      const waited = !deps.freshness.isFresh(key);
      await deps.freshness.whenFresh(key);
      decision = decideSave(source, { ...facts, errors: languageServerErrors(doc.uri) });
      trace.mark('verdict', { waited });
    }
    if (!decision.apply) {
      feedback.notApplied(source, decision, () => {
        applyText(doc.uri, source, text, 'command')
          .then((r) => feedback.applied(source, r.reply))
          .catch(report(`could not apply ${source}`));
      });
      return;
    }
    const result = await applier.applyText(source, text, 'save', parsed);
    trace.mark('reply');
    diagnostics.set(doc.uri, result.diagnostics.map(toDiagnostic));
    feedback.applied(source, result.reply);
  };

  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const onDiskChange = (uri: vscode.Uri) => {
    if (!isYamlPath(uri.path) || isOpen(uri) || deps.settings().applyOn === 'never' || !selection.includes(uri)) return;
    applyFromDisk(uri, 'disk')
      .then((r) => {
        if (typeof r !== 'number' && (r.reply.outcomes.length > 0 || r.reply.pruned.length > 0))
          feedback.applied(sourceOfUri(uri) ?? uri.path, r.reply);
      })
      .catch(report(`could not apply ${vscode.workspace.asRelativePath(uri)}`));
  };
  const onDelete = (uri: vscode.Uri) => {
    diagnostics.delete(uri);
    const file = sourceOfUri(uri);
    if (file === undefined || deps.settings().applyOn === 'never') return;
    const done = isYamlPath(uri.path)
      ? applier.remove(file).then((r) => feedback.removed(file, 'deleted', r))
      : applier.removeFolder(file);
    done.catch(report(`could not prune what ${file} declared`));
  };

  /** The selection changed: files applied before that it leaves out are offered for removal. */
  const onSelectionChanged = async () => {
    const applied = new Set([
      ...applier.files,
      ...connection.desired.all().flatMap((o) => [o.source, ...o.shadowed.map((s) => s.source)]),
    ]);
    const outside = [...applied].filter((s) => {
      const uri = uriOfSource(s);
      return uri !== undefined && !selection.includes(uri);
    });
    if (outside.length === 0) return;
    const one = outside.length === 1;
    const named = `${outside.slice(0, 3).join(', ')}${outside.length > 3 ? ', …' : ''}`;
    const choice = await vscode.window.showInformationMessage(
      `Kube Reconcile: ${outside.length} applied file${one ? ' is' : 's are'} no longer in kubeReconcile.desiredState (${named}). Remove what ${one ? 'it declares' : 'they declare'} from the sandbox?`,
      REMOVE_ACTION,
    );
    if (choice !== REMOVE_ACTION) return;
    for (const s of outside) feedback.removed(s, 'removed from the desired state', await applier.remove(s));
  };

  const startup = async (): Promise<void> => {
    const remembered = context.workspaceState.get<StartupAnswer>(STARTUP_ANSWER_KEY);
    const action = decideStartup(deps.settings().applyOnStartup, remembered);
    if (action === 'apply') return applyWorkspace();
    if (action === 'skip') return;
    // Nothing to ask about in a workspace without a file of the desired state.
    if ((await selection.list()).uris.length === 0) return;
    const answer = startupAnswer(
      await vscode.window.showInformationMessage(STARTUP_QUESTION, STARTUP_APPLY, STARTUP_SKIP),
    );
    if (answer === undefined) return;
    await context.workspaceState.update(STARTUP_ANSWER_KEY, answer);
    if (answer === 'always') await applyWorkspace();
  };

  const subscriptions: vscode.Disposable[] = [
    diagnostics,
    selection,
    watcher,
    registerOwnershipDiagnostics(connection),
    watcher.onDidCreate(onDiskChange),
    watcher.onDidChange(onDiskChange),
    watcher.onDidDelete(onDelete),
    vscode.workspace.onWillSaveTextDocument((e) => {
      trace.mark('willSave');
      saveReasons.set(e.document.uri.toString(), e.reason);
    }),
    vscode.workspace.onDidSaveTextDocument((doc) =>
      onSave(doc).catch(report(`could not apply ${vscode.workspace.asRelativePath(doc.uri)}`)),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (DESIRED_STATE_KEYS.some((k) => e.affectsConfiguration(k)))
        onSelectionChanged().catch(report('could not update the desired state'));
    }),
    vscode.commands.registerCommand(APPLY_FILE_COMMAND, (arg?: vscode.Uri) =>
      applyFileCommand(arg).catch(report('apply failed')),
    ),
    vscode.commands.registerCommand(APPLY_WORKSPACE_COMMAND, () => applyWorkspace().catch(report('apply failed'))),
  ];
  context.subscriptions.push(...subscriptions);
  return { applyWorkspace, applySource, startup, dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
