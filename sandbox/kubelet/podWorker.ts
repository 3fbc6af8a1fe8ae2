/**
 * One pod on one node: the kubelet's pod worker and runtime in one small
 * state machine. Every step runs as a foreground timer on the pod's
 * `PodTimers`; after each step the worker re-syncs (starts what can start)
 * and writes the pod's status if it changed.
 *
 * Lifecycle: sandbox → init containers in order → regular containers in
 * order (pull, create, start) → probes and behaviours → exits and restarts
 * with back-off → terminal phase, or termination on `deletionTimestamp`
 * ending in the final delete.
 */
import type { ObjectsByResource } from '../api/resourceObjects';
import type { WirePodStatus } from '../api/types';
import { formatTimestamp } from '../clock/clock';
import { jsonEqual } from '../util/json';
import { containerBehavior } from './behaviors';
import type { ContainerRuntime, Termination } from './containerRuntime';
import { containerStatus, newContainerRuntime } from './containerRuntime';
import { imageID, parseImage } from './images';
import type { PullScheduler } from './imagePuller';
import { ensureImage } from './imagePuller';
import { msg, podDescription } from './messages';
import type { PodPhase } from './phase';
import { podPhase } from './phase';
import { podConditions } from './podConditions';
import { PodTimers } from './podTimers';
import { livenessPlan, probeFailureOutput, readinessPlan, startupAt } from './probes';
import type { WorkerHost } from './workerHost';
import { draw } from './workerHost';
import { containerProgram } from './logs/containerProgram';
import { mountedFiles } from './logs/mountedFiles';
import type { ExitCause } from './logs/containerProgram';
import { customLogs } from './logs/customLogs';
import type { InstanceLog } from './logs/instanceLog';
import { logContainerID } from './logs/logErrors';
import { PodLogs } from './logs/podLogs';

type Pod = ObjectsByResource['pods'];

const TERMINAL = new Set(['Succeeded', 'Failed']);

export class PodWorker {
  readonly key: string;
  readonly uid: string;
  private pod: Pod;
  private readonly timers: PodTimers;
  private readonly inits: ContainerRuntime[];
  private readonly regular: ContainerRuntime[];
  private readonly scheduler: PullScheduler;
  private startTime = 0;
  private sandboxReady = false;
  private podIP: string | undefined;
  private killAt: number | undefined;
  /** The pod reached a terminal phase here; nothing more will run. */
  private done = false;
  private deleteAfterWrite = false;
  private disposed = false;
  private behaviorErrors: string[] = [];
  /** What the containers print (`kubectl logs`). */
  readonly logs: PodLogs;

  constructor(
    private readonly host: WorkerHost,
    pod: Pod,
  ) {
    this.pod = pod;
    this.key = `${pod.metadata!.namespace}/${pod.metadata!.name}`;
    this.uid = pod.metadata!.uid ?? '';
    this.timers = new PodTimers(host.clock);
    this.logs = new PodLogs(host.clock);
    const spec = pod.spec!;
    const defaultWaiting = (spec.initContainers ?? []).length > 0 ? 'PodInitializing' : 'ContainerCreating';
    const make = (init: boolean) => (c: (typeof spec.containers)[number]) => {
      const resolved = containerBehavior(pod, c, init);
      this.behaviorErrors.push(...resolved.errors, ...customLogs(pod, c, init).errors);
      return newContainerRuntime(c, init, resolved.behavior, parseImage(c.image ?? ''), defaultWaiting);
    };
    this.inits = (spec.initContainers ?? []).map(make(true));
    this.regular = spec.containers.map(make(false));
    this.scheduler = { pod: () => this.pod, later: (ms, fn) => this.later(ms, fn), at: (due, fn) => this.at(due, fn) };
  }

  /** The pod as last seen (for admission accounting). */
  get current(): Pod {
    return this.pod;
  }

  /** Still holds node resources: not terminal, not finished deleting. */
  get active(): boolean {
    return !this.done;
  }

  /** Admitted: post the first status and set up the sandbox. */
  start(): void {
    this.startTime = this.host.clock.now();
    if (this.behaviorErrors.length > 0) this.event('Warning', 'InvalidBehavior', this.behaviorErrors.join('; '));
    this.run(() => this.later(draw(this.host, this.host.delays.sandbox), () => this.sandboxUp()));
  }

  /** A newer version of the pod: deletion starts termination; anything else re-asserts the status. */
  update(pod: Pod): void {
    this.pod = pod;
    this.run(() => {
      if (pod.metadata?.deletionTimestamp) this.terminate();
    });
  }

  /** Kills a running container (exit 137) as a fault; false when none of that name is running. */
  crash(containerName?: string): boolean {
    const all = [...this.inits, ...this.regular];
    const c =
      containerName === undefined
        ? all.find((x) => x.state.kind === 'running')
        : all.find((x) => x.spec.name === containerName);
    if (!c || c.state.kind !== 'running' || this.killAt !== undefined || this.done) return false;
    this.run(() => this.exited(c, 137, 'Error', 'crash'));
    return true;
  }

  suspend(): void {
    this.timers.suspend();
    this.logs.closeFollowers();
  }

  resume(): void {
    this.timers.resume();
  }

  /** The pod is gone: drop pending work and give back its IP. */
  dispose(): void {
    this.disposed = true;
    this.timers.cancelAll();
    this.logs.dispose();
    if (this.podIP) this.host.releasePodIP(this.podIP);
  }

  /**
   * The log `kubectl logs` reads for a container (the kubelet's choice of instance); throws upstream's 400 when there
   * is none.
   */
  logInstance(container: string, previous: boolean): InstanceLog | undefined {
    const c = this.regular.find((x) => x.spec.name === container) ?? this.inits.find((x) => x.spec.name === container);
    const id = logContainerID(c ? containerStatus(c) : undefined, container, this.pod.metadata!.name!, previous);
    return this.logs.instance(container, id);
  }

  // ---- steps --------------------------------------------------------------

  private later(delayMs: number, fn: () => void): void {
    this.timers.after(delayMs, () => this.run(fn));
  }

  private at(due: number, fn: () => void): void {
    this.timers.at(due, () => this.run(fn));
  }

  /** One step: the change, then start what can start, settle the phase, write the status. */
  private run(fn: () => void): void {
    if (this.disposed) return;
    fn();
    this.sync();
    this.checkTerminal();
    this.write();
    if (this.deleteAfterWrite) {
      this.deleteAfterWrite = false;
      this.host.deletePod(this.pod);
    }
  }

  private sandboxUp(): void {
    this.sandboxReady = true;
    this.podIP = this.host.allocatePodIP();
  }

  /**
   * SyncPod: init containers one at a time (sidecars must have started), then regular containers in order, one pull at
   * a time.
   */
  private sync(): void {
    if (!this.sandboxReady || this.killAt !== undefined || this.done) return;
    for (const c of this.inits) {
      if (!c.launched) this.launch(c);
      if (c.sidecar ? c.started : c.state.kind === 'terminated' && c.state.termination.exitCode === 0) continue;
      return;
    }
    for (const c of this.regular) {
      if (!c.launched) this.launch(c);
      if (c.busy) return;
    }
  }

  private launch(c: ContainerRuntime): void {
    c.launched = true;
    c.busy = true;
    const outcome = ensureImage(this.host, this.scheduler, c, () => this.create(c));
    if (outcome === 'ready') this.create(c);
    else if (outcome === 'failed') c.busy = false;
  }

  /** Creates and starts an instance (after `start-delay`, if any). */
  private create(c: ContainerRuntime): void {
    const delay = c.behavior.startDelayMs ?? 0;
    if (delay > 0) this.later(delay, () => this.startInstance(c));
    else this.startInstance(c);
  }

  private startInstance(c: ContainerRuntime): void {
    if (this.killAt !== undefined || this.done) return;
    const now = this.host.clock.now();
    if (c.state.kind === 'terminated') c.last = c.state.termination;
    if (c.containerID !== '') c.restartCount++;
    c.instance++;
    c.containerID = `containerd://${this.host.random.string(64, '0123456789abcdef')}`;
    if (!('error' in c.image)) c.imageID = imageID(c.image);
    c.state = { kind: 'running', startedAt: now };
    c.busy = false;
    this.logs.started(
      c.spec.name,
      c.containerID,
      containerProgram({
        pod: this.pod,
        container: c.spec,
        init: c.init,
        behavior: c.behavior,
        startedAt: now,
        podIP: this.podIP ?? '',
        hostIP: this.host.hostIP,
        readFile: mountedFiles(this.pod, c.spec, this.host.readConfig),
      }),
    );
    this.event('Normal', 'Created', msg.created(c.spec.name));
    this.event('Normal', 'Started', msg.started(c.spec.name));
    this.scheduleInstance(c, now);
  }

  private scheduleInstance(c: ContainerRuntime, startedAt: number): void {
    const instance = c.instance;
    const guard = (fn: () => void) => () => {
      if (c.instance === instance && c.state.kind === 'running') fn();
    };
    const exit = c.behavior.exit;
    if (exit) {
      const after =
        exit.after === 'quick'
          ? draw(this.host, this.host.delays.quickExit)
          : exit.after === 'work'
            ? draw(this.host, this.host.delays.initWork)
            : exit.after;
      this.later(
        after,
        guard(() => this.exited(c, exit.code, exit.oom ? 'OOMKilled' : exit.code === 0 ? 'Completed' : 'Error')),
      );
    }
    if (c.init && !c.sidecar) {
      c.started = true;
      return;
    }
    const okAt = startupAt(c.spec.startupProbe, startedAt);
    const started = guard(() => void (c.started = true));
    if (okAt <= startedAt) started();
    else this.at(okAt, started);
    const ready = readinessPlan(c.spec.readinessProbe, c.behavior, startedAt, okAt);
    if (ready.failAt !== undefined)
      this.at(
        ready.failAt,
        guard(() => this.probeFailed(c, 'Readiness', 503)),
      );
    if (ready.readyAt !== undefined) {
      const becomeReady = guard(() => void (c.ready = true));
      if (ready.readyAt <= startedAt) becomeReady();
      else this.at(ready.readyAt, becomeReady);
    }
    const live = livenessPlan(c.spec.livenessProbe, c.behavior, startedAt, okAt);
    if (!live) return;
    for (const t of live.failures)
      this.at(
        t,
        guard(() => this.probeFailed(c, 'Liveness', 500)),
      );
    this.at(
      live.killAt,
      guard(() => {
        this.event('Normal', 'Killing', msg.livenessKill(c.spec.name));
        this.logs.signaled(c.spec.name);
        c.ready = false;
        const stopIn = Math.min(draw(this.host, this.host.delays.stop), this.graceMs());
        this.later(
          stopIn,
          guard(() => this.exited(c, 137, 'Error', 'killed')),
        );
      }),
    );
  }

  private probeFailed(c: ContainerRuntime, kind: 'Liveness' | 'Readiness', code: number): void {
    const probe = kind === 'Liveness' ? c.spec.livenessProbe : c.spec.readinessProbe;
    this.event('Warning', 'Unhealthy', msg.probeFailed(kind, probeFailureOutput(probe, this.podIP ?? '', code)));
  }

  /** A container instance ended; decide on a restart as the restart policy says. */
  private exited(c: ContainerRuntime, exitCode: number, reason: string, cause: ExitCause = 'exit'): void {
    if (c.state.kind !== 'running') return;
    const now = this.host.clock.now();
    this.logs.exited(c.spec.name, exitCode, reason === 'OOMKilled', cause);
    c.state = {
      kind: 'terminated',
      termination: { exitCode, reason, startedAt: c.state.startedAt, finishedAt: now, containerID: c.containerID },
    };
    c.instance++;
    c.started = false;
    c.ready = c.init && !c.sidecar && exitCode === 0;
    if (this.killAt !== undefined) return;
    const policy = this.pod.spec?.restartPolicy ?? 'Always';
    const restart =
      c.sidecar ||
      (c.init
        ? exitCode !== 0 && policy !== 'Never'
        : policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0));
    if (restart) this.later(this.host.delays.sync, () => this.restartCheck(c));
  }

  /**
   * kuberuntime `doBackOff`: restart now, or wait in CrashLoopBackOff until the window measured from the exit closes.
   */
  private restartCheck(c: ContainerRuntime): void {
    if (this.killAt !== undefined || this.done) return;
    const t: Termination | undefined = c.state.kind === 'terminated' ? c.state.termination : c.last;
    if (!t) return;
    const key = `${this.uid}/${c.spec.name}`;
    const backoff = this.host.restartBackoff;
    const now = this.host.clock.now();
    if (backoff.inBackOffSince(key, t.finishedAt, now)) {
      const desc = podDescription(this.pod.metadata!.name!, this.pod.metadata!.namespace!, this.uid);
      c.last = t;
      c.state = {
        kind: 'waiting',
        reason: 'CrashLoopBackOff',
        message: msg.crashLoop(backoff.get(key), c.spec.name, desc),
      };
      this.event('Warning', 'BackOff', msg.backOffEvent(c.spec.name, desc));
      this.at(t.finishedAt + backoff.get(key), () => this.restartCheck(c));
      return;
    }
    backoff.next(key, t.finishedAt);
    c.busy = true;
    const outcome = ensureImage(this.host, this.scheduler, c, () => this.create(c));
    if (outcome === 'ready') this.create(c);
    else if (outcome === 'failed') c.busy = false;
  }

  // ---- termination --------------------------------------------------------

  private graceMs(): number {
    const meta = this.pod.metadata;
    const seconds = meta?.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30;
    return Math.max(0, seconds) * 1000;
  }

  private running(): ContainerRuntime[] {
    return [...this.inits, ...this.regular].filter((c) => c.state.kind === 'running');
  }

  /** SIGTERM every running container (preStop runs instantly); SIGKILL what is left at the deadline. */
  private terminate(): void {
    const now = this.host.clock.now();
    const deadline = now + this.graceMs();
    if (this.done) {
      this.deleteAfterWrite = !this.disposed;
      return;
    }
    if (this.killAt !== undefined) {
      if (deadline < this.killAt) {
        this.killAt = deadline;
        this.at(deadline, () => this.killRemaining());
      }
      return;
    }
    this.killAt = deadline;
    this.timers.cancelAll();
    for (const c of [...this.inits, ...this.regular]) c.busy = false;
    for (const c of this.running()) {
      this.event('Normal', 'Killing', msg.stopping(c.spec.name));
      this.logs.signaled(c.spec.name);
      c.ready = false;
      if (c.behavior.ignoreSigterm) continue;
      const stopAt = now + draw(this.host, this.host.delays.stop);
      if (stopAt < deadline) this.at(stopAt, () => this.exited(c, 0, 'Completed', 'stopped'));
    }
    this.at(deadline, () => this.killRemaining());
  }

  private killRemaining(): void {
    for (const c of this.running()) this.exited(c, 137, 'Error', 'killed');
  }

  /** Settles a terminal phase: the pod is finished here (and, when deleting, deleted after this write). */
  private checkTerminal(): void {
    if (this.done) return;
    if (this.killAt !== undefined) {
      if (this.running().length > 0) return;
      this.finish();
      this.deleteAfterWrite = true;
      return;
    }
    if (TERMINAL.has(this.phase())) this.finish();
  }

  private finish(): void {
    this.done = true;
    this.sandboxReady = false;
    this.timers.cancelAll();
  }

  // ---- status -------------------------------------------------------------

  private phase(): PodPhase {
    const spec = this.pod.spec!;
    const phase = podPhase(
      spec,
      this.inits.map(containerStatus),
      this.regular.map(containerStatus),
      this.killAt !== undefined && this.running().length === 0,
    );
    return this.done && this.killAt !== undefined && !TERMINAL.has(phase) ? 'Failed' : phase;
  }

  private buildStatus(current: Pod): WirePodStatus {
    const init = this.inits.map(containerStatus);
    const regular = this.regular.map(containerStatus);
    const phase = this.phase();
    const old = current.status ?? {};
    const status: WirePodStatus = {
      phase,
      conditions: podConditions(
        { spec: this.pod.spec!, init, regular, phase, sandboxReady: this.sandboxReady },
        old.conditions ?? [],
        this.host.clock.now(),
      ),
      hostIP: this.host.hostIP,
      hostIPs: [{ ip: this.host.hostIP }],
      startTime: formatTimestamp(this.startTime),
      containerStatuses: regular,
    };
    if (this.podIP) Object.assign(status, { podIP: this.podIP, podIPs: [{ ip: this.podIP }] });
    if (init.length > 0) status.initContainerStatuses = init;
    if (old.qosClass) status.qosClass = old.qosClass;
    return status;
  }

  private write(): void {
    const meta = this.pod.metadata!;
    const current = this.host.readPod(meta.namespace!, meta.name!);
    if (!current || current.metadata?.uid !== this.uid) return;
    const status = this.buildStatus(current);
    if (TERMINAL.has(current.status?.phase ?? '') && status.phase !== current.status?.phase) return;
    if (jsonEqual(status, current.status)) return;
    this.host.writeStatus(current, status);
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.host.recorder.event(this.pod, type, reason, message);
  }
}
