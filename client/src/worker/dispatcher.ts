/**
 * The worker's side of the protocol: every message from the host gets
 * exactly one reply — a result, or an error carrying the API server's Status
 * when there is one. Nothing a message contains can throw out of `handle`.
 */
import { isApiError } from '../../../sandbox/api/errors';
import { isPlainObject } from '../../../sandbox/util/json';
import type {
  ApiSettings,
  ApplyTrigger,
  ControlAction,
  FastForwardReport,
  FaultAction,
  Method,
  ReplyMessage,
  Requests,
  SandboxSettings,
  SandboxStatus,
  WorkerMessage,
} from '../sandbox/protocol';
import { runAction } from './actions';
import { ApiServing } from './apiServing';
import type { ApiServingDeps } from './apiServing';
import type { HostTimers } from './batcher';
import { applyCounts } from '../model/applySummary';
import { desiredFor } from './desired';
import { Foresight, planText } from './foresight';
import { planLive } from './livePlan';
import { describeChanges } from '../../../sandbox/gitops/drift';
import { LogStreams, podLogRequestOf } from './logStreams';
import { BadRequest, apiSettingsOf, manifestsOf, objectRefOf, record, settingsOf, text } from './params';
import { saveState } from './savedState';
import { SandboxSession } from './session';
import { saveTraceFrom } from '../sandbox/saveTrace';
import { SourceTexts, applyRecorded, recordRevert, recordSyncAll, timelineObjectOf, timelineOf } from './timeline';

export const STATUS_INTERVAL_MS = 1000;
/** bench/extension's trace (off unless KUBE_RECONCILE_TRACE names a file). */
const trace = saveTraceFrom('worker');

/** How the reconciliation log names what made the host apply a file. */
const TRIGGER_TEXT: Record<ApplyTrigger, string> = {
  save: 'saved',
  command: 'Apply File',
  disk: 'changed on disk',
  workspace: 'Apply Workspace',
  sync: 'Sync',
};

function triggerOf(value: unknown): ApplyTrigger {
  return typeof value === 'string' && Object.hasOwn(TRIGGER_TEXT, value) ? (value as ApplyTrigger) : 'command';
}

function refName(ref: { namespace?: string; name: string }): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

export interface DispatcherDeps {
  /** Wall-clock time for a fresh sandbox's clock. */
  now: () => number;
  timers?: HostTimers;
  /** The HTTP API's server and file system (tests replace them). */
  api?: Partial<ApiServingDeps>;
}

/** A handler answers at once, or later (setApi waits for the server to listen). */
type Handlers = { [M in Method]: (params: unknown) => Requests[M]['result'] | Promise<Requests[M]['result']> };

function errorOf(e: unknown): NonNullable<ReplyMessage['error']> {
  if (isApiError(e)) return { message: e.message, status: e.status };
  return { message: e instanceof Error ? e.message : String(e) };
}

export class Dispatcher {
  private session: SandboxSession | undefined;
  private settings: SandboxSettings | undefined;
  private readonly statusTimer: ReturnType<typeof setInterval>;
  private readonly handlers: Handlers;
  private readonly api: ApiServing;
  private readonly logStreams: LogStreams;
  private readonly foresight = new Foresight();
  /** The files' texts as last applied, kept across Reset Sandbox (the timeline's links to changed fields). */
  private readonly sourceTexts = new SourceTexts();

  constructor(
    private readonly post: (m: WorkerMessage) => void,
    private readonly deps: DispatcherDeps = { now: () => Date.now() },
  ) {
    this.statusTimer = setInterval(() => this.sendStatus(), STATUS_INTERVAL_MS);
    this.statusTimer.unref?.();
    this.handlers = this.makeHandlers();
    this.api = new ApiServing(() => this.sendStatus(), deps.api);
    this.logStreams = new LogStreams((n) => this.post({ kind: 'notification', notification: n }));
  }

  /** Handles one raw message from the host. */
  handle(raw: unknown): void {
    const id = isPlainObject(raw) && typeof raw.id === 'number' ? raw.id : -1;
    try {
      if (!isPlainObject(raw) || raw.kind !== 'request' || !Number.isInteger(raw.id))
        throw new BadRequest('malformed message: expected {kind: "request", id, method, params}');
      const method = raw.method;
      if (typeof method !== 'string' || !Object.hasOwn(this.handlers, method))
        throw new BadRequest(`unknown method ${JSON.stringify(method)}`);
      const result = this.handlers[method as Method](raw.params ?? {});
      if (result instanceof Promise) {
        result.then(
          (r: unknown) => this.post({ kind: 'reply', id, result: r as ReplyMessage['result'] }),
          (e: unknown) => this.post({ kind: 'reply', id, error: errorOf(e) }),
        );
      } else this.post({ kind: 'reply', id, result });
    } catch (e) {
      this.post({ kind: 'reply', id, error: errorOf(e) });
    }
  }

  dispose(): void {
    clearInterval(this.statusTimer);
    this.logStreams.dispose('the sandbox stopped');
    this.session?.dispose();
    this.session = undefined;
    void this.api.dispose();
  }

  private makeHandlers(): Handlers {
    return {
      init: (p) => this.init(record(p, 'params')),
      applyFile: (p) => {
        const params = record(p, 'params');
        const prune = params.prune === undefined ? true : params.prune === true;
        const file = text(params.file, 'file');
        const s = this.live();
        if (trace.enabled) trace.mark('apply', { file, sandboxTime: s.clock.now() });
        const manifests = manifestsOf(params.manifests);
        if (params.text !== undefined && typeof params.text !== 'string') throw new BadRequest('text must be a string');
        this.sourceTexts.set(file, params.text);
        const result = applyRecorded(
          s.cluster,
          file,
          manifests,
          () => s.gitops.setSource(file, manifests, { prune }),
          this.sourceTexts,
        );
        const trigger = triggerOf(params.trigger);
        const rejected = result.outcomes.some((o) => !o.ok);
        const changed =
          rejected ||
          result.pruned.length > 0 ||
          !!result.reapplied ||
          result.outcomes.some((o) => o.action !== 'unchanged');
        // A save or a command is the user's act, always recorded; a workspace scan only when it changed something.
        if (trigger === 'save' || trigger === 'command' || trigger === 'sync' || changed)
          s.recordUser(
            rejected ? 'Warning' : 'Normal',
            'Apply',
            file,
            `${TRIGGER_TEXT[trigger]}: ${applyCounts(result)}`,
          );
        s.sendDesired();
        if (trace.enabled) trace.mark('applied', { file, sandboxTime: s.clock.now() });
        return result;
      },
      removeFile: (p) => {
        const file = text(record(p, 'params').file, 'file');
        const s = this.live();
        this.sourceTexts.delete(file);
        const result = s.gitops.removeSource(file);
        if (result.pruned.length > 0 || result.reapplied?.length)
          s.recordUser('Normal', 'Prune', file, `file deleted: ${applyCounts(result)}`);
        s.sendDesired();
        return result;
      },
      revert: (p) => {
        const s = this.live();
        const ref = objectRefOf(p);
        const result = s.gitops.revert(ref.resource, ref.namespace, ref.name);
        // On the timeline, an apply of the declaration: the root of what the controllers do next, as a save.
        recordRevert(s.cluster, result, this.sourceTexts, 'revert');
        const what = result.changes.length > 0 ? describeChanges(result.changes) : 'nothing to put back';
        s.recordUser(
          'Normal',
          'Revert',
          refName(ref),
          `Revert Live to Manifest (${result.message}): ${what} from ${result.source}`,
        );
        return {
          message: result.message,
          source: result.source,
          changes: result.changes.map((c) => ({
            path: c.path,
            segments: c.segments,
            live: c.live,
            desired: c.desired,
          })),
        };
      },
      record: (p) => {
        const params = record(p, 'params');
        const level = params.level === 'Warning' ? 'Warning' : 'Normal';
        this.live().recordUser(
          level,
          text(params.reason, 'reason'),
          text(params.object, 'object'),
          text(params.message, 'message'),
        );
        return {};
      },
      action: (p) => {
        const s = this.live();
        return runAction(s.cluster, record(p, 'params') as unknown as FaultAction, s.operations);
      },
      control: (p) => this.control(record(p, 'params') as unknown as ControlAction),
      setSelfHeal: (p) => {
        const on = record(p, 'params').selfHeal;
        if (typeof on !== 'boolean') throw new BadRequest('selfHeal must be true or false');
        this.live().gitops.selfHeal = on;
        if (this.settings) this.settings = { ...this.settings, selfHeal: on };
        return { selfHeal: on };
      },
      snapshot: () => {
        const s = this.live();
        const failed = s.failedNodes().map((n) => n.name);
        return { snapshot: saveState(s.cluster.api, s.gitops.desiredState(), s.gitops.selfHeal, failed) };
      },
      explain: (p) => {
        const params = record(p, 'params');
        return {
          explanation: this.live().cluster.explain(text(params.namespace, 'namespace'), text(params.name, 'name')),
        };
      },
      desired: (p) => desiredFor(this.live(), objectRefOf(p)),
      setApi: (p) => this.api.configure(apiSettingsOf(p)),
      podLogs: (p) => this.logStreams.start(this.live().cluster, podLogRequestOf(p)),
      stopPodLogs: (p) => {
        const stream = record(p, 'params').stream;
        if (typeof stream !== 'number') throw new BadRequest('stream must be a number');
        this.logStreams.stop(stream);
        return {};
      },
      timeline: (p) => {
        const s = this.live();
        return timelineOf(s.cluster, s.timelineSince, timelineObjectOf(p));
      },
      plan: (p) => {
        const params = record(p, 'params');
        const [uri, source, yaml] = [text(params.uri, 'uri'), text(params.source, 'source'), params.text];
        if (typeof yaml !== 'string') throw new BadRequest('text must be a string');
        // The sandbox as it is when the plan's turn comes (a reset in between is planned against).
        return this.foresight.request(uri, () => {
          const s = this.live();
          if (trace.enabled) trace.mark('plan', { source });
          const planned = planText(
            {
              api: s.cluster.api,
              seed: this.settings?.seed ?? 1,
              failedNodes: s.failedNodes().map((n) => n.name),
            },
            source,
            yaml,
          );
          if (trace.enabled) trace.mark('planned', { source });
          return planned;
        });
      },
      // A real cluster's snapshot: no session needed, the running sandbox is not read.
      planLive: (p) => planLive(p),
    };
  }

  private live(): SandboxSession {
    if (!this.session) throw new Error('the sandbox is not running: send init first');
    return this.session;
  }

  private init(params: Record<string, unknown>): Requests['init']['result'] {
    const settings = settingsOf(params.settings);
    const api: ApiSettings | undefined = params.api === undefined ? undefined : apiSettingsOf(params.api);
    this.start(settings, params.snapshot);
    if (api) void this.api.configure(api);
    const s = this.live();
    return s.warning ? { ...this.status(s), warning: s.warning } : this.status(s);
  }

  /** The session's status with the HTTP API's, once the host configured it. */
  private status(session: SandboxSession): SandboxStatus {
    const api = this.api.status;
    return api ? { ...session.status(), api } : session.status();
  }

  /** Replaces the session; the host gets a fresh `list`. */
  private start(settings: SandboxSettings, snapshot?: unknown): void {
    this.logStreams.dispose();
    this.session?.dispose();
    this.session = undefined;
    this.settings = settings;
    this.session = new SandboxSession({
      settings,
      snapshot,
      now: this.deps.now(),
      send: (n) => this.post({ kind: 'notification', notification: n }),
      timers: this.deps.timers,
      sourceTexts: this.sourceTexts,
    });
    this.session.sendList();
    void this.api.attach(this.session.cluster);
  }

  private control(action: ControlAction): Requests['control']['result'] {
    let fastForward: FastForwardReport | undefined;
    if (action.type === 'reset') this.reset();
    else if (
      typeof action.type === 'string' &&
      ['pause', 'resume', 'step', 'speed', 'fastForward'].includes(action.type)
    )
      fastForward = this.live().control(action);
    else throw new BadRequest(`unknown control ${JSON.stringify((action as { type?: unknown }).type)}`);
    const status = this.status(this.live());
    this.post({ kind: 'notification', notification: { kind: 'status', status } });
    return fastForward ? { ...status, fastForward } : status;
  }

  /** A fresh cluster that syncs the same desired state again (as a new cluster under the same Git repository would). */
  private reset(): void {
    const old = this.live();
    const desired = old.gitops.desiredState();
    const settings = { ...this.settings!, speed: old.clock.speed };
    this.start(settings);
    const fresh = this.live();
    fresh.gitops.loadDesiredState(desired);
    fresh.gitops.syncAll();
    recordSyncAll(fresh.cluster, fresh.gitops.declaredObjects());
    fresh.sendDesired();
  }

  private sendStatus(): void {
    if (!this.session) return;
    try {
      this.post({ kind: 'notification', notification: { kind: 'status', status: this.status(this.session) } });
    } catch {
      // A status tick must never take the worker down; the next one retries.
    }
  }
}
