/**
 * One pod on one node: the kubelet's pod worker, volume manager, runtime and
 * prober for that pod, as a small state machine on timers. Every step runs
 * on the pod's `PodTimers`; after each step the worker re-syncs (starts what
 * can start, as kuberuntime `computePodActions` decides) and writes the pod's
 * status if it changed.
 *
 * Lifecycle: volumes set up (ConfigMap, Secret and projected sources must
 * exist: `FailedMount` on the reconciler's back-off; claims must be bound) →
 * sandbox → init containers in order, a sidecar (`restartPolicy: Always`)
 * counting as done once started → regular containers in order (pull, make
 * the environment — `CreateContainerConfigError` retried on the pod worker's
 * back-off —, create, start) → probes and processes → exits and restarts
 * with back-off (sidecars whatever the pod's policy) → completion (the
 * sidecars of a finished pod are stopped, in reverse order) or termination
 * on `deletionTimestamp` (containers first, then sidecars in reverse order,
 * within the grace period) ending in the final delete.
 */
import type { Container } from 'kubernetes-types/core/v1';
import type { ObjectsByResource } from '../api/resourceObjects';
import type { SeededRandom } from '../clock/random';
import type { WirePodStatus } from '../api/types';
import { formatTimestamp, parseTimestamp } from '../clock/clock';
import { jsonEqual } from '../util/json';
import type { ContainerBehavior } from './behaviors';
import { containerBehavior } from './behaviors';
import type { ContainerRuntime, InstanceRunInput, LookedUp, Termination } from './containerRuntime';
import { NO_TOKENS, addToken, containerStatus, newContainerRuntime, takeTokens } from './containerRuntime';
import { compactEnv, containerEnvironment } from './container/env';
import type { EnvEntries, PodFacts } from './container/env';
import { ContainerFs } from './container/fileSystem';
import type { ContainerRun, ExecOutcome, RunInput } from './container/run';
import { runContainer } from './container/run';
import type { Resolution } from './shell/types';
import type { ContainerFiles } from './container/volumes';
import { PodVolumes, claimProblem, mountFailures } from './container/volumes';
import { imageID, normalizedImage, sharedImageRef } from './images';
import { boundedMemo } from '../util/memo';
import type { PullScheduler } from './imagePuller';
import { ensureImage } from './imagePuller';
import { msg, podDescription } from './messages';
import type { PodPhase } from './phase';
import { podPhase } from './phase';
import { podConditions } from './podConditions';
import { PodTimers } from './podTimers';
import type { ProbeKind, ProbeSchedule } from './probes';
import { defaultLiveness, planProbe, probeAnswer, probeDefaults } from './probes';
import type { WorkerHost } from './workerHost';
import type { PodRequests, Requested } from './admission';
import { draw } from './workerHost';
import type { ExitCause } from './container/run';
import { customLogs } from './logs/customLogs';
import type { InstanceLog } from './logs/instanceLog';
import { logContainerID } from './logs/logErrors';
import type { ContainerProgram } from './logs/podLogs';
import { PodLogs } from './logs/podLogs';
import type { LineSource } from './logs/lineSource';
import type { ProbedHttp } from './logs/probeLines';
import { probeRequestSources } from './logs/probeLines';

type Pod = ObjectsByResource['pods'];

/** What an instance prints when it is probed over HTTP: its process's lines and its side of the probes. */
class InstanceProgram implements ContainerProgram {
  constructor(
    private readonly run: ContainerRun,
    readonly sources: readonly LineSource[],
  ) {}

  onSignal(at: number): string[] {
    return this.run.onSignal(at);
  }

  onExit(at: number, code: number, oom: boolean, cause: ExitCause): string[] {
    return this.run.onExit(at, code, oom, cause);
  }
}

/**
 * What an instance runs with: one object whose draws and lookups are methods, not closures over the start (issue 16:
 * two closures and their context per container otherwise).
 */
class InstanceInput implements InstanceRunInput, LookedUp {
  /** The cluster DNS names its process consulted, made on the first lookup (most processes look nothing up). */
  names: Set<string> | undefined = undefined;
  /** Forked on the first draw (a fork depends only on the seeds, so the draws are the same): most processes draw
   * nothing after their start, and a generator per instance is ~0.2 KiB (issue 16). */
  private random: SeededRandom | undefined = undefined;

  constructor(
    private readonly worker: PodWorker,
    /** Its files as the start decided them: the pod as it started, its IP, where its volumes are mounted. */
    private readonly files: ContainerFiles,
    private readonly runtime: ContainerRuntime,
    readonly startedAt: number,
    readonly kubeletEnv: EnvEntries,
    readonly fs: ContainerFs,
    /** Which instance of the container (its draws are seeded by it). */
    private readonly instance = runtime.instance,
  ) {}

  // Answered from what it keeps (issue 16: a field each, and an object for the pod, per container otherwise).
  get pod(): RunInput['pod'] {
    return this.files.pod;
  }

  get podIP(): string {
    return this.files.podIP;
  }

  get mountedPaths(): readonly string[] {
    return this.files.mountedPaths();
  }

  /** Not restarted after it succeeds: an init container, or under `restartPolicy` Never or OnFailure. */
  get batch(): boolean {
    const policy = this.files.pod.spec?.restartPolicy ?? 'Always';
    return !this.runtime.sidecar && (this.runtime.init || policy !== 'Always');
  }

  get container(): Container {
    return this.runtime.spec;
  }

  get init(): boolean {
    return this.runtime.init;
  }

  get sidecar(): boolean {
    return this.runtime.sidecar;
  }

  get behavior(): ContainerBehavior {
    return this.runtime.behavior;
  }

  /** The kubelet's delays themselves (shared by its pods), not a copy per instance. */
  get timing(): RunInput['timing'] {
    return this.worker.delays;
  }

  draw(range: readonly [number, number]): number {
    // The seed joined when first needed (one flat string; the instance's number as it started).
    this.random ??= this.worker.forkRandom([this.worker.uid, this.container.name, this.instance].join('/'));
    return this.random.between(range[0], range[1]);
  }

  /** Itself: what it looked up is kept on it (one object, not one more a container; issue 16). */
  get lookedUp(): LookedUp {
    return this;
  }

  resolve(name: string, t: number): Resolution {
    return this.worker.resolve(name, t, this);
  }

  /** The same input for the process worked out again from its start on `fs`: its draws again from the first. */
  rerun(fs: ContainerFs): InstanceInput {
    const again = new InstanceInput(
      this.worker,
      this.files,
      this.runtime,
      this.startedAt,
      this.kubeletEnv,
      fs,
      this.instance,
    );
    again.names = this.names;
    return again;
  }
}

/** `ns/`, one string per namespace: a pod's key is it and the name (issue 16: a copy of `ns/` per pod otherwise). */
const namespacePrefix = boundedMemo(
  4096,
  (ns: string) => ns,
  (ns: string) => `${ns}/`,
);

const TERMINAL = new Set(['Succeeded', 'Failed']);
const NO_CONTAINERS: ContainerRuntime[] = Object.freeze([]) as unknown as ContainerRuntime[];

/** The volume manager's retry back-off (nestedpendingoperations: 500 ms doubling to 2m2s). */
const MOUNT_RETRY_INITIAL_MS = 500;
const MOUNT_RETRY_MAX_MS = 122_000;
/** pkg/kubelet/pod_workers.go: a pod that synced without error is synced again after `resyncInterval` (the 1 min
 * `syncFrequency`) with 0.5 jitter. */
const POD_RESYNC: readonly [number, number] = [60_000, 90_000];
/** killContainer's minimum grace (`minimumGracePeriodInSeconds`). */
const MIN_GRACE_MS = 2000;
/** How far ahead probes are planned before the plan is worked out again. */
const PROBE_HORIZON_MS = 3_600_000;

interface Termination_ {
  /** Deletion (`deletionTimestamp`), completion (its containers are done; its sidecars stop) or the pod's deadline. */
  kind: 'delete' | 'complete' | 'deadline';
  startedAt: number;
  graceMs: number;
}

export class PodWorker implements Requested {
  readonly key: string;
  readonly uid: string;
  /** The pod's requests as admission read them (they cannot change: see `podRequests`). */
  readonly requestedCpu: number;
  readonly requestedMemory: number;
  readonly requestedStorage: number;
  private pod: Pod;
  private readonly timers: PodTimers;
  private readonly inits: ContainerRuntime[];
  private readonly regular: ContainerRuntime[];
  private readonly volumes: PodVolumes;
  private startTime = 0;
  private mounted = false;
  // The maps below are made on first use: most pods never need them, and an empty Map is ~180 bytes (issue 16).
  private mountRetry: Map<string, { delay: number; token: number }> | undefined;
  private claimRetry: number | undefined;
  private sandboxReady = false;
  /** A sync that checked the pull secrets is under way: the next check is timed once the sync has run. */
  private pullSecretResync = false;
  private podIP: string | undefined;
  private terminating: Termination_ | undefined;
  private deadlineExceeded = false;
  /** The pod reached a terminal phase here; nothing more will run. */
  private done = false;
  private deleteAfterWrite = false;
  private disposed = false;
  /** The behaviour annotations' problems (undefined: none, as for most pods). */
  private behaviorErrors: string[] | undefined;
  private schedules: Map<string, ProbeSchedule> | undefined;
  /** What the cluster DNS answered for each name the containers looked up, and when that changed. */
  private dns: Map<string, { at: number; address: string | undefined }[]> | undefined;
  /** What the containers print (`kubectl logs`). */
  readonly logs: PodLogs;

  constructor(
    private readonly host: WorkerHost,
    pod: Pod,
    requests: Readonly<PodRequests>,
  ) {
    this.pod = pod;
    this.requestedCpu = requests.cpu;
    this.requestedMemory = requests.memory;
    this.requestedStorage = requests['ephemeral-storage'];
    this.key = namespacePrefix(`${pod.metadata!.namespace}`) + pod.metadata!.name;
    this.uid = pod.metadata!.uid ?? '';
    this.timers = new PodTimers(host.clock);
    this.logs = new PodLogs(host.clock);
    this.volumes = new PodVolumes(pod);
    const spec = pod.spec!;
    const defaultWaiting = (spec.initContainers ?? []).length > 0 ? 'PodInitializing' : 'ContainerCreating';
    const make = (init: boolean) => (c: (typeof spec.containers)[number]) => {
      const resolved = containerBehavior(pod, c, init);
      const errors = [...resolved.errors, ...customLogs(pod, c, init).errors];
      if (errors.length > 0) (this.behaviorErrors ??= []).push(...errors);
      return newContainerRuntime(c, init, resolved.behavior, sharedImageRef(c.image ?? ''), defaultWaiting);
    };
    // Most pods have no init containers: one shared, frozen empty list.
    this.inits = spec.initContainers?.length ? spec.initContainers.map(make(true)) : NO_CONTAINERS;
    this.regular = spec.containers.map(make(false));
  }

  /** The kubelet's delays (its instances' timing). */
  get delays(): WorkerHost['delays'] {
    return this.host.delays;
  }

  /** The kubelet's generator forked for `seed` (an instance's draws). */
  forkRandom(seed: string): SeededRandom {
    return this.host.random.fork(seed);
  }

  /** The pod as last seen (for admission accounting). */
  get current(): Pod {
    return this.pod;
  }

  /** Still holds node resources: not terminal, not finished deleting. */
  get active(): boolean {
    return !this.done;
  }

  private get all(): ContainerRuntime[] {
    return [...this.inits, ...this.regular];
  }

  /** Admitted: the probe workers start, the first status is posted, the volumes are set up. */
  start(): void {
    const now = this.host.clock.now();
    this.startTime = now;
    this.startProbeWorkers(now);
    if (this.behaviorErrors) this.event('Warning', 'InvalidBehavior', this.behaviorErrors.join('; '));
    const deadline = this.pod.spec?.activeDeadlineSeconds;
    if (deadline !== undefined && deadline !== null) this.at(now + deadline * 1000, () => this.deadline());
    this.run(() => this.setUpVolumes());
  }

  /**
   * Resumes a pod that was already running on this node when the cluster was saved (a fork of a running sandbox: the
   * node did not reboot, its containers go on): the sandbox, the IP, each container's instance (its id, start time,
   * restarts, readiness) are taken from the status as they are, the processes are worked out from their start, and the
   * probes continue on their period from the pod's start — nothing is pulled, created, started or probed from zero, so
   * a settled pod stays settled and no status changes. False (nothing done) when the pod is not in a state that can be
   * taken over as it is (not Running, being deleted, a container not running or an init container not done, a
   * container's environment that cannot be made): the caller starts it as new.
   *
   * upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go: computePodActions keeps a running container whose spec is
   * unchanged (a restarted kubelet adopts it). The fork is a continuation, not a kubelet restart: readiness and the
   * probe period go on as they were (a restarted kubelet would probe readiness again from Failure).
   */
  adopt(): boolean {
    const status = this.pod.status;
    if (status?.phase !== 'Running' || !status.podIP || !status.startTime || this.pod.metadata?.deletionTimestamp)
      return false;
    const statuses = new Map<string, NonNullable<typeof status.containerStatuses>[number]>();
    for (const s of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])])
      statuses.set(`${s.name}`, s);
    const runningAt = (c: ContainerRuntime) => {
      const s = statuses.get(c.spec.name);
      return s?.state?.running?.startedAt && s.containerID ? parseTimestamp(s.state.running.startedAt) : undefined;
    };
    for (const c of this.all) {
      const s = statuses.get(c.spec.name);
      if (!s) return false;
      if (c.init && !c.sidecar) {
        if (s.state?.terminated?.exitCode !== 0) return false;
      } else if (runningAt(c) === undefined || Number.isNaN(runningAt(c))) return false;
    }
    this.podIP = status.podIP;
    const envs = new Map<ContainerRuntime, ReadonlyMap<string, string>>();
    for (const c of this.all) {
      if (c.init && !c.sidecar) continue;
      const env = containerEnvironment(this.pod, c.spec, this.host.readConfig, this.facts());
      if ('error' in env) {
        this.podIP = undefined;
        return false;
      }
      envs.set(c, env.vars);
    }
    const now = this.host.clock.now();
    this.startTime = parseTimestamp(status.startTime);
    this.host.reservePodIP(status.podIP);
    this.mounted = true;
    this.sandboxReady = true;
    // Its syncs go on: the next one checks the pull secrets (nothing is said now: the pod was synced before).
    this.armPullSecretResync();
    // The probe workers go on with the period they had: anchored at the pod's start (where the first one ran).
    this.startProbeWorkers(this.startTime, false);
    const deadline = this.pod.spec?.activeDeadlineSeconds;
    if (deadline !== undefined && deadline !== null)
      this.at(Math.max(now, this.startTime + deadline * 1000), () => this.deadline());
    for (const c of this.all) {
      const s = statuses.get(c.spec.name)!;
      c.launched = true;
      c.restartCount = s.restartCount ?? 0;
      c.containerID = s.containerID ?? '';
      c.imageID = s.imageID ?? '';
      if (!('error' in c.image)) this.host.images.add(normalizedImage(c.image));
      const last = s.lastState?.terminated;
      if (last?.startedAt && last.finishedAt)
        c.last = {
          exitCode: last.exitCode,
          reason: last.reason ?? '',
          startedAt: parseTimestamp(last.startedAt),
          finishedAt: parseTimestamp(last.finishedAt),
          containerID: last.containerID ?? '',
        };
      if (c.init && !c.sidecar) {
        const t = s.state!.terminated!;
        c.state = {
          kind: 'terminated',
          termination: {
            exitCode: 0,
            reason: t.reason ?? 'Completed',
            startedAt: t.startedAt ? parseTimestamp(t.startedAt) : this.startTime,
            finishedAt: t.finishedAt ? parseTimestamp(t.finishedAt) : this.startTime,
            containerID: t.containerID ?? c.containerID,
          },
        };
        c.ready = s.ready ?? true;
        c.started = s.started ?? false;
        continue;
      }
      c.instance = c.restartCount + 1;
      c.ready = s.ready ?? false;
      c.started = s.started ?? false;
      if (c.sidecar) c.initialized = true;
      this.resumeInstance(c, envs.get(c)!, runningAt(c)!);
    }
    this.run(() => undefined);
    return true;
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
    const c =
      containerName === undefined
        ? this.all.find((x) => x.state.kind === 'running')
        : this.all.find((x) => x.spec.name === containerName);
    if (!c || c.state.kind !== 'running' || this.terminating || this.done) return false;
    this.run(() => this.exited(c, 137, 'Error', 'crash'));
    return true;
  }

  /** `kubectl exec`: runs `argv` in a running container now; what it writes stays in the container's files. */
  exec(containerName: string, argv: readonly string[]): ExecOutcome | undefined {
    const c = this.all.find((x) => x.spec.name === containerName);
    if (!c?.run || c.state.kind !== 'running') return undefined;
    const result = c.run.exec(argv, this.host.clock.now(), 'exec');
    this.run(() => this.replanAll());
    return result;
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
    const c = this.all.find((x) => x.spec.name === container);
    const id = logContainerID(c ? containerStatus(c) : undefined, container, this.pod.metadata!.name!, previous);
    return this.logs.instance(container, id);
  }

  // ---- steps --------------------------------------------------------------

  private later(delayMs: number, fn: () => void, background = false): number {
    return this.timers.after(delayMs, () => this.run(fn), background);
  }

  private at(due: number, fn: () => void, background = false): number {
    return this.timers.at(due, () => this.run(fn), background);
  }

  /** One step: the change, then start what can start, settle the phase, write the status. */
  private run(fn: () => void): void {
    if (this.disposed) return;
    fn();
    this.sync();
    if (this.pullSecretResync) {
      this.pullSecretResync = false;
      this.armPullSecretResync();
    }
    this.checkTerminal();
    this.write();
    if (this.deleteAfterWrite) {
      this.deleteAfterWrite = false;
      this.host.deletePod(this.pod);
    }
  }

  private facts(): PodFacts {
    const ns = this.pod.metadata?.namespace ?? 'default';
    return {
      podIP: this.podIP ?? '',
      hostIP: this.host.hostIP,
      services: this.host.listServices(ns),
      nodeAllocatable: this.host.nodeAllocatable,
    };
  }

  // ---- volumes ------------------------------------------------------------

  /**
   * The volume manager: every ConfigMap, Secret and projected volume must be set up (a failure is a `FailedMount`
   * event, retried per volume on its back-off) and every claim bound (retried with the pod worker's back-off) before
   * the sandbox is created.
   */
  private setUpVolumes(): void {
    if (this.terminating || this.done) return;
    const failures = mountFailures(this.pod, this.host.readConfig, this.facts());
    for (const f of failures) this.mountFailed(f.volume, f.message);
    this.checkClaims();
    this.volumesDone();
  }

  private mountFailed(volume: string, message: string): void {
    this.event('Warning', 'FailedMount', message);
    const previous = this.mountRetry?.get(volume);
    const delay = previous ? Math.min(previous.delay * 2, MOUNT_RETRY_MAX_MS) : MOUNT_RETRY_INITIAL_MS;
    const token = this.later(delay, () => this.retryMount(volume), true);
    (this.mountRetry ??= new Map()).set(volume, { delay, token });
  }

  private retryMount(volume: string): void {
    if (this.terminating || this.done) return;
    const failure = mountFailures(this.pod, this.host.readConfig, this.facts()).find((f) => f.volume === volume);
    if (failure) return this.mountFailed(volume, failure.message);
    this.mountRetry?.delete(volume);
    this.volumesDone();
  }

  private checkClaims(): void {
    const problem = claimProblem(this.pod, this.host.readClaim);
    if (!problem) {
      this.claimRetry = undefined;
      return;
    }
    this.event('Warning', 'FailedMount', problem);
    this.claimRetry = this.later(
      draw(this.host, this.host.delays.podRetry),
      () => {
        this.claimRetry = undefined;
        if (this.terminating || this.done) return;
        this.checkClaims();
        this.volumesDone();
      },
      true,
    );
  }

  private volumesDone(): void {
    if (this.mounted || (this.mountRetry?.size ?? 0) > 0 || this.claimRetry !== undefined) return;
    this.mounted = true;
    this.checkPullSecrets(false);
    this.later(draw(this.host, this.host.delays.sandbox), () => this.sandboxUp());
  }

  /**
   * The pull secrets each sync fetches once the volumes are mounted: a named Secret that cannot be read is a Warning
   * `FailedToRetrieveImagePullSecret`, and the pull is still attempted (registries are not modelled: it succeeds).
   * upstream: pkg/kubelet/kubelet_pods.go: getPullSecretsForPod (entries with an empty name skipped), called by
   * kubelet.go SyncPod after WaitForAttachAndMount on every sync of the pod. Here the syncs that check are the first
   * one and the periodic resyncs (pod_workers.go: `resyncInterval`, or `backOffPeriod` after a failed sync), not the
   * ones a container's start or exit triggers; pods naming no pull secret keep no timer.
   */
  private checkPullSecrets(resync = true): void {
    if (this.terminating || this.done) return;
    const ns = this.pod.metadata?.namespace ?? 'default';
    const failed: string[] = [];
    for (const ref of this.pod.spec?.imagePullSecrets ?? []) {
      const name = ref?.name;
      if (!name) continue;
      if (!this.host.readConfig('secrets', ns, name)) failed.push(name);
    }
    if (failed.length > 0) this.event('Warning', 'FailedToRetrieveImagePullSecret', msg.pullSecrets(failed));
    if (resync) this.pullSecretResync = true;
  }

  /** The next sync that checks the pull secrets, when the pod names any; sooner after a failed sync. */
  private armPullSecretResync(): void {
    if (this.terminating || this.done) return;
    if (!(this.pod.spec?.imagePullSecrets ?? []).some((ref) => ref?.name)) return;
    // A container waiting with a reason other than creating is an error of the sync (syncPod returns it).
    const failing = this.all.some(
      (c) =>
        c.state.kind === 'waiting' && c.state.reason !== 'ContainerCreating' && c.state.reason !== 'PodInitializing',
    );
    this.later(draw(this.host, failing ? this.host.delays.podRetry : POD_RESYNC), () => this.checkPullSecrets(), true);
  }

  private sandboxUp(): void {
    if (this.terminating || this.done) return;
    this.sandboxReady = true;
    this.podIP = this.host.allocatePodIP();
    // The first sync goes on with the sandbox and the containers: its outcome times the next check.
    this.pullSecretResync = true;
  }

  // ---- starting containers ------------------------------------------------

  /**
   * computePodActions: init containers in order — each regular one must succeed, each sidecar must have started once —
   * then the regular containers in order, one pull at a time.
   */
  private sync(): void {
    if (!this.sandboxReady || this.terminating || this.done) return;
    for (const c of this.inits) {
      if (c.sidecar) {
        if (!c.launched) this.launch(c);
        if (c.initialized) continue;
        return;
      }
      if (c.state.kind === 'terminated' && c.state.termination.exitCode === 0) continue;
      if (!c.launched) this.launch(c);
      return;
    }
    for (const c of this.regular) {
      if (!c.launched) this.launch(c);
      if (c.busy) return;
    }
  }

  private launch(c: ContainerRuntime): void {
    c.launched = true;
    this.attempt(c);
  }

  /** The pod's side of a pull: made per start, kept only while a pull waits (issue 16: three closures per pod). */
  private pullScheduler(): PullScheduler {
    return {
      pod: () => this.pod,
      later: (ms, fn) => void this.later(ms, fn),
      at: (due, fn) => void this.at(due, fn),
    };
  }

  /** startContainer: the image first, then the container's configuration. */
  private attempt(c: ContainerRuntime): void {
    c.busy = true;
    const outcome = ensureImage(this.host, this.pullScheduler(), c, () => this.create(c));
    if (outcome === 'ready') this.create(c);
    else if (outcome === 'failed') c.busy = false;
  }

  /** generateContainerConfig: the environment; a missing ConfigMap, Secret or key is CreateContainerConfigError. */
  private create(c: ContainerRuntime): void {
    if (this.terminating || this.done) return;
    const env = containerEnvironment(this.pod, c.spec, this.host.readConfig, this.facts());
    if ('error' in env) {
      c.configError = env.error;
      c.state = { kind: 'waiting', reason: 'CreateContainerConfigError', message: env.error };
      c.busy = false;
      this.event('Warning', 'Failed', msg.error(env.error));
      this.later(
        draw(this.host, this.host.delays.podRetry),
        () => {
          if (this.terminating || this.done || c.busy || c.state.kind !== 'waiting') return;
          if (c.state.reason !== 'CreateContainerConfigError') return;
          this.attempt(c);
        },
        true,
      );
      return;
    }
    c.configError = undefined;
    const vars = env.vars;
    const delay = c.behavior.startDelayMs ?? 0;
    if (delay > 0) this.later(delay, () => this.startInstance(c, vars));
    else this.startInstance(c, vars);
  }

  private startInstance(c: ContainerRuntime, kubeletVars: ReadonlyMap<string, string>): void {
    if (this.terminating || this.done) return;
    const now = this.host.clock.now();
    if (c.state.kind === 'terminated') c.last = c.state.termination;
    if (c.containerID !== '') c.restartCount++;
    c.instance++;
    c.containerID = `containerd://${this.host.random.string(64, '0123456789abcdef')}`;
    if (!('error' in c.image)) c.imageID = imageID(c.image);
    const run = this.instantiate(c, kubeletVars, now);
    c.ready = false;
    c.started = false;
    this.event('Normal', 'Created', msg.created(c.spec.name));
    this.event('Normal', 'Started', msg.started(c.spec.name));
    this.afterStart(c, this.planProbes(c, now, true), run);
  }

  /** An instance that was running when the cluster was saved: its process from its start, its probes from now. */
  private resumeInstance(c: ContainerRuntime, kubeletVars: ReadonlyMap<string, string>, startedAt: number): void {
    this.instantiate(c, kubeletVars, startedAt);
    this.afterStart(c, this.planProbes(c, this.host.clock.now(), false));
  }

  private afterStart(c: ContainerRuntime, probed: ProbedHttp[], run = c.run!): void {
    this.logs.started(c.spec.name, c.containerID, this.program(c, run, probed));
    this.armExit(c);
    // What this container writes may change what its neighbours' probes see.
    this.replanAll(c);
  }

  /** The instance's process and files, as started at `now`; the container is running from then. */
  private instantiate(c: ContainerRuntime, kubeletVars: ReadonlyMap<string, string>, now: number): ContainerRun {
    const facts = this.facts();
    // Its files as the start decides them (ConfigMaps and Secrets read now), made into trees on their first use; it
    // keeps the pod's spec and metadata as they are now (the process reads nothing else), not the status.
    const files = this.volumes.files(this.pod, c.spec, this.podIP ?? '', this.host.readConfig, facts);
    const runInput = new InstanceInput(this, files, c, now, compactEnv(kubeletVars), new ContainerFs(files));
    const run = runContainer(runInput);
    c.runInput = runInput;
    c.run = run;
    c.state = { kind: 'running', startedAt: now };
    c.busy = false;
    c.stopping = false;
    return run;
  }

  /** What the instance prints: its process's lines and its side of the HTTP probes. */
  private program(c: ContainerRuntime, run: ContainerRun, probed: ProbedHttp[]): ContainerProgram {
    const probeSources = probeRequestSources({
      container: c.spec,
      behavior: c.behavior,
      run,
      podIP: this.podIP ?? '',
      startedAt: c.startedAt ?? this.host.clock.now(),
      probes: probed,
    });
    // Without HTTP probes the process is the program itself (issue 16: one object less a container).
    return probeSources.length === 0 ? run : new InstanceProgram(run, [...run.sources, ...probeSources]);
  }

  private armExit(c: ContainerRuntime): void {
    if (c.exitToken !== undefined) this.timers.cancel(c.exitToken);
    c.exitToken = undefined;
    const exit = c.run?.exit;
    if (!exit) return;
    // A container restarted whatever its exit (a sidecar, or an app container under restartPolicy Always; init
    // containers are meant to finish) is desired running: its program's eventual end (`sleep 3600`) is a future
    // disruption, not work the cluster must finish to reach its desired state, so the timer is background and
    // "settled" does not wait for it. A crash inside the settle window still counts: the restart it causes is
    // foreground work. Containers meant to finish (init containers, Never, OnFailure) keep it foreground.
    const restartsAlways = c.sidecar || (!c.init && (this.pod.spec?.restartPolicy ?? 'Always') === 'Always');
    c.exitToken = this.at(
      Math.max(exit.at, this.host.clock.now()),
      this.guard(c, () => this.exited(c, exit.code, exit.oom ? 'OOMKilled' : exit.code === 0 ? 'Completed' : 'Error')),
      restartsAlways,
    );
  }

  // ---- the cluster DNS ----------------------------------------------------

  /**
   * The container's resolver (resolv.conf: `search <ns>.svc.cluster.local svc.cluster.local cluster.local`,
   * `ndots:5`) against the cluster DNS as it was at `t`: what it answered when first asked, and each change seen since
   * (a Service created or deleted). A name outside the cluster with a dot resolves (the internet is not simulated: an
   * address from 203.0.113.0/24); a single label does not.
   */
  resolve(name: string, t: number, lookedUp: LookedUp): Resolution {
    const ns = this.pod.metadata?.namespace ?? 'default';
    const bare = name.replace(/\.$/, '');
    const absolute = name.endsWith('.');
    const search = [`${ns}.svc.cluster.local`, 'svc.cluster.local', 'cluster.local'].map((d) => `${bare}.${d}`);
    const dots = (bare.match(/\./g) ?? []).length;
    const candidates = absolute ? [bare] : dots >= 5 ? [bare, ...search] : [...search, bare];
    for (const fqdn of candidates) {
      if (!fqdn.endsWith('.cluster.local')) {
        if (!fqdn.includes('.')) continue;
        let h = 0;
        for (const ch of fqdn) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
        return { fqdn, address: `203.0.113.${(h % 254) + 1}` };
      }
      (lookedUp.names ??= new Set()).add(fqdn);
      const address = this.dnsAt(fqdn, t);
      if (address !== undefined) return { fqdn, address };
    }
    return { fqdn: bare };
  }

  private dnsAt(fqdn: string, t: number): string | undefined {
    let history = this.dns?.get(fqdn);
    if (!history) {
      history = [{ at: -Infinity, address: this.host.dnsLookup(fqdn) }];
      (this.dns ??= new Map()).set(fqdn, history);
    }
    let address: string | undefined;
    for (const h of history) if (h.at <= t) address = h.address;
    return address;
  }

  /**
   * The cluster's Services changed: for each name looked up whose answer changed, the containers that looked it up are
   * worked out again from their start, with the new answer from now on (what they did before stays as it was).
   */
  dnsChanged(): void {
    if (this.done || this.disposed) return;
    const now = this.host.clock.now();
    const changed = new Set<string>();
    for (const [fqdn, history] of this.dns ?? []) {
      const address = this.host.dnsLookup(fqdn);
      if (address !== history[history.length - 1].address) {
        history.push({ at: now, address });
        changed.add(fqdn);
      }
    }
    if (changed.size === 0) return;
    this.run(() => {
      for (const c of this.all) {
        const names = c.lookedUp?.names;
        if (c.state.kind !== 'running' || c.stopping || !names) continue;
        if ([...names].some((n) => changed.has(n))) this.rerun(c, now);
      }
    });
  }

  /** Works the running instance's process out again from its start, keeping what happened before `at`. */
  private rerun(c: ContainerRuntime, at: number): void {
    if (!c.runInput || !c.fs) return;
    const fs = c.fs.rerunFrom(at);
    const input = c.runInput.rerun(fs);
    const run = runContainer(input);
    c.runInput = input;
    c.run = run;
    const probed = this.planProbes(c, at, false);
    this.logs.rebased(c.spec.name, at, this.program(c, run, probed));
    this.armExit(c);
  }

  /** Runs `fn` only while the same instance is running. */
  private guard(c: ContainerRuntime, fn: () => void): () => void {
    const instance = c.instance;
    return () => {
      if (c.instance === instance && c.state.kind === 'running') fn();
    };
  }

  // ---- probes -------------------------------------------------------------

  /** The probe workers start with the pod: at once, or within the first period when the kubelet just started. */
  private startProbeWorkers(now: number, jitter = true): void {
    const recent = (periodMs: number) => jitter && now - this.host.kubeletStartedAt() < periodMs;
    for (const c of this.all) {
      if (c.init && !c.sidecar) continue;
      const probes: [ProbeKind, ReturnType<typeof probeDefaults> | undefined][] = [
        ['startup', c.spec.startupProbe ? probeDefaults(c.spec.startupProbe) : undefined],
        [
          'liveness',
          c.spec.livenessProbe || c.behavior.livenessFailAfterMs !== undefined
            ? probeDefaults(c.spec.livenessProbe ?? defaultLiveness(c.spec))
            : undefined,
        ],
        ['readiness', c.spec.readinessProbe ? probeDefaults(c.spec.readinessProbe) : undefined],
      ];
      for (const [kind, d] of probes) {
        if (!d) continue;
        const periodMs = d.periodSeconds * 1000;
        const jitter = recent(periodMs) ? this.host.random.int(periodMs) : 0;
        (this.schedules ??= new Map()).set(`${c.spec.name}/${kind}`, { anchor: now + jitter, periodMs });
      }
    }
  }

  /** The probe worker's schedule for one of the container's probes (set when the pod's probe workers started). */
  private schedule(c: ContainerRuntime, kind: ProbeKind): ProbeSchedule {
    return this.schedules?.get(`${c.spec.name}/${kind}`) as ProbeSchedule;
  }

  /**
   * Plans the current instance's probes from `from`: startup (the container is `started` when it passes), then liveness
   * and readiness. Returns the HTTP probes for the app's request log.
   */
  private planProbes(c: ContainerRuntime, from: number, fresh: boolean): ProbedHttp[] {
    for (const t of takeTokens(c)) this.timers.cancel(t);
    const run = c.run;
    const startedAt = c.startedAt;
    if (!run || startedAt === undefined) return [];
    const httpProbes: ProbedHttp[] = [];
    if (c.init && !c.sidecar) {
      if (fresh) c.started = true;
      return [];
    }
    const podIP = this.podIP ?? '';
    const behavior = c.behavior;
    const nextChange = (t: number) => {
      const times = [run.nextChangeAfter(t)];
      for (const x of [behavior.readyAfterMs, behavior.livenessFailAfterMs])
        if (x !== undefined && startedAt + x > t) times.push(startedAt + x);
      const defined = times.filter((v): v is number => v !== undefined);
      return defined.length > 0 ? Math.min(...defined) : undefined;
    };
    const horizon = from + PROBE_HORIZON_MS;
    const plan = (
      kind: ProbeKind,
      probe: NonNullable<typeof c.spec.livenessProbe>,
      start: number,
      initial: boolean,
      extra: number[],
    ) =>
      planProbe({
        kind,
        probe,
        schedule: this.schedule(c, kind),
        startedAt,
        from: start,
        extra,
        answer: (t) => probeAnswer(kind, probe, c.spec, run, behavior, startedAt, podIP, t),
        nextChange,
        initial,
        horizon,
      });
    const guard = (fn: () => void) => this.guard(c, fn);
    const schedule = (at: number, fn: () => void, background = false) => {
      addToken(c, this.at(at, guard(fn), background));
    };
    const failed = (kind: ProbeKind, output: string) =>
      this.event(
        'Warning',
        'Unhealthy',
        msg.probeFailed(`${kind[0].toUpperCase()}${kind.slice(1)}` as 'Liveness', output),
      );

    let started: number | undefined = c.started ? from : startedAt;
    if (c.spec.startupProbe && !c.started) {
      const p = plan('startup', c.spec.startupProbe, from, false, []);
      started = undefined;
      for (const e of p.events) {
        if (e.failed !== undefined) schedule(e.at, () => failed('startup', e.failed!));
        if (e.result === true) started = e.at;
        if (e.result === false) schedule(e.at, () => this.killForProbe(c, 'startup'));
      }
      if (p.resumeAt !== undefined) schedule(p.resumeAt, () => this.replan(c), true);
      if (started !== undefined) {
        const at = started;
        // Started, and ready at the same moment when nothing else holds readiness back (one status update).
        const readyToo =
          !c.spec.readinessProbe && !behavior.neverReady && startedAt + (behavior.readyAfterMs ?? 0) <= at;
        schedule(at, () => {
          this.markStarted(c);
          if (readyToo) c.ready = true;
        });
      }
      if (c.spec.startupProbe.httpGet)
        httpProbes.push({
          kind: 'startup',
          probe: c.spec.startupProbe,
          schedule: this.schedule(c, 'startup'),
          from,
          until: started ?? p.events.find((e) => e.result === false)?.at,
          extra: [],
        });
    } else if (!c.started) {
      this.markStarted(c);
    }
    if (started === undefined) return httpProbes;
    const startedTime = Math.max(started, from);

    const liveness =
      c.spec.livenessProbe ?? (behavior.livenessFailAfterMs !== undefined ? defaultLiveness(c.spec) : undefined);
    let killAt: number | undefined;
    if (liveness) {
      const p = plan('liveness', liveness, startedTime, true, []);
      for (const e of p.events) {
        if (e.failed !== undefined) schedule(e.at, () => failed('liveness', e.failed!));
        if (e.result === false) {
          killAt = e.at;
          schedule(e.at, () => this.killForProbe(c, 'liveness'));
        }
      }
      if (p.resumeAt !== undefined) schedule(p.resumeAt, () => this.replan(c), true);
      if (liveness.httpGet)
        httpProbes.push({
          kind: 'liveness',
          probe: liveness,
          schedule: this.schedule(c, 'liveness'),
          from: startedTime,
          until: killAt,
          extra: [],
        });
    }

    const readiness = c.spec.readinessProbe;
    if (readiness) {
      const extra = fresh || started > from ? [startedTime] : [];
      const p = plan('readiness', readiness, startedTime, c.ready, extra);
      for (const e of p.events) {
        if (e.failed !== undefined) schedule(e.at, () => failed('readiness', e.failed!));
        if (e.result !== undefined) {
          const ready = e.result;
          schedule(e.at, () => void (c.ready = ready));
        }
      }
      if (p.resumeAt !== undefined) schedule(p.resumeAt, () => this.replan(c), true);
      if (readiness.httpGet)
        httpProbes.push({
          kind: 'readiness',
          probe: readiness,
          schedule: this.schedule(c, 'readiness'),
          from: startedTime,
          extra,
        });
    } else if (!behavior.neverReady) {
      // No readiness probe: ready once started (the behaviour `ready-after` holds it back).
      const readyAt = Math.max(startedTime, startedAt + (behavior.readyAfterMs ?? 0));
      if (readyAt <= this.host.clock.now()) c.ready = true;
      else if (readyAt > started || c.started) schedule(readyAt, () => void (c.ready = true));
    }
    return httpProbes;
  }

  /** `started`: a sidecar started once lets the next init container run. */
  private markStarted(c: ContainerRuntime): void {
    c.started = true;
    if (c.sidecar) c.initialized = true;
  }

  private replan(c: ContainerRuntime): void {
    if (c.state.kind !== 'running' || c.stopping || this.done) return;
    this.planProbes(c, this.host.clock.now(), false);
  }

  /** The pod's files changed (a container started or stopped, an exec wrote something): probes are worked out again. */
  private replanAll(except?: ContainerRuntime): void {
    for (const c of this.all) if (c !== except && c.state.kind === 'running' && !c.stopping) this.replan(c);
  }

  /** A liveness or startup failure: the container is killed, and restarted as its policy says. */
  private killForProbe(c: ContainerRuntime, kind: 'liveness' | 'startup'): void {
    if (c.stopping || this.terminating) return;
    const restart = c.sidecar || (this.pod.spec?.restartPolicy ?? 'Always') !== 'Never';
    this.event('Normal', 'Killing', msg.probeKill(kind, c.spec.name, c.init, restart));
    const probe = kind === 'liveness' ? c.spec.livenessProbe : c.spec.startupProbe;
    const seconds = probe?.terminationGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30;
    this.signal(c, this.host.clock.now() + Math.max(seconds * 1000, MIN_GRACE_MS));
  }

  /** SIGTERM (or the image's stop signal): the process stops as it handles it, or SIGKILL ends it at `deadline`. */
  private signal(c: ContainerRuntime, deadline: number): void {
    if (c.state.kind !== 'running' || c.stopping) return;
    c.stopping = true;
    for (const t of takeTokens(c)) this.timers.cancel(t);
    this.logs.signaled(c.spec.name);
    const handling = c.run?.signal ?? { kind: 'exit', code: 0 };
    const kill = this.guard(c, () => this.exited(c, 137, 'Error', 'killed'));
    if (handling.kind === 'exit') {
      const stopAt = this.host.clock.now() + draw(this.host, this.host.delays.stop);
      if (stopAt < deadline) {
        const code = handling.code;
        addToken(
          c,
          this.at(
            stopAt,
            this.guard(c, () => this.exited(c, code, code === 0 ? 'Completed' : 'Error', 'stopped')),
          ),
        );
        return;
      }
    }
    addToken(c, this.at(deadline, kill));
  }

  // ---- exits and restarts -------------------------------------------------

  /** A container instance ended; decide on a restart as its restart policy says. */
  private exited(c: ContainerRuntime, exitCode: number, reason: string, cause: ExitCause = 'exit'): void {
    if (c.state.kind !== 'running') return;
    const now = this.host.clock.now();
    this.logs.exited(c.spec.name, exitCode, reason === 'OOMKilled', cause);
    for (const t of takeTokens(c)) this.timers.cancel(t);
    if (c.exitToken !== undefined) this.timers.cancel(c.exitToken);
    c.exitToken = undefined;
    c.fs?.cutWriters(now);
    c.state = {
      kind: 'terminated',
      termination: { exitCode, reason, startedAt: c.state.startedAt, finishedAt: now, containerID: c.containerID },
    };
    c.instance++;
    c.started = false;
    c.stopping = false;
    c.ready = c.init && !c.sidecar && exitCode === 0;
    c.run = undefined;
    this.replanAll();
    if (this.terminating) return this.terminationProgress();
    const policy = this.pod.spec?.restartPolicy ?? 'Always';
    const restart = c.sidecar
      ? true
      : c.init
        ? exitCode !== 0 && policy !== 'Never'
        : policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
    if (restart) this.later(this.host.delays.sync, () => this.restartCheck(c));
    else this.completionCheck();
  }

  /**
   * kuberuntime `doBackOff`: restart now, or wait in CrashLoopBackOff until the window measured from the exit closes.
   */
  private restartCheck(c: ContainerRuntime): void {
    if (this.terminating || this.done) return;
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
    this.attempt(c);
  }

  /**
   * computePodActions' `KillPod`: every regular container is done and none will restart (or an init container failed
   * under `Never`) — the sidecars still running are stopped, and the pod ends.
   */
  private completionCheck(): void {
    if (this.terminating || this.done) return;
    const policy = this.pod.spec?.restartPolicy ?? 'Always';
    const initFailed =
      policy === 'Never' &&
      this.inits.some((c) => !c.sidecar && c.state.kind === 'terminated' && c.state.termination.exitCode !== 0);
    const regularDone =
      policy !== 'Always' &&
      this.regular.every(
        (c) => c.state.kind === 'terminated' && (policy === 'Never' || c.state.termination.exitCode === 0),
      );
    if (!initFailed && !regularDone) return;
    if (!this.all.some((c) => c.state.kind === 'running')) return;
    const seconds = this.pod.spec?.terminationGracePeriodSeconds ?? 30;
    this.beginTermination('complete', Math.max(0, seconds) * 1000);
  }

  // ---- termination --------------------------------------------------------

  private graceMs(): number {
    const meta = this.pod.metadata;
    const seconds = meta?.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30;
    return Math.max(0, seconds) * 1000;
  }

  private running(): ContainerRuntime[] {
    return this.all.filter((c) => c.state.kind === 'running');
  }

  /** Deletion: stop everything within the grace period (a shorter one, given later, wins). */
  private terminate(): void {
    if (this.done) {
      this.deleteAfterWrite = !this.disposed;
      return;
    }
    const grace = this.graceMs();
    if (this.terminating) {
      // A second, shorter grace period (e.g. --grace-period=0 --force): what is left is killed then.
      const deadline = this.host.clock.now() + grace;
      if (deadline < this.terminating.startedAt + this.terminating.graceMs) {
        this.terminating = { ...this.terminating, kind: 'delete', graceMs: deadline - this.terminating.startedAt };
        this.at(deadline, () => {
          for (const c of this.running()) this.exited(c, 137, 'Error', 'killed');
        });
      } else this.terminating.kind = 'delete';
      return;
    }
    this.beginTermination('delete', grace);
  }

  /** The pod's `activeDeadlineSeconds` passed: it is killed and fails (pkg/kubelet/active_deadline.go). */
  private deadline(): void {
    if (this.terminating || this.done) return;
    this.deadlineExceeded = true;
    this.event('Warning', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline');
    this.beginTermination('deadline', Math.max(0, this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000);
  }

  /**
   * killPodWithSyncResult: the regular containers get SIGTERM at once; each sidecar, in reverse order, once the regular
   * containers and the sidecars after it have stopped, with what is left of the grace period (at least 2 s).
   */
  private beginTermination(kind: Termination_['kind'], graceMs: number): void {
    const now = this.host.clock.now();
    this.terminating = { kind, startedAt: now, graceMs };
    // Nothing more starts: pulls, retries and planned exits and probes are dropped.
    this.timers.cancelAll();
    for (const c of this.all) {
      c.busy = false;
      c.tokens = NO_TOKENS;
      c.exitToken = undefined;
    }
    const running = this.running();
    const sidecars = this.inits.filter((c) => c.sidecar && c.state.kind === 'running').reverse();
    const others = running.filter((c) => !sidecars.includes(c));
    for (const c of [...others, ...sidecars]) this.event('Normal', 'Killing', msg.stopping(c.spec.name));
    for (const c of others) this.signal(c, now + Math.max(graceMs, MIN_GRACE_MS));
    // When the grace period is over, the sidecars still waiting for their turn get theirs (with the 2 s minimum).
    this.at(now + graceMs, () => this.terminationProgress(true));
    this.terminationProgress();
  }

  /** Gives the sidecars their turn to stop, last first. */
  private terminationProgress(graceOver = false): void {
    const term = this.terminating;
    if (!term) return;
    const now = this.host.clock.now();
    const regularRunning = this.all.some((c) => !c.sidecar && c.state.kind === 'running');
    const sidecars = this.inits.filter((c) => c.sidecar);
    for (let i = sidecars.length - 1; i >= 0; i--) {
      const c = sidecars[i];
      if (c.state.kind !== 'running' || c.stopping) continue;
      const laterRunning = sidecars.slice(i + 1).some((s) => s.state.kind === 'running');
      if (!graceOver && (regularRunning || laterRunning)) break;
      // The waited time counts in whole seconds (the grace period is in seconds).
      const waited = Math.floor((now - term.startedAt) / 1000) * 1000;
      this.signal(c, now + Math.max(term.graceMs - waited, MIN_GRACE_MS));
      if (!graceOver) break;
    }
  }

  /** Settles a terminal phase: the pod is finished here (and, when deleting, deleted after this write). */
  private checkTerminal(): void {
    if (this.done) return;
    const anyRunning = this.running().length > 0;
    if (this.terminating) {
      if (anyRunning) return;
      this.finish();
      if (this.terminating.kind === 'delete') this.deleteAfterWrite = true;
      return;
    }
    if (!TERMINAL.has(this.phase())) return;
    if (anyRunning) return this.completionCheck();
    this.finish();
  }

  private finish(): void {
    this.done = true;
    this.sandboxReady = false;
    this.timers.cancelAll();
  }

  // ---- status -------------------------------------------------------------

  private phase(): PodPhase {
    if (this.deadlineExceeded) return 'Failed';
    const spec = this.pod.spec!;
    const phase = podPhase(
      spec,
      this.inits.map(containerStatus),
      this.regular.map(containerStatus),
      this.terminating !== undefined && this.running().length === 0,
    );
    return this.done && this.terminating?.kind === 'delete' && !TERMINAL.has(phase) ? 'Failed' : phase;
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
    if (this.deadlineExceeded)
      Object.assign(status, {
        reason: 'DeadlineExceeded',
        message: 'Pod was active on the node longer than the specified deadline',
      });
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

export type { ContainerRun };
