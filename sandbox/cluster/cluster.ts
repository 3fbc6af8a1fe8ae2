/**
 * The composition root: one API server, every controller, the scheduler and
 * one kubelet per node, all on one clock and one seed. The CLI, the extension
 * and the HTTP API create a Cluster; nothing else wires components together.
 */
import { ApiServer } from '../apiserver/apiServer';
import type { ApiServerOptions } from '../apiserver/apiServer';
import { applyManifest } from '../operations/apply/apply';
import type { ApplyResult } from '../operations/apply/apply';
import { scale } from '../operations/scale';
import type { ScaleResult } from '../operations/scale';
import type { Clock } from '../clock/clock';
import { SeededRandom } from '../clock/random';
import { VirtualClock } from '../clock/virtualClock';
import { InformerFactory } from '../client/informerFactory';
import type { KubeObject } from '../api/types';
import type { Pod } from 'kubernetes-types/core/v1';
import { notFound } from '../api/errors';
import { resourceByName } from '../api/resources';
import type { PodLogOptions } from '../kubelet/logs/logOptions';
import { kubeletUnreachable, logContainerName, validateLogOptions } from '../kubelet/logs/logErrors';
import type { NodeConfig } from '../kubelet/nodeConfig';
import { Kubelet } from '../kubelet/kubelet';
import { backendUnreachable, streamContainer } from '../kubelet/exec';
import type { ExecResult } from '../kubelet/exec';
import { Scheduler } from '../scheduler/scheduler';
import type { SchedulingExplanation } from '../scheduler/scheduler';
import type { Component, ComponentContext } from '../client/component';
import { controllerComponents } from './components';
import { ReconcileLog } from '../client/reconcileLog';
import { LoadTable } from '../client/metrics/loadTable';
import { SimulatedMetricsServer } from '../client/metrics/metricsServer';
import type { UsageSpec } from '../client/metrics/usage';
import { runUntilSettled } from './settle';
import type { SettleReport } from './settle';
import { describeUnsettled } from './describe';
import { standardStorageClass } from '../controllers/volume/persistentVolumeController';
import { Timeline } from '../timeline/timeline';
import { recordChange } from '../timeline/changes';
import { recordApply } from '../timeline/apply';
import type { ManifestSource } from '../timeline/apply';

export type { PodLogOptions } from '../kubelet/logs/logOptions';
export type { ExecResult } from '../kubelet/exec';

export interface ClusterOptions {
  /** Seed for every random choice (default 1). */
  seed?: number | string;
  /** Default: a VirtualClock at 2026-01-01T00:00:00Z. */
  clock?: Clock;
  /** Node count (named node-1 … node-N) or explicit node configs. Default 3. */
  nodes?: number | NodeConfig[];
  /** Applied to every generated node config. */
  nodeDefaults?: Partial<Omit<NodeConfig, 'name'>>;
  /**
   * Spread the generated nodes over this many zones: node i gets `topology.kubernetes.io/zone: zone-<a, b, c…>`
   * round-robin (the label cloud providers set; PodTopologySpread and InterPodAffinity spread over it). Default 0:
   * no zone label, as kind's nodes have none.
   */
  zones?: number;
  /** Start from an existing API server (e.g. restored from a snapshot). */
  api?: ApiServer;
  historyCapacity?: ApiServerOptions['historyCapacity'];
  /** false: no metrics-server, as on a bare cluster (HPAs report that the resource metrics API is missing). */
  metricsServer?: boolean;
  /** false: no default StorageClass (kind has `standard`). */
  storageClass?: boolean;
  /**
   * With `api` restored from a snapshot of a running cluster: the kubelets resume the pods Running on their nodes as
   * they are (containers, IPs, readiness, probe period) instead of starting them again (`KubeletOptions.resumePods`).
   */
  resumePods?: boolean;
  /** The API server's PodSecurity admission configuration (levels for unlabelled namespaces, exemptions). */
  podSecurity?: ApiServerOptions['podSecurity'];
  /** The Kubernetes release whose built-in kinds a new API server serves (default: the process's active release). */
  kubernetesVersion?: string;
  /**
   * Nodes whose kubelet does not start with the cluster, as if Fail Node had stopped it (a fork of a running sandbox
   * with failed nodes): their Node objects stay as they are and the node lifecycle controller goes on from there;
   * `recoverNode` starts them.
   */
  failedNodes?: readonly string[];
  /**
   * Record the causal timeline (sandbox/timeline): true for the default cap (10,000 entries), or the cap. Default
   * off (`simulate --explain` turns it on).
   */
  timeline?: boolean | number;
}

export interface SettleResult extends SettleReport {
  /** What is still not converged (deployments rolling, pods not ready, nodes not ready…). */
  pending: string[];
}

/** The well-known zone label (`v1.LabelTopologyZone`). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** `zone-a`, `zone-b`, … */
export function zoneName(i: number): string {
  return `zone-${String.fromCharCode(97 + i)}`;
}

function nodeConfigs(options: ClusterOptions): NodeConfig[] {
  const nodes = options.nodes ?? 3;
  if (Array.isArray(nodes)) return nodes;
  if (!Number.isInteger(nodes) || nodes < 0)
    throw new RangeError(`node count must be a non-negative integer, got ${nodes}`);
  const zones = options.zones ?? 0;
  if (!Number.isInteger(zones) || zones < 0 || zones > 26)
    throw new RangeError(`zone count must be an integer from 0 to 26, got ${zones}`);
  return Array.from({ length: nodes }, (_, i) => {
    const config: NodeConfig = { ...options.nodeDefaults, name: `node-${i + 1}`, index: i };
    if (zones > 0) config.labels = { ...config.labels, [ZONE_LABEL]: zoneName(i % zones) };
    return config;
  });
}

export class Cluster {
  readonly api: ApiServer;
  readonly clock: Clock;
  readonly log = new ReconcileLog();
  readonly random: SeededRandom;
  readonly scheduler: Scheduler;
  /** The load put on pods by `load=SELECTOR:cpu=…` (sandbox/client/metrics/loadTable.ts). */
  readonly load = new LoadTable();
  readonly metrics: SimulatedMetricsServer;
  /** The causal timeline, when `ClusterOptions.timeline` asked for one. */
  readonly timeline: Timeline | undefined;
  private readonly ctx: ComponentContext;
  private readonly kubelets = new Map<string, Kubelet>();
  private readonly components: Component[];
  private started = false;
  private readonly failedAtStart: ReadonlySet<string>;

  constructor(options: ClusterOptions = {}) {
    this.clock = options.clock ?? new VirtualClock();
    this.random = new SeededRandom(options.seed ?? 1);
    this.api =
      options.api ??
      new ApiServer({
        clock: this.clock,
        random: this.random.fork('apiserver'),
        historyCapacity: options.historyCapacity,
        podSecurity: options.podSecurity,
        ...(options.kubernetesVersion ? { kubernetesVersion: options.kubernetesVersion } : {}),
      });
    this.metrics = new SimulatedMetricsServer(this.api, this.clock, this.load, { enabled: options.metricsServer });
    const timeline = options.timeline;
    this.timeline = timeline ? new Timeline(typeof timeline === 'number' ? timeline : undefined) : undefined;
    if (this.timeline) {
      const t = this.timeline;
      this.api.observeChanges((rec) => recordChange(t, rec, this.clock.now()));
    }
    this.ctx = {
      api: this.api,
      clock: this.clock,
      random: this.random,
      informers: new InformerFactory(this.api),
      log: this.log,
      metrics: this.metrics,
      ...(this.timeline ? { timeline: this.timeline } : {}),
    };
    // kind's default StorageClass (`standard`, rancher.io/local-path, WaitForFirstConsumer), on a new cluster.
    if (!options.api && options.storageClass !== false) this.api.create(standardStorageClass());
    this.scheduler = new Scheduler(this.ctx);
    this.components = [...controllerComponents(this.ctx), this.scheduler];
    for (const config of nodeConfigs(options))
      this.kubelets.set(config.name, new Kubelet(this.ctx, config, { resumePods: options.resumePods }));
    const unknown = (options.failedNodes ?? []).filter((n) => !this.kubelets.has(n));
    if (unknown.length > 0) throw new Error(`no node named ${unknown.join(', ')}; nodes: ${this.nodeNames.join(', ')}`);
    this.failedAtStart = new Set(options.failedNodes ?? []);
  }

  /** Starts every component; kubelets register their nodes. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const c of this.components) c.start();
    for (const [name, k] of this.kubelets) if (!this.failedAtStart.has(name)) k.start();
  }

  stop(): void {
    for (const k of this.kubelets.values()) k.stop();
    for (const c of [...this.components].reverse()) c.stop();
    this.ctx.informers.stopAll();
    this.started = false;
  }

  get nodeNames(): string[] {
    return [...this.kubelets.keys()];
  }

  /** Adds a node (its kubelet registers it at once when the cluster is running). */
  addNode(config: NodeConfig): void {
    if (this.kubelets.has(config.name)) throw new Error(`node ${config.name} already exists`);
    const kubelet = new Kubelet(this.ctx, config);
    this.kubelets.set(config.name, kubelet);
    if (this.started) kubelet.start();
  }

  /**
   * `kubectl apply` of one manifest, with strict field validation as kubectl; throws the ApiError when rejected.
   * `source` (the manifest's file and lines) goes on the timeline's apply entry.
   */
  apply(
    manifest: KubeObject,
    options: { namespace?: string; warn?: (text: string) => void; source?: ManifestSource } = {},
  ): ApplyResult {
    if (!this.timeline) return applyManifest(this.api, manifest, options);
    const before = this.liveOf(manifest, options.namespace);
    const result = applyManifest(this.api, manifest, options);
    recordApply(this.timeline, this.clock.now(), result.action, before, result.object, options.source);
    return result;
  }

  /** The stored object a manifest names, if any (for the timeline's view of what an apply changed). */
  private liveOf(manifest: KubeObject, namespace: string | undefined): KubeObject | undefined {
    try {
      const r = this.api.resourceOf(manifest);
      const name = manifest.metadata?.name;
      if (!name) return undefined;
      return this.api.tryGet(r, r.namespaced ? manifest.metadata.namespace || namespace || 'default' : undefined, name);
    } catch {
      return undefined;
    }
  }

  // ---- fault actions: what the extension's context menus and `simulate --at` call ----
  // (what kubectl does — cordon, drain, scale, rollout restart/undo — is in sandbox/operations, on the API verbs)

  /** Deletes a pod as `kubectl delete pod` does (graceful); its owner replaces it. */
  killPod(namespace: string, name: string): KubeObject {
    return this.api.delete('pods', namespace, name);
  }

  /** Makes a container exit in place; its kubelet restarts it per restartPolicy. */
  crashContainer(namespace: string, pod: string, container?: string): void {
    const obj = this.api.get('pods', namespace, pod);
    const node = (obj.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!node) throw new Error(`pod ${namespace}/${pod} is not running on a node`);
    this.kubelet(node).crashContainer(namespace, pod, container);
  }

  /** The node's kubelet stops: no heartbeats, no pod updates. The node lifecycle controller takes it from there. */
  failNode(name: string): void {
    this.kubelet(name).stop();
  }

  recoverNode(name: string): void {
    this.kubelet(name).start();
  }

  /** False while Fail Node has stopped the node's kubelet. */
  isKubeletRunning(name: string): boolean {
    return this.kubelet(name).isRunning;
  }

  /**
   * Puts a total load on the pods `selector` matches in `namespace` (shared by those Ready), from now on; resources
   * the spec leaves out keep their value. Throws on a selector that does not parse.
   */
  setLoad(namespace: string, selector: string, usage: UsageSpec): void {
    this.load.set(namespace, selector, usage, this.clock.now());
  }

  /** `kubectl scale` through the `/scale` subresource (sandbox/operations/scale.ts). */
  scale(resource: string, namespace: string, name: string, replicas: number): ScaleResult {
    return scale(this.api, resource, namespace, name, replicas);
  }

  /** Why the scheduler placed (or could not place) a pod. */
  explain(namespace: string, pod: string): SchedulingExplanation | undefined {
    return this.scheduler.explain(namespace, pod);
  }

  // ---- container logs: `GET /api/v1/namespaces/{ns}/pods/{name}/log` ----

  /**
   * A container's log, as `kubectl logs` gets it. Throws upstream's
   * ApiErrors: 422 for bad options, 404 for a missing pod, 400 when the
   * container must be named, is unknown, has not started, or has no
   * previous instance, 500 when the pod's node has failed. A pod not yet
   * scheduled has an empty log.
   */
  podLogs(namespace: string, pod: string, options: PodLogOptions = {}): string {
    const target = this.logTarget(namespace, pod, options, false);
    return target ? target.kubelet.containerLogs(target.pod, target.container, options) : '';
  }

  /**
   * `kubectl logs -f`: calls `onText` with the log so far (synchronously,
   * before returning) and then with new text as the container prints it;
   * `onEnd` when the stream ends (the container stopped, the byte limit, the
   * node failed, the pod left its node). Throws as `podLogs` does. Returns
   * the unsubscribe, after which nothing more is called.
   */
  followPodLogs(
    namespace: string,
    pod: string,
    options: PodLogOptions,
    onText: (text: string) => void,
    onEnd: () => void = () => undefined,
  ): () => void {
    const target = this.logTarget(namespace, pod, options, true);
    if (!target) {
      onEnd();
      return () => undefined;
    }
    return target.kubelet.followContainerLogs(target.pod, target.container, options, onText, onEnd);
  }

  /**
   * The API server's part (pkg/registry/core/pod `LogLocation`): which kubelet and container; undefined for an
   * unscheduled pod.
   */
  private logTarget(
    namespace: string,
    name: string,
    options: PodLogOptions,
    follow: boolean,
  ): { kubelet: Kubelet; pod: Pod; container: string } | undefined {
    validateLogOptions(name, options);
    const pod = this.api.get('pods', namespace, name);
    const container = logContainerName(pod, options.container);
    if (!pod.spec?.nodeName) return undefined;
    const kubelet = this.podKubelet(pod);
    if (!kubelet.isRunning) throw kubeletUnreachable(kubelet.hostIP, pod, container, { ...options, follow });
    return { kubelet, pod, container };
  }

  // ---- `kubectl exec`: `/api/v1/namespaces/{ns}/pods/{name}/exec` ----

  /**
   * Runs a command in a running container (see sandbox/kubelet/exec.ts: the
   * shell interpreter, no real processes). Throws upstream's ApiErrors: 404
   * for a missing pod, 400 for a container that must be named, is unknown or
   * is not running, 500 when the pod's node has failed.
   */
  exec(namespace: string, pod: string, container: string | undefined, argv: readonly string[]): ExecResult {
    const obj = this.api.get('pods', namespace, pod);
    const name = streamContainer(obj, 'exec', container)!;
    const kubelet = this.podKubelet(obj);
    if (!kubelet.isRunning) throw backendUnreachable(kubelet.hostIP);
    return kubelet.exec(obj, name, argv);
  }

  /** The kubelet of the node a pod is bound to; 404 for a node the cluster does not have. */
  private podKubelet(pod: Pod): Kubelet {
    const node = pod.spec?.nodeName ?? '';
    const kubelet = this.kubelets.get(node);
    if (!kubelet) throw notFound(resourceByName('nodes')!, node);
    return kubelet;
  }

  // ---- time ----

  /** Advances virtual time by `ms` (VirtualClock only). */
  runFor(ms: number): void {
    this.virtualClock().advance(ms);
  }

  /** Advances virtual time until nothing is pending, or `limitMs` passes; says what is still pending. */
  runUntilSettled(limitMs = 10 * 60 * 1000): SettleResult {
    const report = runUntilSettled(this.virtualClock(), limitMs);
    return { ...report, pending: describeUnsettled(this.api, this.clock.now()) };
  }

  private virtualClock(): VirtualClock {
    if (!(this.clock instanceof VirtualClock))
      throw new Error('this cluster runs on real time; only a virtual clock can be advanced');
    return this.clock;
  }

  private kubelet(node: string): Kubelet {
    const k = this.kubelets.get(node);
    if (!k) throw new Error(`no node named ${node}; nodes: ${this.nodeNames.join(', ')}`);
    return k;
  }
}
