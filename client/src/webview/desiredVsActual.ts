/**
 * The Desired vs Actual panel (one per object) and the Cluster overview panel
 * (one in all). The UI's commands call these; everything they show is built
 * by vscode-free modules (objectState, overviewState) from the sandbox connection.
 */
import * as vscode from 'vscode';
import type { SandboxConnection } from '../sandbox/connection';
import type { ObjectRef, Requests, WatchChange } from '../sandbox/protocol';
import { parseLiveEdit } from './editLive';
import { isEventFor } from './events';
import { syncStatusOf } from '../health/syncStatus';
import { kindOf, needsSchedulingExplanation, objectState, titleOf } from './objectState';
import { affectsOverview, overviewState } from './overviewState';
import { StatePanel, type ViewSource } from './panel';
import { stepSource, timelineView } from './timeline';
import type { HostMessage, WebviewMessage } from './protocol';
import { uriOfSource } from '../workspaceUris';

const objectPanels = new Map<string, StatePanel>();
let overviewPanel: StatePanel | undefined;
/**
 * The editor group the Desired vs Actual panels live in: the first opens beside the editor, the next ones join it as
 * tabs (each panel opened Beside its predecessor made a new, ever narrower split).
 */
let panelColumn: vscode.ViewColumn | undefined;

/**
 * A real context's object (Connect to Cluster…): the connection is the Cluster view's, fed by the informers; the
 * panel never writes (no live edit, no scheduler explanation from the sandbox), and says how it compared.
 */
export interface LiveViewSource {
  context: string;
  /** Lists and watches the object's events into the connection's cache while the panel is open; returns the stop. */
  watchEvents(ref: ObjectRef): () => void;
}

/**
 * How Desired vs Actual compares on a real context. Upstream `kubectl diff` asks the server for the merged object
 * with a server-side dry run (a PATCH with `dryRun=All`), which the API server authorizes as a write (`patch`): a
 * user with read access only gets 403 Forbidden. Kube Reconcile's read-only connection never sends a write, dry
 * runs included, so the comparison is client-side and says so.
 */
export const LIVE_COMPARISON_NOTE =
  'compared client-side: the manifest is defaulted with the sandbox’s Kubernetes 1.32 defaults, not by this ' +
  'server (a server-side dry run, as kubectl diff sends, is a write request and the connection is read-only); ' +
  'what this server’s admission adds (webhooks, LimitRange defaults) shows as drift. Apply to Cluster… shows ' +
  'the server’s own dry run before asking.';

const refKey = (ref: ObjectRef, live?: LiveViewSource) =>
  `${live ? `${live.context}:` : ''}${ref.resource}/${ref.namespace ?? ''}/${ref.name}`;

async function openManifest(desired: Requests['desired']['result']): Promise<void> {
  if (desired.file === undefined) {
    void vscode.window.showInformationMessage('This object was not created from a saved manifest.');
    return;
  }
  // The worker names the file relative to its workspace folder: joined onto the folder's URI, it opens in remote
  // workspaces too (a local absolute path would not).
  const uri = uriOfSource(desired.file);
  if (uri === undefined) throw new Error(`${desired.file} is not in an open workspace folder`);
  const position = new vscode.Position(desired.line ?? 0, 0);
  await vscode.window.showTextDocument(uri, {
    selection: new vscode.Range(position, position),
    viewColumn: vscode.ViewColumn.One,
  });
}

/** Opens a workspace file at a 1-based line, beside nothing: in the first column, as the manifest link does. */
async function openSourceLine(file: string, line: number): Promise<void> {
  const uri = uriOfSource(file);
  if (uri === undefined) throw new Error(`${file} is not in an open workspace folder`);
  const position = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(uri, {
    selection: new vscode.Range(position, position),
    viewColumn: vscode.ViewColumn.One,
  });
}

async function editLive(
  connection: SandboxConnection,
  ref: ObjectRef,
  m: Extract<WebviewMessage, { type: 'editLive' }>,
): Promise<HostMessage> {
  const kind = kindOf(ref, connection.cache.get(ref.resource, ref.namespace, ref.name));
  const parsed = parseLiveEdit(m.yaml, ref, kind);
  if (!parsed.ok) return { type: 'editResult', id: m.id, ok: false, message: parsed.message };
  try {
    const reply = await connection.request('action', { type: 'replaceLive', object: parsed.object });
    return { type: 'editResult', id: m.id, ok: true, message: reply.message };
  } catch (e) {
    return { type: 'editResult', id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

function objectSource(
  context: vscode.ExtensionContext,
  connection: SandboxConnection,
  ref: ObjectRef,
  liveSource?: LiveViewSource,
): ViewSource {
  let desired: Requests['desired']['result'] = {};
  /** The links of the timeline last posted, by step id: the page names a step, never a file. */
  let stepLinks = new Map<number, string>();
  const kind = () => kindOf(ref, connection.cache.get(ref.resource, ref.namespace, ref.name) ?? desired.manifest);
  return {
    async build() {
      desired = await connection.request('desired', ref).catch((): Requests['desired']['result'] => ({}));
      const live = connection.cache.get(ref.resource, ref.namespace, ref.name);
      const noExplanation: Requests['explain']['result'] = {};
      const explain =
        !liveSource && needsSchedulingExplanation(live) && ref.namespace
          ? await connection.request('explain', { namespace: ref.namespace, name: ref.name }).catch(() => noExplanation)
          : noExplanation;
      // Already workspace-relative, as the sandbox names files.
      const fileLabel = (file: string) => file.replace(/^\/+/, '');
      const declared = connection.desired.get(ref.resource, ref.namespace, ref.name);
      const sync = syncStatusOf(declared, live);
      const state = objectState({
        ref,
        cache: connection.cache,
        desired,
        fileLabel,
        scheduling: explain.explanation,
        ...(sync ? { sync } : {}),
        now: connection.status?.time ?? Date.now(),
      });
      if (liveSource) state.cluster = { context: liveSource.context, note: LIVE_COMPARISON_NOTE };
      else {
        // Re-read on every re-post: the panel coalesces changes (≤ 10 posts a second), which throttles it too.
        const subject = { kind: state.kind, namespace: ref.namespace, name: ref.name };
        const reply = await connection.request('timeline', subject).catch(() => undefined);
        state.timeline = timelineView(reply, subject, live);
        stepLinks = new Map(state.timeline.rows.flatMap((r) => (r.link ? [[r.id, r.link] as const] : [])));
      }
      return state;
    },
    isRelevant(changes: readonly WatchChange[]) {
      const k = kind();
      return changes.some(
        (c) =>
          (c.resource === ref.resource &&
            c.object.metadata.name === ref.name &&
            c.object.metadata.namespace === ref.namespace) ||
          (c.resource === 'events' && isEventFor(c.object, k, ref.namespace, ref.name)) ||
          // A pending pod's explanation changes when nodes come and go.
          (c.resource === 'nodes' && k === 'Pod'),
      );
    },
    async handle(m) {
      if (m.type === 'openManifest') await openManifest(desired);
      else if (m.type === 'editLive')
        return liveSource
          ? {
              type: 'editResult',
              id: m.id,
              ok: false,
              message: `Context "${liveSource.context}" is read-only: nothing was sent. Edit the manifest and use Apply to Cluster….`,
            }
          : editLive(connection, ref, m);
      else if (m.type === 'openObject') showDesiredVsActual(context, connection, m.ref, liveSource);
      else if (m.type === 'syncAction') await vscode.commands.executeCommand(`kubeReconcile.${m.action}`, ref);
      else if (m.type === 'openStep') {
        const source = stepSource(stepLinks.get(m.step) ?? '');
        if (source) await openSourceLine(source.file, source.line);
      }
      return undefined;
    },
  };
}

/**
 * Opens the Desired vs Actual panel for `ref` (titled `Desired vs Actual: deployment/web`),
 * or reveals it when one is already open for that object.
 */
export function showDesiredVsActual(
  context: vscode.ExtensionContext,
  connection: SandboxConnection,
  ref: ObjectRef,
  live?: LiveViewSource,
): void {
  const key = refKey(ref, live);
  const open = objectPanels.get(key);
  if (open) return open.reveal();
  const title = `Desired vs Actual: ${titleOf(ref, kindOf(ref, connection.cache.get(ref.resource, ref.namespace, ref.name)))}${live ? ` (${live.context})` : ''}`;
  const open_ = [...objectPanels.values()].find((p) => p.panel.viewColumn !== undefined);
  const column = open_?.panel.viewColumn ?? panelColumn;
  const panel = new StatePanel(
    context,
    connection,
    'kubeReconcile.desiredVsActual',
    title,
    objectSource(context, connection, ref, live),
    column ?? vscode.ViewColumn.Beside,
  );
  const stopEvents = live?.watchEvents(ref);
  objectPanels.set(key, panel);
  panelColumn = panel.panel.viewColumn;
  panel.onDidChangeViewState(() => {
    if (panel.panel.viewColumn !== undefined) panelColumn = panel.panel.viewColumn;
  });
  panel.onDidDispose(() => {
    stopEvents?.();
    objectPanels.delete(key);
    if (objectPanels.size === 0) panelColumn = undefined;
    panel.dispose();
  });
  context.subscriptions.push(panel);
}

/** Opens (or reveals) the Cluster overview: every declared object with its health. */
export function showClusterOverview(context: vscode.ExtensionContext, connection: SandboxConnection): void {
  if (overviewPanel) return overviewPanel.reveal();
  const source: ViewSource = {
    build: async () => overviewState(connection.cache),
    isRelevant: (changes) => changes.some((c) => affectsOverview(c.resource)),
    async handle(m) {
      if (m.type === 'openObject') showDesiredVsActual(context, connection, m.ref);
      return undefined;
    },
  };
  const panel = new StatePanel(context, connection, 'kubeReconcile.clusterOverview', 'Cluster Overview', source);
  overviewPanel = panel;
  panel.onDidDispose(() => {
    overviewPanel = undefined;
    panel.dispose();
  });
  context.subscriptions.push(panel);
}
