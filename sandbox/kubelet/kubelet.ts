/**
 * The kubelet of one simulated node: registers the Node and keeps its Lease
 * fresh, watches the pods bound to the node, admits them, and runs each
 * through a `PodWorker`. `stop()` is a node failure (nothing more is
 * written, pending pod work is frozen); `start()` again is the recovery: the
 * node re-posts Ready, and every pod resyncs — work that fell due meanwhile
 * runs at once, pods deleted meanwhile are terminated and finally deleted.
 * Containers keep running across the outage (the node lost contact, it did
 * not reboot).
 */
import type { Pod, PodStatus } from 'kubernetes-types/core/v1';
import { isApiError } from '../api/errors';
import type { ObjectsByResource } from '../api/resourceObjects';
import type { WirePodStatus } from '../api/types';
import { objectKey } from '../client/cache';
import { Informer } from '../client/informer';
import type { TimerHandle } from '../clock/clock';
import { formatTimestamp } from '../clock/clock';
import type { SeededRandom } from '../clock/random';
import type { Component, ComponentContext } from '../client/component';
import { Recorder } from '../client/component';
import { allocatableUnits, checkFit, podRequests } from './admission';
import type { Rejection } from './admission';
import { Backoff } from './backoff';
import type { KubeletDelays } from './delays';
import { DEFAULT_KUBELET_DELAYS } from './delays';
import { NodeAgent } from './nodeAgent';
import type { NodeConfig } from './nodeConfig';
import { PodIPAllocator, nodeCapacity, nodeIndex, nodeInternalIP } from './nodeConfig';
import { PodWorker } from './podWorker';
import { execResult } from './exec';
import type { ExecResult } from './exec';
import { parseQuantity, quantityToMilli, quantityValue } from '../api/quantity';
import type { WorkerHost } from './workerHost';
import type { InstanceLog } from './logs/instanceLog';
import { logContainerID } from './logs/logErrors';
import type { PodLogOptions } from './logs/logOptions';
import { formatLog } from './logs/logOptions';
import { followLog } from './logs/podLogs';

/**
 * The cluster DNS (kube-dns/CoreDNS) for a name under `cluster.local`: a Service's cluster IP
 * (`web.default.svc.cluster.local`), a headless Service's first ready endpoint, a pod by hostname and subdomain
 * (`web-0.web.default.svc.cluster.local`); undefined for a name that does not exist (NXDOMAIN).
 */
function clusterDns(ctx: ComponentContext, fqdn: string): string | undefined {
  const m = /^(?:([a-z0-9-]+)\.)?([a-z0-9-]+)\.([a-z0-9-]+)\.svc\.cluster\.local$/.exec(fqdn);
  if (!m) return undefined;
  const [, host, name, ns] = m;
  const svc = ctx.api.tryGet('services', ns, name);
  if (!svc) return undefined;
  const endpoints = () =>
    ctx.api
      .list('endpointslices', { namespace: ns, labelSelector: `kubernetes.io/service-name=${name}` })
      .items.flatMap(
        (s) =>
          (s as { endpoints?: { addresses: string[]; hostname?: string; conditions?: { ready?: boolean } }[] })
            .endpoints ?? [],
      )
      .filter((e) => e.conditions?.ready !== false);
  if (host !== undefined) return endpoints().find((e) => e.hostname === host)?.addresses[0];
  const ip = svc.spec?.clusterIP;
  if (ip && ip !== 'None') return ip;
  return endpoints()[0]?.addresses[0];
}

export type { NodeConfig, NodeCapacity } from './nodeConfig';
export { DEFAULT_NODE_CAPACITY } from './nodeConfig';
export type { KubeletDelays } from './delays';
export { DEFAULT_KUBELET_DELAYS } from './delays';
export type { PodLogOptions } from './logs/logOptions';

type CachedPod = ObjectsByResource['pods'];

export interface KubeletOptions {
  /**
   * The node goes on from a saved cluster (a fork of a running sandbox) rather than booting: pods already Running here
   * when the kubelet first starts keep their containers, IPs, restarts, readiness and probe period as the status has
   * them (`PodWorker.adopt`), so a settled cluster is settled at once. Default false: every pod starts afresh.
   */
  resumePods?: boolean;
}

export class Kubelet implements Component {
  readonly name: string;
  readonly nodeName: string;
  private readonly informer: Informer<CachedPod>;
  private readonly workers = new Map<string, PodWorker>();
  private readonly queued = new Map<string, TimerHandle>();
  private readonly agent: NodeAgent;
  private readonly host: WorkerHost;
  private readonly ips: PodIPAllocator;
  private running = false;
  private listing = false;
  private dnsPending = false;
  private dnsWatched = false;
  private startedAt = 0;
  /** The node's allocatable resources for admission, parsed once (the node config does not change). */
  private allocatable: ReturnType<typeof allocatableUnits> | undefined;

  /** Pods bound here when the kubelet first starts, to resume as they run (`KubeletOptions.resumePods`). */
  private resumable: Set<string> | undefined;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly config: NodeConfig,
    private readonly options: KubeletOptions = {},
  ) {
    this.nodeName = config.name;
    this.name = `kubelet/${config.name}`;
    const delays: KubeletDelays = { ...DEFAULT_KUBELET_DELAYS, ...(config.delays ?? {}) };
    const recorder = new Recorder(ctx, 'kubelet', config.name);
    const random: SeededRandom = ctx.random.fork(this.name);
    const index = nodeIndex(config);
    this.ips = new PodIPAllocator(index);
    this.agent = new NodeAgent(ctx, config, recorder, delays);
    this.informer = Informer.forResource(ctx.api, 'pods', { fieldSelector: `spec.nodeName=${config.name}` });
    this.informer.addHandlers({
      onAdd: (p) => this.enqueue(objectKey(p)),
      onUpdate: (_, p) => this.enqueue(objectKey(p)),
      onDelete: (p) => this.enqueue(objectKey(p)),
    });
    this.host = {
      clock: ctx.clock,
      random,
      recorder,
      delays,
      hostIP: nodeInternalIP(index),
      images: new Set(),
      restartBackoff: new Backoff(),
      pullBackoff: new Backoff(),
      allocatePodIP: () => this.ips.allocate(),
      releasePodIP: (ip) => this.ips.release(ip),
      reservePodIP: (ip) => this.ips.reserve(ip),
      readPod: (ns, name) => ctx.api.tryGet('pods', ns, name),
      readConfig: (resource, ns, name) =>
        ctx.api.tryGet(resource, ns, name) as
          | { data?: Record<string, string>; binaryData?: Record<string, string> }
          | undefined,
      readClaim: (ns, name) =>
        ctx.api.tryGet('persistentvolumeclaims', ns, name) as
          | { status?: { phase?: string }; spec?: { volumeName?: string } }
          | undefined,
      listServices: (ns) => {
        const own = ctx.api.list('services', { namespace: ns }).items;
        const master = ns === 'default' ? [] : [ctx.api.tryGet('services', 'default', 'kubernetes')];
        return [...own, ...master.filter((s) => s !== undefined)];
      },
      nodeAllocatable: (() => {
        const cap = nodeCapacity(config);
        const cpu = parseQuantity(cap.cpu);
        const memory = parseQuantity(cap.memory);
        return { cpu: cpu ? quantityToMilli(cpu) : 0, memory: memory ? quantityValue(memory) : 0 };
      })(),
      kubeletStartedAt: () => this.startedAt,
      dnsLookup: (fqdn) => {
        this.watchDns();
        return clusterDns(ctx, fqdn);
      },
      writeStatus: (pod, status) => this.writeStatus(pod, status),
      deletePod: (pod) => this.finalDelete(pod),
    };
  }

  /** Registers (or recovers) the node and starts managing its pods. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const first = this.startedAt === 0;
    if (first) this.startedAt = this.ctx.clock.now();
    this.agent.start();
    this.listing = true;
    this.informer.start();
    this.listing = false;
    if (first && this.options.resumePods) {
      this.resumable = new Set(this.informer.cache.list().map((p) => objectKey(p)));
      // Every address in use stays taken until its pod is resumed or not: a pod started afresh meanwhile gets another.
      for (const p of this.informer.cache.list()) if (p.status?.podIP) this.ips.reserve(p.status.podIP);
    }
    for (const w of this.workers.values()) w.resume();
    this.dnsChanged();
    const pods = this.informer.cache.list();
    pods.sort(
      (a, b) =>
        (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? '') ||
        objectKey(a).localeCompare(objectKey(b)),
    );
    const keys = [...pods.map((p) => objectKey(p)), ...[...this.workers.keys()].sort()];
    for (const key of keys) this.enqueue(key);
  }

  /**
   * From the first lookup of a container on this node on, the kubelet follows Services (and a headless one's
   * endpoints): what was looked up may change.
   */
  private watchDns(): void {
    if (this.dnsWatched) return;
    this.dnsWatched = true;
    const changed = () => this.dnsChanged();
    this.ctx.informers
      .get('services')
      .addHandlers({ onAdd: changed, onUpdate: (a, b) => a.spec !== b.spec && changed(), onDelete: changed });
    this.ctx.informers.get('endpointslices').addHandlers({ onAdd: changed, onUpdate: changed, onDelete: changed });
  }

  /** A Service came or went: pods whose containers looked a name up see the new answer. */
  private dnsChanged(): void {
    if (!this.running || this.dnsPending) return;
    this.dnsPending = true;
    // After the change is delivered (the kube-dns/CoreDNS answer follows the Service).
    this.ctx.clock.setTimer(0, () => {
      this.dnsPending = false;
      if (!this.running) return;
      for (const w of this.workers.values()) w.dnsChanged();
    });
  }

  /** Node failure: heartbeats stop, pod work freezes, nothing more is written. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.agent.stop();
    this.informer.stop();
    for (const handle of this.queued.values()) this.ctx.clock.clearTimer(handle);
    this.queued.clear();
    for (const w of this.workers.values()) w.suspend();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The node's InternalIP, where the API server reaches this kubelet. */
  get hostIP(): string {
    return this.host.hostIP;
  }

  /**
   * The kubelet's `/containerLogs`: the log of a container of a pod bound
   * here (the container already checked against the spec), with the
   * options applied. Throws upstream's 400s (waiting to start, no previous).
   */
  containerLogs(pod: Pod, container: string, options: PodLogOptions): string {
    const log = this.logInstance(pod, container, options.previous ?? false);
    return log ? formatLog(log.read(), options, this.ctx.clock.now()) : '';
  }

  /** The kubelet's `/exec`: runs `argv` in a running container of a pod bound here (checked by `streamContainer`). */
  exec(pod: Pod, container: string, argv: readonly string[]): ExecResult {
    const meta = pod.metadata ?? {};
    const worker = this.workers.get(`${meta.namespace}/${meta.name}`);
    const outcome = worker && worker.uid === meta.uid ? worker.exec(container, argv) : undefined;
    if (!outcome) return { stdout: '', stderr: `container not found (${JSON.stringify(container)})\n`, exitCode: 1 };
    return execResult(outcome);
  }

  /**
   * `/containerLogs?follow=true`: the log so far at once, then new text until the container stops (see `followLog`).
   */
  followContainerLogs(
    pod: Pod,
    container: string,
    options: PodLogOptions,
    onText: (text: string) => void,
    onEnd: () => void,
  ): () => void {
    const log = this.logInstance(pod, container, options.previous ?? false);
    if (!log) {
      onEnd();
      return () => undefined;
    }
    return followLog(log, options, this.ctx.clock.now(), onText, onEnd);
  }

  /** `namespace/name` of the pods this kubelet runs (admitted, not yet deleted), sorted. */
  podKeys(): string[] {
    return [...this.workers.keys()].sort();
  }

  /**
   * Fault action: a container of the pod dies in place (exit 137, reason
   * Error) and is restarted per the pod's restartPolicy, with back-off. The
   * first running container when none is named. False when the pod is not
   * running here or the container is not running.
   */
  crashContainer(namespace: string, podName: string, containerName?: string): boolean {
    if (!this.running) return false;
    return this.workers.get(`${namespace}/${podName}`)?.crash(containerName) ?? false;
  }

  private logInstance(pod: Pod, container: string, previous: boolean): InstanceLog | undefined {
    const meta = pod.metadata ?? {};
    const worker = this.workers.get(`${meta.namespace}/${meta.name}`);
    if (worker && worker.uid === meta.uid) return worker.logInstance(container, previous);
    // Not (or not yet) run by a worker here: judge by the status the API server has; no log text is kept for it.
    const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
    const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    const waiting = (pod.spec?.initContainers ?? []).length > 0 ? 'PodInitializing' : 'ContainerCreating';
    const status =
      statuses.find((s) => s.name === container) ??
      (statuses.length === 0 && !terminal ? { name: container, state: { waiting: { reason: waiting } } } : undefined);
    logContainerID(status, container, meta.name ?? '', previous);
    return undefined;
  }

  private enqueue(key: string): void {
    if (!this.running || this.listing || this.queued.has(key)) return;
    this.queued.set(
      key,
      this.ctx.clock.setTimer(0, () => {
        this.queued.delete(key);
        this.syncPod(key);
      }),
    );
  }

  private syncPod(key: string): void {
    if (!this.running) return;
    const pod = this.informer.cache.get(key);
    let worker = this.workers.get(key);
    if (worker && (!pod || pod.metadata?.uid !== worker.uid)) {
      worker.dispose();
      this.workers.delete(key);
      worker = undefined;
      // upstream: kubelet_pods.go: HandlePodCleanups ends with `kl.backOff.GC()` (here on each pod cleanup).
      this.host.restartBackoff.gc(this.ctx.clock.now());
    }
    if (!pod) return;
    if (worker) return worker.update(pod);
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp) {
      if (pod.metadata?.deletionTimestamp) this.finalDelete(pod);
      return;
    }
    const admitted: PodWorker[] = [...this.workers.values()].filter((w) => w.active);
    this.allocatable ??= allocatableUnits(nodeCapacity(this.config));
    const requests = podRequests(pod);
    const rejection = checkFit(requests, admitted, this.allocatable);
    if (rejection) return this.reject(pod, rejection);
    worker = new PodWorker(this.host, pod, requests);
    this.workers.set(key, worker);
    if (this.resumable?.delete(key)) {
      if (worker.adopt()) return;
      // Not taken over: its old sandbox is gone with its address (the new one gets its own).
      if (pod.status?.podIP) this.ips.release(pod.status.podIP);
    }
    worker.start();
  }

  /** `rejectPod`: an event, and phase Failed with reason and message. */
  private reject(pod: CachedPod, r: Rejection): void {
    this.host.recorder.event(pod, 'Warning', r.reason, r.message);
    const status: PodStatus = {
      phase: 'Failed',
      reason: r.reason,
      message: `Pod was rejected: ${r.message}`,
      startTime: formatTimestamp(this.ctx.clock.now()),
    };
    if (pod.status?.qosClass) status.qosClass = pod.status.qosClass;
    this.writeStatus(pod, status);
  }

  private writeStatus(pod: CachedPod, status: WirePodStatus): void {
    if (!this.running) return;
    try {
      this.ctx.api.updateStatus({ ...pod, status });
    } catch (e) {
      if (isApiError(e, 404)) return;
      if (!isApiError(e, 409)) throw e;
      // Stale: the next informer event re-syncs the pod and writes again.
      this.enqueue(objectKey(pod));
    }
  }

  private finalDelete(pod: Pod): void {
    if (!this.running) return;
    const meta = pod.metadata!;
    try {
      this.ctx.api.delete('pods', meta.namespace, meta.name!, {
        gracePeriodSeconds: 0,
        preconditions: { uid: meta.uid },
      });
    } catch (e) {
      if (!isApiError(e, 404) && !isApiError(e, 409)) throw e;
    }
  }
}
