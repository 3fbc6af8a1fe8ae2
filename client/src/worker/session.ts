/**
 * One running sandbox inside the worker: a Cluster on a switchable clock
 * (real time at a speed, with pause, step and fast-forward), the GitOps sync
 * loop, and the feed of changes and log lines to the host.
 */
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { SeededRandom } from '../../../sandbox/clock/random';
import { SwitchableClock } from '../../../sandbox/clock/switchableClock';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { runUntilSettled } from '../../../sandbox/cluster/settle';
import { gitOpsFor } from '../../../sandbox/gitops/forCluster';
import type { GitOpsSync, Revert } from '../../../sandbox/gitops/gitOpsSync';
import type { LogEntry } from '../../../sandbox/client/reconcileLog';
import { describeUnsettled } from '../../../sandbox/cluster/describe';
import { lastHeartbeat } from '../../../sandbox/controllers/nodelifecycle/health';
import { DEFAULT_NODE_MONITOR_GRACE_MS } from '../../../sandbox/controllers/nodelifecycle/nodeLifecycleController';
import type {
  ControlAction,
  DesiredObject,
  FailedNode,
  FastForwardReport,
  Notification,
  SandboxSettings,
  SandboxStatus,
  SelfHealRevert,
} from '../sandbox/protocol';
import { Batcher } from './batcher';
import { deploymentsIn, saveTraceFrom } from '../sandbox/saveTrace';
import type { HostTimers } from './batcher';
import { ChangeFeed } from './changeFeed';
import { Operations } from './operations';
import { restoreState, savedTime } from './savedState';
import { recordRevert } from './timeline';
import type { SourceTexts } from './timeline';
import type { RestoredState } from './savedState';
import { DEFAULT_KUBERNETES_VERSION, setKubernetesVersion } from '../../../sandbox/schema/schema';

export interface SessionOptions {
  settings: SandboxSettings;
  snapshot?: unknown;
  /** Wall-clock time (ms since epoch) a fresh sandbox's clock starts at. */
  now: number;
  send: (n: Notification) => void;
  timers?: HostTimers;
  /** The files' texts as last applied: a self-heal revert on the timeline links to the reverted field's line. */
  sourceTexts?: SourceTexts;
}

/** bench/extension's trace (off unless KUBE_RECONCILE_TRACE names a file). */
const trace = saveTraceFrom('worker');

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class SandboxSession {
  readonly clock: SwitchableClock;
  readonly cluster: Cluster;
  readonly gitops: GitOpsSync;
  /** Drains and other kubectl operations still running on the sandbox's clock. */
  readonly operations: Operations;
  /** Sandbox clock time the timeline began recording: nothing earlier is on it. */
  readonly timelineSince: number;
  /** Why a snapshot given to init was not used, if it was not. */
  readonly warning: string | undefined;
  private readonly batcher: Batcher;
  private readonly feed: ChangeFeed;
  private readonly unsubscribeLog: () => void;
  /** The desired state's revision last sent to the host. */
  private sentDesired = -1;

  constructor(private readonly options: SessionOptions) {
    const { settings } = options;
    // One release per worker: the schema, /version and the nodes' kubeletVersion follow it.
    setKubernetesVersion(settings.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION);
    const onWatchError = (e: unknown) =>
      this.cluster.log.append({
        time: this.clock.now(),
        component: 'sandbox',
        level: 'Warning',
        reason: 'InternalError',
        object: '',
        message: `a watch handler failed: ${errorText(e)}`,
      });
    let restored: RestoredState | undefined;
    this.clock = new SwitchableClock({ start: savedTime(options.snapshot) ?? options.now, speed: settings.speed });
    if (options.snapshot !== undefined) {
      try {
        restored = restoreState(options.snapshot, { clock: this.clock, seed: settings.seed, onWatchError });
      } catch (e) {
        this.warning = `The saved sandbox could not be restored, so a fresh one was started: ${errorText(e)}`;
        this.clock = new SwitchableClock({ start: options.now, speed: settings.speed });
      }
    }
    const api =
      restored?.api ??
      new ApiServer({ clock: this.clock, random: new SeededRandom(settings.seed).fork('apiserver'), onWatchError });
    // Nodes Fail Node had stopped stay stopped (those the node count still has: node-1 … node-N).
    const failedNodes = (restored?.failedNodes ?? []).filter((n) => {
      const index = /^node-([1-9]\d*)$/.exec(n)?.[1];
      return index !== undefined && Number(index) <= settings.nodes;
    });
    // The causal timeline is recorded from the start (its cost: bench/RESULTS.md, "The causal timeline's cost").
    this.cluster = new Cluster({
      clock: this.clock,
      seed: settings.seed,
      nodes: settings.nodes,
      api,
      timeline: settings.timeline !== false,
      ...(failedNodes.length > 0 ? { failedNodes } : {}),
    });
    this.timelineSince = this.clock.now();
    this.gitops = gitOpsFor(this.cluster, { selfHeal: settings.selfHeal, onRevert: (r) => this.reverted(r) });
    const send = !trace.enabled
      ? options.send
      : (n: Notification) => {
          if (n.kind === 'changes')
            trace.mark('flush', {
              count: n.changes.length,
              quiet: n.quiet === true,
              deployments: deploymentsIn(n.changes),
            });
          options.send(n);
        };
    // How long the sandbox stays idle: the batch that ends a burst goes at once, marked quiet.
    this.batcher = new Batcher(send, undefined, options.timers, () => this.clock.hostMsUntilNextWork());
    this.operations = new Operations((n) => {
      // Pending changes first, so the views have seen what an operation's line talks about.
      this.batcher.flush();
      options.send(n);
    });
    this.unsubscribeLog = this.cluster.log.subscribe((e) => this.batcher.log(e));
    this.feed = new ChangeFeed(
      api,
      (c) => {
        if (trace.enabled && c.resource === 'deployments')
          trace.mark('watch', { deployments: deploymentsIn([c]), sandboxTime: this.clock.now() });
        this.batcher.change(c);
      },
      () => this.sendList(),
    );
    this.cluster.start();
    this.gitops.start();
    if (restored) this.gitops.loadDesiredState(restored.desired);
  }

  /**
   * Sends the whole state as one `list` (pending changes before it are sent first; the list supersedes them), then the
   * desired state.
   */
  sendList(): void {
    this.batcher.flush();
    this.options.send(this.feed.list());
    this.sentDesired = -1;
    this.sendDesired();
  }

  /** Sends the desired state when it changed since it was last sent (after the pending changes, so they agree). */
  sendDesired(): void {
    const revision = this.gitops.desiredRevision;
    if (revision === this.sentDesired) return;
    this.sentDesired = revision;
    this.batcher.flush();
    const objects: DesiredObject[] = this.gitops.declaredObjects().map(({ key: _key, ...o }) => o);
    this.options.send({ kind: 'desired', objects });
  }

  /** A line of the reconciliation log for something the user did (component `user`). */
  recordUser(level: LogEntry['level'], reason: string, object: string, message: string): void {
    this.cluster.log.append({ time: this.clock.now(), component: 'user', level, reason, object, message });
  }

  private reverted(r: Revert): void {
    // On the timeline, the revert is an apply: the root of what the controllers do next.
    recordRevert(this.cluster, r, this.options.sourceTexts);
    const t = r.tracked;
    const revert: SelfHealRevert = {
      ref: t.namespace
        ? { resource: t.resource, namespace: t.namespace, name: t.name }
        : { resource: t.resource, name: t.name },
      kind: t.manifest.kind,
      source: t.source,
      line: t.line,
      changes: r.changes.map((c) => ({ path: c.path, segments: c.segments, live: c.live, desired: c.desired })),
      recreated: r.recreated,
    };
    // The changes it made first, so that the views show what the notification talks about.
    this.batcher.flush();
    this.options.send({ kind: 'selfHeal', reverts: [revert] });
  }

  status(): SandboxStatus {
    const api = this.cluster.api;
    const refusedDrains = this.operations.refusedDrains(api);
    return {
      running: true,
      paused: this.clock.isPaused,
      speed: this.clock.speed,
      time: this.clock.now(),
      pods: api.list('pods').items.length,
      nodes: api.list('nodes').items.length,
      ...(this.operations.status().length > 0 ? { operations: this.operations.status() } : {}),
      ...(this.failedNodes().length > 0 ? { failedNodes: this.failedNodes() } : {}),
      ...(refusedDrains.length > 0 ? { refusedDrains } : {}),
    };
  }

  /**
   * Nodes whose kubelet is stopped, each with the moment the node lifecycle controller will find its heartbeat too old
   * (its last heartbeat, from the node status or its Lease, plus the node monitor grace period: upstream
   * pkg/controller/nodelifecycle: tryUpdateNodeHealth).
   */
  failedNodes(): FailedNode[] {
    const api = this.cluster.api;
    return this.cluster.nodeNames
      .filter((name) => !this.cluster.isKubeletRunning(name))
      .map((name) => {
        const node = api.tryGet('nodes', undefined, name);
        const lease = api.tryGet('leases', 'kube-node-lease', name);
        const heard = node ? lastHeartbeat(node, lease) : this.clock.now();
        return { name, notReadyAt: heard + DEFAULT_NODE_MONITOR_GRACE_MS };
      });
  }

  /**
   * Pause, resume, step, speed and fast-forward (reset replaces the session: see the dispatcher). Fast-forward returns
   * what it did: settled or not, and what has not converged when not.
   */
  control(action: Exclude<ControlAction, { type: 'reset' }>): FastForwardReport | undefined {
    switch (action.type) {
      case 'pause':
        this.clock.pause();
        return undefined;
      case 'resume':
        this.clock.resume();
        return undefined;
      case 'speed':
        this.clock.setSpeed(action.speed);
        return undefined;
      case 'step':
        if (!Number.isFinite(action.ms) || action.ms < 0)
          throw new RangeError(`step must be a non-negative number of ms, got ${action.ms}`);
        this.clock.step(action.ms);
        return undefined;
      case 'fastForward': {
        if (!Number.isFinite(action.limitMs) || action.limitMs < 0)
          throw new RangeError(`fast-forward limit must be a non-negative number of ms, got ${action.limitMs}`);
        const report = this.clock.jump((virtual) => runUntilSettled(virtual, action.limitMs));
        this.cluster.log.append({
          time: this.clock.now(),
          component: 'sandbox',
          level: 'Normal',
          reason: report.settled ? 'FastForwarded' : 'FastForwardLimit',
          object: '',
          message: `${report.settled ? 'settled after' : 'still busy after'} ${Math.round(report.elapsedMs / 1000)}s of cluster time`,
        });
        const pending = report.settled ? [] : describeUnsettled(this.cluster.api, this.clock.now());
        for (const o of this.operations.status()) if (!report.settled) pending.push(`${o.title}: ${o.detail}`);
        return { settled: report.settled, elapsedMs: report.elapsedMs, pending };
      }
    }
  }

  dispose(): void {
    this.operations.dispose();
    this.feed.stop();
    this.unsubscribeLog();
    this.gitops.stop();
    this.cluster.stop();
    this.clock.dispose();
    this.batcher.flush();
  }
}
