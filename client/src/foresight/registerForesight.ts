/**
 * VS Code glue for foresight (issue 15): while the sandbox runs, each open YAML file of the desired state is planned
 * in the worker (`plan` request: its unsaved text applied to a fork of the running sandbox) a pause after the last
 * keystroke, and the plan shows as save-impact lenses above its workloads (lenses.ts), as diagnostics of their own
 * (source `kube-reconcile plan`, diagnostics.ts) with quick fixes, and, from a lens, as a read-only document
 * (`kube-reconcile-plan:` scheme: the plan's text form). A newer plan of a document supersedes an older one; a
 * document with a language-server error, or the sandbox stopped, shows none. `kubeReconcile.foresight.enabled`
 * turns it all off.
 */
import * as vscode from 'vscode';
import { DESIRED_STATE_KEYS, DesiredFiles } from '../apply/desiredFiles';
import { isYamlPath } from '../apply/workspaceFiles';
import { SECTION } from '../config';
import { LANGUAGE_SERVER_SOURCE } from '../model/applyDecision';
import type { DiagnosticsFreshness } from '../model/diagnosticsFreshness';
import type { SandboxConnection } from '../sandbox/connection';
import type { ForesightResult } from '../sandbox/protocol';
import { sourceOfUri } from '../workspaceUris';
import { FORESIGHT_SOURCE } from './diagnostics';
import type { ForesightDiagnostic, ForesightFix } from './diagnostics';
import { saveImpactLenses } from './lenses';
import { PlanTimers } from './planTimers';
import type { PlanReport } from '../../../sandbox/plan/types';

export const SHOW_PLAN_COMMAND = 'kubeReconcile.showPlan';
export const PLAN_SCHEME = 'kube-reconcile-plan';
export const FORESIGHT_ENABLED = 'foresight.enabled';
/** The pause after the last keystroke before a document is planned again. */
export const FORESIGHT_DELAY_MS = 400;
/**
 * A plan runs on the sandbox's thread: while the sandbox is still busy (a save's pods starting) it waits, looking again
 * this often, for at most `FORESIGHT_SETTLE_MAX_MS` — so it neither delays what the tree is about to show nor plans
 * against a state about to change.
 */
export const FORESIGHT_SETTLE_POLL_MS = 50;
export const FORESIGHT_SETTLE_MAX_MS = 2000;

interface Planned {
  version: number;
  report: PlanReport;
  text: string;
  diagnostics: ForesightDiagnostic[];
}

function enabled(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>(FORESIGHT_ENABLED, true);
}

function languageServerErrors(uri: vscode.Uri): boolean {
  return vscode.languages
    .getDiagnostics(uri)
    .some((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source === LANGUAGE_SERVER_SOURCE);
}

function planUriOf(uri: vscode.Uri): vscode.Uri {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  return vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/${name}.plan`, query: uri.toString() });
}

function toDiagnostic(d: ForesightDiagnostic, uri: vscode.Uri): vscode.Diagnostic {
  const range = new vscode.Range(d.line, d.character, d.line, d.endCharacter);
  const diagnostic = new vscode.Diagnostic(range, d.message, vscode.DiagnosticSeverity.Warning);
  diagnostic.source = FORESIGHT_SOURCE;
  diagnostic.code = d.code;
  if (d.related.length > 0)
    diagnostic.relatedInformation = d.related.map(
      (r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, range), r),
    );
  return diagnostic;
}

export function registerForesight(
  context: vscode.ExtensionContext,
  connection: SandboxConnection,
  freshness: DiagnosticsFreshness,
): vscode.Disposable {
  const diagnostics = vscode.languages.createDiagnosticCollection('kube-reconcile-plan');
  const selection = new DesiredFiles();
  const planned = new Map<string, Planned>();
  const timers = new PlanTimers();
  /** The newest request per document: a reply to an older one is dropped. */
  const latest = new Map<string, number>();
  let counter = 0;
  const lensesChanged = new vscode.EventEmitter<void>();
  const planChanged = new vscode.EventEmitter<vscode.Uri>();
  let wasRunning = connection.status?.running === true;

  const running = () => connection.status?.running === true;
  const applies = (doc: vscode.TextDocument) =>
    (doc.languageId === 'yaml' || isYamlPath(doc.uri.path)) && selection.includes(doc.uri);

  const forget = (key: string) => {
    timers.cancel(key);
    latest.delete(key);
    if (planned.delete(key)) lensesChanged.fire();
    diagnostics.delete(vscode.Uri.parse(key));
  };

  const show = (doc: vscode.TextDocument, result: ForesightResult, version: number) => {
    const key = doc.uri.toString();
    if (!('report' in result)) {
      if ('yamlErrors' in result) forget(key);
      return;
    }
    // Computed in the worker from its parse of this very text (the version was checked): nothing parsed here.
    const found = result.diagnostics;
    planned.set(key, { version, report: result.report, text: result.text, diagnostics: found });
    diagnostics.set(
      doc.uri,
      found.map((d) => toDiagnostic(d, doc.uri)),
    );
    lensesChanged.fire();
    planChanged.fire(planUriOf(doc.uri));
  };

  const plan = async (doc: vscode.TextDocument, waited = 0): Promise<void> => {
    const key = doc.uri.toString();
    const source = sourceOfUri(doc.uri);
    if (!enabled() || !running() || doc.isClosed || source === undefined || !applies(doc)) return forget(key);
    if (connection.settled === false && waited < FORESIGHT_SETTLE_MAX_MS) {
      timers.schedule(key, FORESIGHT_SETTLE_POLL_MS, () => void plan(doc, waited + FORESIGHT_SETTLE_POLL_MS));
      return;
    }
    const token = ++counter;
    latest.set(key, token);
    const version = doc.version;
    // The language server's verdict on this text first: a document with an error is not planned.
    await freshness.whenFresh(key);
    if (latest.get(key) !== token) return;
    if (languageServerErrors(doc.uri)) return forget(key);
    try {
      const result = await connection.request('plan', { uri: key, source, text: doc.getText() });
      if (latest.get(key) !== token || doc.isClosed || doc.version !== version) return;
      latest.delete(key);
      show(doc, result, version);
    } catch {
      // The sandbox stopped or restarted meanwhile: the next change or status plans again.
      if (latest.get(key) === token) forget(key);
    }
  };

  const schedule = (doc: vscode.TextDocument, delayMs = FORESIGHT_DELAY_MS) => {
    if (!applies(doc)) return;
    const key = doc.uri.toString();
    // Counts as the newest request at once: a reply to an earlier one is no longer shown.
    latest.set(key, ++counter);
    timers.schedule(key, delayMs, () => void plan(doc));
  };

  const planVisible = (delayMs = 0) => {
    for (const editor of vscode.window.visibleTextEditors) schedule(editor.document, delayMs);
  };

  const lensProvider: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensesChanged.event,
    provideCodeLenses(doc) {
      const p = planned.get(doc.uri.toString());
      if (!p || !enabled() || !running() || languageServerErrors(doc.uri)) return [];
      const last = Math.max(0, doc.lineCount - 1);
      return saveImpactLenses(p.report).map(
        (l) =>
          new vscode.CodeLens(new vscode.Range(Math.min(l.line, last), 0, Math.min(l.line, last), 0), {
            title: l.title,
            command: SHOW_PLAN_COMMAND,
            arguments: [doc.uri.toString()],
            tooltip: 'Show what saving this file would do (the plan, from a fork of the running sandbox)',
          }),
      );
    },
  };

  const fixesOf = (uri: vscode.Uri, d: vscode.Diagnostic): ForesightFix[] =>
    (planned.get(uri.toString())?.diagnostics ?? [])
      .filter((f) => f.message === d.message && f.line === d.range.start.line)
      .flatMap((f) => f.fixes ?? []);

  const actionProvider: vscode.CodeActionProvider = {
    provideCodeActions(doc, _range, ctx) {
      const actions: vscode.CodeAction[] = [];
      for (const d of ctx.diagnostics) {
        if (d.source !== FORESIGHT_SOURCE) continue;
        for (const [i, fix] of fixesOf(doc.uri, d).entries()) {
          const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
          action.edit = new vscode.WorkspaceEdit();
          action.edit.replace(
            doc.uri,
            new vscode.Range(fix.span.line, fix.span.character, fix.span.line, fix.span.endCharacter),
            fix.text,
          );
          action.diagnostics = [d];
          action.isPreferred = i === 0;
          actions.push(action);
        }
      }
      return actions;
    },
  };

  const planDocuments: vscode.TextDocumentContentProvider = {
    onDidChange: planChanged.event,
    provideTextDocumentContent(uri) {
      const p = planned.get(uri.query);
      return p ? p.text : 'No plan yet: the sandbox is not running, or the file has errors, or it is not planned.\n';
    },
  };

  const showPlan = async (arg?: unknown) => {
    const target = typeof arg === 'string' ? vscode.Uri.parse(arg) : vscode.window.activeTextEditor?.document.uri;
    if (!target) return;
    const doc = await vscode.workspace.openTextDocument(planUriOf(target));
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  };

  const yaml: vscode.DocumentSelector = [{ language: 'yaml' }, { pattern: '**/*.{yaml,yml}' }];
  const subscriptions: vscode.Disposable[] = [
    diagnostics,
    selection,
    lensesChanged,
    planChanged,
    vscode.languages.registerCodeLensProvider(yaml, lensProvider),
    vscode.languages.registerCodeActionsProvider(yaml, actionProvider, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, planDocuments),
    vscode.commands.registerCommand(SHOW_PLAN_COMMAND, showPlan),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) schedule(e.document);
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => forget(doc.uri.toString())),
    // A save holds its document's plan until it ends, so the plan does not take the worker from the save's apply.
    vscode.workspace.onWillSaveTextDocument((e) => timers.hold(e.document.uri.toString(), () => void plan(e.document))),
    vscode.workspace.onDidSaveTextDocument((doc) => timers.release(doc.uri.toString(), FORESIGHT_DELAY_MS)),
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      for (const e of editors) if (!planned.has(e.document.uri.toString())) schedule(e.document, 0);
    }),
    vscode.languages.onDidChangeDiagnostics((e) => {
      // A language-server error hides the lenses at once (provideCodeLenses checks); its fix plans again.
      if (e.uris.some((u) => planned.has(u.toString()))) lensesChanged.fire();
    }),
    // A save applied (or the desired state moved): the sandbox changed, so every visible plan is out of date.
    connection.onDidChangeDesired(() => planVisible(FORESIGHT_DELAY_MS)),
    connection.onDidStatus((status) => {
      if (status.running === wasRunning) return;
      wasRunning = status.running;
      if (status.running) planVisible();
      else for (const key of [...planned.keys()]) forget(key);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.${FORESIGHT_ENABLED}`)) {
        if (enabled()) planVisible();
        else for (const key of [...planned.keys()]) forget(key);
      } else if (DESIRED_STATE_KEYS.some((k) => e.affectsConfiguration(k))) planVisible();
    }),
  ];
  planVisible();
  const registration = vscode.Disposable.from(...subscriptions, {
    dispose: () => timers.dispose(),
  });
  context.subscriptions.push(registration);
  return registration;
}
