/**
 * Which cluster the views show — the sandbox or a context of the user's kubeconfig — and the connection the Cluster
 * view reads: a `SandboxConnection` whose cache is filled either from the sandbox worker's changes or from
 * `LiveInformers` (list + watch of a real cluster, read-only). The desired state (workspace manifests) is always the
 * sandbox host's, so sync status (Synced / OutOfSync / Missing) is computed the same way against a real cluster.
 * No `vscode` import: tested without VS Code.
 */
import type { LiveContext } from '../../../live/kubeconfig';
import type { LiveFeed, LiveFeedStatus } from '../../../live/informers';
import type { Disposable, OperationNotification, PodLogNotification, SandboxConnection } from '../sandbox/connection';
import type { DesiredIndex } from '../sandbox/desiredIndex';
import { Emitter } from '../sandbox/emitter';
import { MirrorCache } from '../sandbox/mirror';
import type { Method, Requests, SandboxStatus, SelfHealRevert, WatchChange } from '../sandbox/protocol';
import type { LogEntry } from '../../../sandbox/client/reconcileLog';

/** Sandbox-only actions: they act on the simulated cluster (hidden and refused while a real context is shown). */
export const SANDBOX_ONLY_COMMANDS: readonly string[] = [
  'kubeReconcile.killPod',
  'kubeReconcile.crashContainer',
  'kubeReconcile.scale',
  'kubeReconcile.restartRollout',
  'kubeReconcile.rollBack',
  'kubeReconcile.setLoad',
  'kubeReconcile.delete',
  'kubeReconcile.deleteSelected',
  'kubeReconcile.failNode',
  'kubeReconcile.recoverNode',
  'kubeReconcile.cordon',
  'kubeReconcile.uncordon',
  'kubeReconcile.drain',
  'kubeReconcile.sync',
  'kubeReconcile.revertLive',
  'kubeReconcile.pause',
  'kubeReconcile.resume',
  'kubeReconcile.step',
  'kubeReconcile.speed',
  'kubeReconcile.reset',
  'kubeReconcile.fastForward',
  'kubeReconcile.sandboxControls',
];

/**
 * Commands that read the sandbox and have no real-cluster version yet: refused rather than showing the sandbox's
 * object of the same name. (Show Events, Describe, Show Logs, Show Previous Logs, Copy as YAML and Show Desired vs
 * Actual run on the context shown: `liveInspect.ts`.)
 */
export const SANDBOX_READ_COMMANDS: readonly string[] = [
  'kubeReconcile.showClusterOverview',
  'kubeReconcile.updateManifestFromLive',
];

/** The read commands served on a real context, read-only (`liveInspect.ts`; Desired vs Actual's panel). */
export const LIVE_READ_COMMANDS: readonly string[] = [
  'kubeReconcile.showEvents',
  'kubeReconcile.describe',
  'kubeReconcile.showLogs',
  'kubeReconcile.showPreviousLogs',
  'kubeReconcile.copyAsYaml',
  'kubeReconcile.showDesiredVsActual',
];

/** The context key set while a real context is shown (package.json's menus hide sandbox actions with it). */
export const LIVE_CONTEXT_KEY = 'kubeReconcile.liveContext';

/** Why a command is refused while `context` is shown; undefined when it may run. */
export function refusal(command: string, context: string | undefined): string | undefined {
  if (context === undefined) return undefined;
  if (SANDBOX_ONLY_COMMANDS.includes(command))
    return `This acts on the sandbox, but the views show context "${context}" (a real cluster, read-only): nothing was done. Click the status bar's "$(cloud) ${context}" to switch back to the Sandbox.`;
  if (SANDBOX_READ_COMMANDS.includes(command))
    return `This is not available on a real cluster yet (the views show context "${context}"): switch back to the Sandbox to use it.`;
  return undefined;
}

export interface ContextPickItem {
  label: string;
  description: string;
  /** The context's name; undefined for the sandbox. */
  context?: string;
}

/** The Connect to Cluster… picker: the kubeconfig's current context first, the others by name, then the Sandbox. */
export function contextPickItems(
  contexts: readonly LiveContext[],
  current: string,
  shown: string | undefined,
): ContextPickItem[] {
  const sorted = [...contexts].sort((a, b) =>
    a.name === current ? -1 : b.name === current ? 1 : a.name.localeCompare(b.name),
  );
  const items = sorted.map(
    (c): ContextPickItem => ({
      label: `$(cloud) ${c.name}`,
      description: [
        c.name === current ? 'current context' : '',
        c.name === shown ? 'shown' : '',
        c.server,
        c.namespace ? `namespace ${c.namespace}` : '',
      ]
        .filter(Boolean)
        .join(' · '),
      context: c.name,
    }),
  );
  items.push({
    label: '$(beaker) Sandbox',
    description: shown === undefined ? 'shown · the simulated cluster' : 'the simulated cluster',
  });
  return items;
}

/** The status-bar item that says which cluster the views show (a click switches back to the sandbox). */
export function viewedLabel(
  context: string | undefined,
  feed?: LiveFeedStatus,
): { text: string; tooltip: string } | undefined {
  if (context === undefined) return undefined;
  const state =
    feed?.state === 'reconnecting'
      ? `reconnecting${feed.retryInMs !== undefined ? ` in ${Math.round(feed.retryInMs / 100) / 10} s` : ''}: ${feed.message ?? ''}`
      : feed?.state === 'connecting'
        ? 'listing…'
        : 'watching (read-only)';
  return {
    text: `$(cloud) ${context}${feed?.state === 'reconnecting' ? ' $(warning)' : ''}`,
    tooltip: `The views show context "${context}" of your kubeconfig: ${state}.\nClick to switch back to the Sandbox.`,
  };
}

/**
 * The connection the Cluster view reads. While the sandbox is shown it mirrors the sandbox host's changes; while a
 * real context is shown it is fed by `LiveInformers` (`feed`) and reports a status whose time is the wall clock.
 */
export class ViewedCluster implements SandboxConnection {
  readonly cache = new MirrorCache();
  private shown: string | undefined;
  private liveStatus: SandboxStatus | undefined;
  private feedStatus: LiveFeedStatus | undefined;
  private readonly changes = new Emitter<WatchChange[]>();
  private readonly settles = new Emitter<void>();
  private readonly statuses = new Emitter<SandboxStatus>();
  private readonly switched = new Emitter<string | undefined>();
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly sandbox: SandboxConnection,
    private readonly now: () => number,
  ) {
    this.subscriptions = [
      sandbox.onDidChange((changes) => {
        if (this.shown !== undefined) return;
        this.changes.fire(this.cache.apply({ kind: 'changes', changes }));
      }),
      sandbox.onDidStatus((s) => {
        if (this.shown === undefined) this.statuses.fire(s);
      }),
      ...(sandbox.onDidSettle
        ? [
            sandbox.onDidSettle(() => {
              if (this.shown === undefined) this.settles.fire();
            }),
          ]
        : []),
    ];
    this.showSandbox();
  }

  /** The context shown; undefined for the sandbox. */
  get context(): string | undefined {
    return this.shown;
  }

  get feed(): LiveFeedStatus | undefined {
    return this.shown === undefined ? undefined : this.feedStatus;
  }

  /** Shows a real context: the cache is emptied until `feed` sends its `list`. */
  showContext(context: string): void {
    this.shown = context;
    this.feedStatus = { state: 'connecting' };
    this.changes.fire(this.cache.apply({ kind: 'list', resourceVersion: '0', objects: [] }));
    this.refreshLiveStatus();
    this.switched.fire(context);
  }

  /** Shows the sandbox again: the cache is refilled from the sandbox host's. */
  showSandbox(): void {
    this.shown = undefined;
    this.liveStatus = undefined;
    this.feedStatus = undefined;
    const objects = this.sandbox.cache.all();
    this.changes.fire(this.cache.apply({ kind: 'list', resourceVersion: this.sandbox.cache.resourceVersion, objects }));
    if (this.sandbox.status) this.statuses.fire(this.sandbox.status);
    this.switched.fire(undefined);
  }

  /** A message of the informers of `context` (ignored when another cluster is shown by now). */
  feedFrom(context: string, feed: LiveFeed): void {
    if (this.shown !== context) return;
    this.changes.fire(this.cache.apply(feed));
    this.refreshLiveStatus();
  }

  /** The informers' state (connecting, synced, reconnecting with why). */
  feedStatusFrom(context: string, status: LiveFeedStatus): void {
    if (this.shown !== context) return;
    this.feedStatus = status;
    this.refreshLiveStatus();
  }

  private refreshLiveStatus(): void {
    this.liveStatus = {
      running: true,
      paused: false,
      speed: 1,
      time: this.now(),
      pods: this.cache.list('pods').length,
      nodes: this.cache.list('nodes').length,
    };
    this.statuses.fire(this.liveStatus);
  }

  get status(): SandboxStatus | undefined {
    return this.shown === undefined ? this.sandbox.status : this.liveStatus;
  }

  get desired(): DesiredIndex {
    return this.sandbox.desired;
  }

  /** Requests go to the sandbox; commands acting on it are refused first (`refusal`) while a context is shown. */
  request<M extends Method>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']> {
    return this.sandbox.request(method, params);
  }

  onDidChange(listener: (changes: WatchChange[]) => void): Disposable {
    return this.changes.on(listener);
  }

  /** Whether the sandbox's last batch was quiet, while it is shown; undefined for a real cluster (not told). */
  get settled(): boolean | undefined {
    return this.shown === undefined ? this.sandbox.settled : undefined;
  }

  onDidSettle(listener: () => void): Disposable {
    return this.settles.on(listener);
  }

  onDidStatus(listener: (status: SandboxStatus) => void): Disposable {
    return this.statuses.on(listener);
  }

  /** The cluster shown changed (the context's name, or undefined for the sandbox). */
  onDidSwitch(listener: (context: string | undefined) => void): Disposable {
    return this.switched.on(listener);
  }

  onDidLog(listener: (entries: LogEntry[]) => void): Disposable {
    return this.sandbox.onDidLog(listener);
  }

  onDidOperation(listener: (operation: OperationNotification) => void): Disposable {
    return this.sandbox.onDidOperation(listener);
  }

  onDidChangeDesired(listener: () => void): Disposable {
    return this.sandbox.onDidChangeDesired(listener);
  }

  onDidSelfHeal(listener: (reverts: SelfHealRevert[]) => void): Disposable {
    return this.sandbox.onDidSelfHeal(listener);
  }

  onDidPodLog(listener: (log: PodLogNotification) => void): Disposable {
    return this.sandbox.onDidPodLog(listener);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
