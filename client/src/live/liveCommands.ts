/**
 * Connect to Cluster… and Apply to Cluster…, written against the `Ui` interface and injected kubeconfig/connection
 * functions (no `vscode` import), so that tests drive them with a fake Ui against `kube-reconcile serve`.
 * The informers run in the extension host: they only wait on sockets and hand batches (≤ 10 a second) to the
 * Cluster view, so they never block it, and the sandbox worker's loop never sees them.
 */
import { applyToCluster, isProtectedContext, previewApply } from '../../../live/apply';
import type { ApplyPreview } from '../../../live/apply';
import { LiveConnection } from '../../../live/connection';
import type { LiveWatch } from '../../../live/connection';
import { LiveInformers } from '../../../live/informers';
import { loadKubeconfig } from '../../../live/kubeconfig';
import { planAgainstLive } from '../../../live/planText';
import type { LivePlanner } from '../../../live/planText';
import type { KubeconfigLocation, LoadedKubeconfig } from '../../../live/kubeconfig';
import { resourceByName } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { errorMessage } from '../commands/context';
import type { Command } from '../commands/context';
import type { Ui } from '../commands/ui';
import { refText } from '../model/objectRef';
import type { ObjectRef } from '../sandbox/protocol';
import { copyLiveYaml, describeLive, listEventsOf, showLiveEvents, showLiveLogs, watchEventsOf } from './liveInspect';
import type { InspectDeps } from './liveInspect';
import { contextPickItems } from './viewedCluster';
import type { ViewedCluster } from './viewedCluster';

export interface LiveDeps {
  ui: Ui;
  viewed: ViewedCluster;
  /** Where the kubeconfig is (default: KUBECONFIG, else ~/.kube/config). */
  kubeconfig?: () => KubeconfigLocation;
  /** `kubeReconcile.protectedContexts`. */
  protectedContexts: () => string;
  /** One line per request (method, path, status, time — never a credential): the output channel. */
  log?: (line: string) => void;
  /** Timers for the informers (tests). */
  batchMs?: number;
  /** The namespaces chosen per context (VS Code's global state; a Map in tests). Absent: never asked. */
  namespaces?: NamespaceMemory;
}

/** The namespaces last chosen for each context ([] or absent: all namespaces). */
export interface NamespaceMemory {
  get(context: string): readonly string[] | undefined;
  set(context: string, namespaces: readonly string[]): PromiseLike<void> | void;
}

/** The picker's first item: every namespace (the informers watch cluster-wide). */
export const ALL_NAMESPACES_LABEL = '$(globe) All namespaces';

/** The informers of the context shown, and stopping them. */
export class LiveSession {
  private informers: LiveInformers | undefined;
  private conn: LiveConnection | undefined;
  private loaded: LoadedKubeconfig | undefined;

  constructor(private readonly deps: LiveDeps) {}

  /** The connection the Cluster view reads: its requests go to the sandbox worker (Plan Against Cluster's plan). */
  get viewed(): ViewedCluster {
    return this.deps.viewed;
  }

  /** The kubeconfig read by the last connect (what Apply uses). */
  get kubeconfig(): LoadedKubeconfig | undefined {
    return this.loaded;
  }

  /** The read-only connection of the context shown (undefined while the sandbox is shown). */
  get connection(): LiveConnection | undefined {
    return this.conn;
  }

  /** What the read commands on a real context (liveInspect.ts) need. */
  inspectDeps(): InspectDeps {
    return { ui: this.deps.ui, viewed: this.deps.viewed, connection: () => this.conn, now: () => Date.now() };
  }

  /**
   * The real-cluster version of a read command (`LIVE_READ_COMMANDS`) on the context shown; `target` finds the object
   * a command was invoked on (as the sandbox's commands do), `showDesiredVsActual` opens the panel on the Cluster
   * view's connection. Undefined for any other command.
   */
  readCommand(
    id: string,
    target: (title: string, arg: unknown) => ObjectRef | undefined,
    showDesiredVsActual: (ref: ObjectRef) => void,
  ): Command | undefined {
    const on =
      (title: string, run: (ref: ObjectRef) => Promise<void> | void): Command =>
      async (arg) => {
        const ref = target(title, arg);
        if (ref) await run(ref);
      };
    const deps = this.inspectDeps();
    switch (id) {
      case 'kubeReconcile.showEvents':
        return on('Show Events', (ref) => showLiveEvents(deps, ref));
      case 'kubeReconcile.describe':
        return on('Describe', (ref) => describeLive(deps, ref));
      case 'kubeReconcile.showLogs':
        return on('Show Logs', (ref) => showLiveLogs(deps, ref, false));
      case 'kubeReconcile.showPreviousLogs':
        return on('Show Previous Logs', (ref) => showLiveLogs(deps, ref, true));
      case 'kubeReconcile.copyAsYaml':
        return on('Copy as YAML', (ref) => copyLiveYaml(deps, ref));
      case 'kubeReconcile.showDesiredVsActual':
        return on('Show Desired vs Actual', showDesiredVsActual);
      default:
        return undefined;
    }
  }

  /**
   * Lists the events about `ref` into the Cluster view's cache, then watches them there (resumed when the server
   * ends the watch) until the returned function is called: Desired vs Actual's events on a real context.
   */
  watchEvents(ref: ObjectRef): () => void {
    const { viewed } = this.deps;
    const conn = this.conn;
    const context = viewed.context;
    if (!conn || context === undefined) return () => undefined;
    const obj: KubeObject = viewed.cache.get(ref.resource, ref.namespace, ref.name) ?? {
      apiVersion: 'v1',
      kind: resourceByName(ref.resource)?.kind ?? ref.resource,
      metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
    };
    let stopped = false;
    let watch: LiveWatch | undefined;
    const start = (): void => {
      if (stopped) return;
      listEventsOf(conn, obj).then(
        ({ events, resourceVersion }) => {
          if (stopped) return;
          if (events.length > 0)
            viewed.feedFrom(context, {
              kind: 'changes',
              changes: events.map((object) => ({ type: 'ADDED' as const, resource: 'events', object })),
            });
          watch = watchEventsOf(
            conn,
            obj,
            resourceVersion,
            (type, object) =>
              viewed.feedFrom(context, { kind: 'changes', changes: [{ type, resource: 'events', object }] }),
            (message) => {
              if (message === undefined) start();
              else this.deps.log?.(`events of ${refText(ref)}: ${message}`);
            },
          );
        },
        (e: unknown) => this.deps.log?.(`events of ${refText(ref)}: ${errorMessage(e)}`),
      );
    };
    start();
    return () => {
      stopped = true;
      watch?.stop();
    };
  }

  /**
   * After a context is picked: which namespaces the informers watch — all, or some, chosen from the live namespace
   * list (multi-select, the last choice for this context selected). Undefined when cancelled; [] for all.
   * Without the right to list namespaces the context's own namespace is watched (all when it names none).
   */
  async chooseNamespaces(loaded: LoadedKubeconfig, context: string): Promise<string[] | undefined> {
    const memory = this.deps.namespaces;
    if (!memory) return [];
    let names: string[];
    let conn: LiveConnection | undefined;
    try {
      conn = await LiveConnection.open(loaded, { context, ...(this.deps.log ? { log: this.deps.log } : {}) });
      names = (await conn.list('/api/v1/namespaces')).items.map((n) => n.metadata.name ?? '').filter(Boolean);
    } catch (e) {
      this.deps.log?.(`namespaces of context "${context}": ${errorMessage(e)}`);
      const own = loaded.contexts.find((c) => c.name === context)?.namespace;
      return own ? [own] : [];
    } finally {
      conn?.close();
    }
    const remembered = new Set(memory.get(context) ?? []);
    const items = [
      {
        label: ALL_NAMESPACES_LABEL,
        description: 'watch every namespace',
        value: '',
        picked: remembered.size === 0,
      },
      ...names.sort().map((n) => ({ label: n, value: n, picked: remembered.has(n) })),
    ];
    const chosen = await this.deps.ui.pickMany(
      items,
      `Watch which namespaces of "${context}"? (large clusters: choose some; nodes and namespaces are always shown)`,
    );
    if (chosen === undefined) return undefined;
    const namespaces = chosen.includes('') ? [] : chosen;
    await memory.set(context, namespaces);
    return namespaces;
  }
  /** "Kube Reconcile: Connect to Cluster…": picks a context (or the Sandbox) and shows it. */
  async connect(): Promise<void> {
    const { ui, viewed } = this.deps;
    let loaded: LoadedKubeconfig;
    try {
      loaded = await loadKubeconfig(this.deps.kubeconfig?.() ?? {});
    } catch (e) {
      ui.error(`Kube Reconcile cannot read your kubeconfig: ${errorMessage(e)}`);
      return;
    }
    const items = contextPickItems(loaded.contexts, loaded.currentContext, viewed.context).map((i) => ({
      label: i.label,
      description: i.description,
      value: i.context ?? '',
    }));
    const picked = await ui.pick(items, 'Show which cluster in the Kube Reconcile views? (read-only)');
    if (picked === undefined) return;
    if (picked === '') return this.showSandbox();
    const namespaces = await this.chooseNamespaces(loaded, picked);
    if (namespaces === undefined) return;
    await this.show(loaded, picked, namespaces);
  }

  /**
   * Shows `context` of `loaded` (watching only `namespaces` when some are given); on failure says why in kubectl's
   * words and shows the sandbox again.
   */
  async show(loaded: LoadedKubeconfig, context: string, namespaces: readonly string[] = []): Promise<boolean> {
    const { ui, viewed } = this.deps;
    this.stop();
    this.loaded = loaded;
    let conn: LiveConnection;
    try {
      conn = await LiveConnection.open(loaded, { context, ...(this.deps.log ? { log: this.deps.log } : {}) });
    } catch (e) {
      ui.error(`Kube Reconcile cannot connect to context "${context}": ${errorMessage(e)}`);
      viewed.showSandbox();
      return false;
    }
    const informers = new LiveInformers(
      conn,
      (feed) => viewed.feedFrom(context, feed),
      (status) => viewed.feedStatusFrom(context, status),
      {
        ...(this.deps.batchMs !== undefined ? { batchMs: this.deps.batchMs } : {}),
        ...(namespaces.length > 0 ? { namespaces } : {}),
      },
    );
    this.conn = conn;
    this.informers = informers;
    viewed.showContext(context);
    const scope = namespaces.length > 0 ? ` (namespaces ${namespaces.join(', ')})` : '';
    const progress = ui.progress(`Listing context "${context}"${scope}…`);
    try {
      await informers.start();
      return true;
    } catch (e) {
      if (this.informers === informers) {
        this.stop();
        viewed.showSandbox();
      }
      ui.error(`Kube Reconcile cannot show context "${context}": ${errorMessage(e)}`);
      return false;
    } finally {
      progress.done();
    }
  }

  /** Stops watching the real cluster and shows the sandbox. */
  showSandbox(): void {
    this.stop();
    this.deps.viewed.showSandbox();
  }

  stop(): void {
    this.informers?.stop();
    this.conn?.close();
    this.informers = undefined;
    this.conn = undefined;
  }

  /**
   * "Kube Reconcile: Apply to Cluster…" for the manifests of `text` (the active editor), on the context shown:
   * a server-side dry run, the diff shown, a confirmation (the context's name typed for a protected context), then
   * server-side apply with field manager `kube-reconcile`. Never runs on save. Returns kubectl's lines when applied.
   */
  async apply(text: string, source: string): Promise<string[] | undefined> {
    const { ui, viewed } = this.deps;
    const context = viewed.context;
    if (context === undefined || !this.loaded) {
      ui.error('Apply to Cluster needs a real cluster: run "Kube Reconcile: Connect to Cluster…" first.');
      return undefined;
    }
    const manifests = manifestsOf(ui, text, source, 'sent', 'apply');
    if (!manifests) return undefined;
    const objects: KubeObject[] = manifests.map((m) => m.object);
    let conn: LiveConnection | undefined;
    try {
      conn = await LiveConnection.open(this.loaded, {
        context,
        writes: true,
        ...(this.deps.log ? { log: this.deps.log } : {}),
      });
      const previews = await previewApply(conn, objects);
      await ui.showText(`Apply ${source} to ${context} (dry run).diff`, previewText(context, previews));
      if (previews.every((p) => p.action === 'unchanged')) {
        ui.info(`Context "${context}" already matches ${source}: nothing to apply.`);
        return undefined;
      }
      const pattern = this.deps.protectedContexts();
      let typedContext: string | undefined;
      if (isProtectedContext(context, pattern)) {
        typedContext = await ui.input({
          title: `Apply to protected context "${context}"`,
          prompt: `Context "${context}" matches kubeReconcile.protectedContexts: type its name to apply ${source}`,
          value: '',
          validate: (t) => (t === context ? undefined : `Type "${context}" exactly to apply`),
        });
        if (typedContext !== context) return undefined;
      } else if (
        !(await ui.confirm(`Apply ${source} to context "${context}"?`, summary(previews), 'Apply (server-side)'))
      )
        return undefined;
      const lines = await applyToCluster(conn, objects, {
        protectedContexts: pattern,
        ...(typedContext !== undefined ? { typedContext } : {}),
      });
      ui.info(lines.join('\n'));
      return lines;
    } catch (e) {
      ui.error(`Apply to context "${context}" failed: ${errorMessage(e)}`);
      return undefined;
    } finally {
      conn?.close();
    }
  }
}

/**
 * "Kube Reconcile: Plan Against Cluster…" for the manifests of `text` (the active editor): `plan --kubeconfig`'s
 * engine on the context shown — a snapshot of its live state (GET only, on the read-only connection, in the extension
 * host) loaded into a sandbox fork, the change applied there — opened as a read-only document. Nothing is written to
 * the cluster. The fork runs in the sandbox worker (`planLive`, client/src/worker/livePlan.ts), so the extension
 * host's bundle carries no control plane; bench/live.ts times the snapshot. Returns the plan's text.
 */
export async function planAgainstCluster(
  session: LiveSession,
  ui: Ui,
  context: string | undefined,
  text: string,
  source: string,
): Promise<string | undefined> {
  const conn = session.connection;
  if (context === undefined || !conn) {
    ui.error('Plan Against Cluster needs a real cluster: run "Kube Reconcile: Connect to Cluster…" first.');
    return undefined;
  }
  const manifests = manifestsOf(ui, text, source, 'planned', 'plan');
  if (!manifests) return undefined;
  const progress = ui.progress(`Planning ${source} against context "${context}"…`);
  try {
    // The worker parses `text` again (a parsed manifest's field lines do not cross threads); the host checked it above.
    const planner: LivePlanner = async (live) =>
      (await session.viewed.request('planLive', { source, text, snapshot: live.snapshot, nodes: live.nodes })).text;
    const plan = await planAgainstLive(conn, planner, { time: Date.now() });
    const header = `# kube-reconcile plan --context ${context} ${source} (nothing was written to the cluster)\n`;
    await ui.showText(`Plan ${source} against ${context}`, header + plan);
    return plan;
  } catch (e) {
    ui.error(`Plan against context "${context}" failed: ${errorMessage(e)}`);
    return undefined;
  } finally {
    progress.done();
  }
}

/**
 * The manifests of an editor's `text`, or undefined once the user has been told why nothing was `done` (`sent`,
 * `planned`): a YAML error (its line and message) or no manifest to `verb`.
 */
function manifestsOf(
  ui: Ui,
  text: string,
  source: string,
  done: string,
  verb: string,
): ReturnType<typeof manifestObjects>['manifests'] | undefined {
  const { manifests, errors } = manifestObjects(text);
  if (errors.length > 0) {
    ui.error(`${source} has errors (line ${errors[0]!.line + 1}: ${errors[0]!.message}): nothing was ${done}.`);
    return undefined;
  }
  if (manifests.length === 0) {
    ui.error(`${source} has no manifest to ${verb}.`);
    return undefined;
  }
  return manifests;
}

function summary(previews: readonly ApplyPreview[]): string {
  return previews.map((p) => `${p.ref}${p.namespace ? ` (${p.namespace})` : ''}: ${p.action}`).join('\n');
}

/** The dry run as a document: what the server answered for each object, then `kubectl diff`'s diff. */
export function previewText(context: string, previews: readonly ApplyPreview[]): string {
  const head = `# Server-side dry run on context "${context}" (nothing was stored):\n${summary(previews)
    .split('\n')
    .map((l) => `#   ${l}`)
    .join('\n')}\n`;
  return [head, ...previews.filter((p) => p.diff !== '').map((p) => p.diff)].join('\n');
}
