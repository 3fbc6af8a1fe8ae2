/**
 * The node lifecycle controller (upstream pkg/controller/nodelifecycle):
 * watches kubelet heartbeats (node Leases and the Ready condition), turns a
 * silent node's conditions Unknown after the grace period and marks its pods
 * not ready, and keeps the condition taints (`not-ready`, `unreachable`,
 * pressure, `unschedulable`) in step with the node's conditions.
 *
 * Architecture invariant: the periodic monitor pass runs on a background
 * timer (housekeeping), but once a node's heartbeat is late, the moment its
 * grace period ends is a foreground timer — real pending work — so a
 * simulator that only advances to foreground timers still sees the node
 * go Unknown.
 */
import type { NodeSpec } from 'kubernetes-types/core/v1';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { KubeObject } from '../../api/types';
import type { TimerHandle } from '../../clock/clock';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { humanDuration } from '../../printers/duration';
import { cloneJson } from '../../util/json';
import { Controller, type Watches } from '../framework/controller';
import { conditionsWhenSilent, lastHeartbeat } from './health';
import { markPodsNotReady } from './markPodsNotReady';
import { ensurePodNodeIndex, podsOnNode } from './podsByNode';
import { describeTaints, desiredTaints, nodeCondition, reconcileTaints } from './taints';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** `--node-monitor-grace-period`: 50 s since v1.32 (kube-controller-manager's options). */
export const DEFAULT_NODE_MONITOR_GRACE_MS = 50_000;

export interface NodeLifecycleOptions {
  /** How often heartbeats are checked (`--node-monitor-period`, default 5 s). */
  monitorPeriodMs?: number;
  /** Silence after which a node is Unknown (`--node-monitor-grace-period`, default 50 s since v1.32). */
  gracePeriodMs?: number;
  /** Grace for a node that never posted a Ready condition (`--node-startup-grace-period`, default 60 s). */
  startupGracePeriodMs?: number;
  /**
   * A heartbeat older than this is late: the end of its grace period becomes a foreground timer (default 20 s, two
   * lease renewals).
   */
  lateHeartbeatMs?: number;
}

type CachedNode = ObjectsByResource['nodes'];
type CachedPod = ObjectsByResource['pods'];

const isReady = (n: CachedNode | undefined): boolean => !!n && nodeCondition(n, 'Ready')?.status === 'True';

/**
 * Three queues, as upstream's: node taints (`reconcile`, upstream's `nodeUpdateQueue`), pods newly bound to a node
 * that is not Ready (`podUpdateQueue`), and nodes whose lease changed while their heartbeat was late.
 */
export class NodeLifecycleController extends Controller {
  private readonly options: Required<NodeLifecycleOptions>;
  private readonly podQueue = this.newQueue((key) => this.syncPod(key));
  private readonly healthQueue = this.newQueue((name) => this.checkNode(name));
  /** The end of a late node's grace period: a foreground timer, withdrawn when the heartbeat comes. */
  private readonly graceTimers = this.newTimers((name) => this.checkNode(name));
  private nodes!: Informer<CachedNode>;
  private leases!: Informer<ObjectsByResource['leases']>;
  private pods!: Informer<CachedPod>;
  private monitorTimer: TimerHandle | undefined;
  /** Nodes registered with this controller, name → uid (for RegisteredNode / RemovingNode). */
  private readonly known = new Map<string, string>();
  /** When this controller first saw each node: a node is never judged on silence from before that. */
  private readonly firstSeen = new Map<string, number>();
  private readyNodes = 0;

  constructor(ctx: ComponentContext, options: NodeLifecycleOptions = {}) {
    super(ctx, { name: 'node-lifecycle-controller', recorderName: 'node-controller' });
    this.options = {
      monitorPeriodMs: options.monitorPeriodMs ?? 5_000,
      gracePeriodMs: options.gracePeriodMs ?? DEFAULT_NODE_MONITOR_GRACE_MS,
      startupGracePeriodMs: options.startupGracePeriodMs ?? 60_000,
      lateHeartbeatMs: options.lateHeartbeatMs ?? 20_000,
    };
  }

  protected watch(w: Watches): void {
    this.leases = w.informer('leases');
    this.pods = w.informer('pods');
    ensurePodNodeIndex(this.pods.cache);
    this.nodes = w.informer('nodes');
    w.handle(this.nodes, {
      onAdd: (n) => this.nodeChanged(undefined, n),
      onUpdate: (o, n) => this.nodeChanged(o, n),
      onDelete: (n) => this.nodeChanged(n, undefined),
    });
    w.handle(this.leases, { onAdd: (l) => this.leaseChanged(l), onUpdate: (_, l) => this.leaseChanged(l) });
    w.handle(this.pods, {
      onAdd: (p) => this.podChanged(undefined, p),
      onUpdate: (o, p) => this.podChanged(o, p),
    });
    this.monitorTimer = this.ctx.clock.setTimer(this.options.monitorPeriodMs, () => this.tick(), { background: true });
  }

  protected override onStop(): void {
    if (this.monitorTimer) this.ctx.clock.clearTimer(this.monitorTimer);
  }

  // ---- handlers: bookkeeping and keys only ----------------------------------

  private nodeChanged(old: CachedNode | undefined, node: CachedNode | undefined): void {
    const name = (node ?? old)!.metadata.name!;
    if (node && !old && !this.firstSeen.has(name)) this.firstSeen.set(name, this.ctx.clock.now());
    const wasDisrupted = this.fullyDisrupted();
    this.readyNodes += Number(isReady(node)) - Number(isReady(old));
    if (this.fullyDisrupted() !== wasDisrupted) {
      this.recorder.logOnly(
        name,
        'Normal',
        wasDisrupted ? 'ExitingDisruptionMode' : 'EnteringDisruptionMode',
        wasDisrupted
          ? 'Controller detected that some Nodes are Ready. Exiting master disruption mode'
          : 'Controller detected that all Nodes are not-Ready. Entering master disruption mode',
      );
      for (const key of this.nodes.cache.keys().sort()) this.queue.add(key);
    }
    this.queue.add(name);
    if (!node) this.firstSeen.delete(name);
  }

  private leaseChanged(lease: ObjectsByResource['leases']): void {
    if (lease.metadata.namespace !== NODE_LEASE_NAMESPACE) return;
    // Only a node already waited on needs a look: a renewal cancels its grace timer.
    if (this.graceTimers.has(lease.metadata.name!)) this.healthQueue.add(lease.metadata.name!);
  }

  private podChanged(old: CachedPod | undefined, pod: CachedPod): void {
    const node = pod.spec?.nodeName ?? '';
    const before = old?.spec?.nodeName ?? '';
    if (node !== '' && node !== before) this.podQueue.add(`${pod.metadata.namespace}/${pod.metadata.name}`);
  }

  /** Every node is down (upstream's full disruption): no NoExecute taints, so nothing is evicted. */
  private fullyDisrupted(): boolean {
    return this.readyNodes === 0 && this.nodes.cache.size > 0;
  }

  // ---- the monitor pass --------------------------------------------------------

  private tick(): void {
    if (!this.running) return;
    this.registerNodes();
    for (const name of this.nodes.cache.keys().sort()) this.checkNode(name);
    this.monitorTimer = this.ctx.clock.setTimer(this.options.monitorPeriodMs, () => this.tick(), { background: true });
  }

  private registerNodes(): void {
    const names = new Set(this.nodes.cache.keys());
    for (const name of [...names].sort()) {
      if (this.known.has(name)) continue;
      const node = this.nodes.cache.get(name)!;
      this.known.set(name, node.metadata.uid ?? '');
      this.recorder.event(
        node,
        'Normal',
        'RegisteredNode',
        `Node ${name} event: Registered Node ${name} in Controller`,
      );
    }
    for (const [name, uid] of [...this.known].sort(([a], [b]) => a.localeCompare(b))) {
      if (names.has(name)) continue;
      this.known.delete(name);
      const ref: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name, uid } };
      this.recorder.event(ref, 'Normal', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
    }
  }

  /** Judges one node's heartbeat: Unknown once past the grace period; a foreground timer for that moment once late. */
  private checkNode(name: string): void {
    const node = this.nodes.cache.get(name);
    if (!node) return this.graceTimers.cancel(name);
    const now = this.ctx.clock.now();
    const lease = this.leases.cache.get(`${NODE_LEASE_NAMESPACE}/${name}`);
    const posted = nodeCondition(node, 'Ready') !== undefined;
    const heard = Math.max(
      lastHeartbeat(node, lease),
      posted ? (this.firstSeen.get(name) ?? now) : Number.NEGATIVE_INFINITY,
    );
    const deadline = heard + (posted ? this.options.gracePeriodMs : this.options.startupGracePeriodMs);
    if (now >= deadline) {
      this.graceTimers.cancel(name);
      this.markSilent(node, now - heard);
    } else if (now - heard >= this.options.lateHeartbeatMs) {
      this.graceTimers.schedule(name, deadline - now);
    } else {
      this.graceTimers.cancel(name);
    }
  }

  /**
   * The node has been silent too long: conditions Unknown; on the Ready → not-Ready transition, an event and its pods
   * not ready.
   */
  private markSilent(node: CachedNode, silentFor: number): void {
    const now = this.ctx.clock.now();
    const conditions = conditionsWhenSilent(node, now);
    if (!conditions) return;
    const wasReady = nodeCondition(node, 'Ready')?.status === 'True';
    const copy = cloneJson(node);
    copy.status = { ...copy.status, conditions };
    this.ctx.api.updateStatus(copy);
    const name = node.metadata.name!;
    this.recorder.logOnly(
      node,
      'Warning',
      'NodeStatusUnknown',
      `Node ${name} hasn't been updated for ${humanDuration(silentFor)}: Ready, MemoryPressure, DiskPressure and PIDPressure are now Unknown`,
    );
    if (!wasReady) return;
    this.recorder.event(node, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    markPodsNotReady(this.ctx.api, this.recorder, podsOnNode(this.pods.cache, name), name, now);
  }

  // ---- reconcilers -------------------------------------------------------------

  /** The node's controller-owned taints follow its conditions and `spec.unschedulable`. */
  protected reconcile(name: string): void {
    const node = this.nodes.cache.get(name);
    if (!node) return;
    const change = reconcileTaints(
      node.spec?.taints,
      desiredTaints(node, !this.fullyDisrupted()),
      this.ctx.clock.now(),
    );
    if (!change) return;
    const spec: NodeSpec = { ...cloneJson(node).spec, taints: change.taints };
    if (change.taints.length === 0) delete spec.taints;
    this.ctx.api.update({ ...node, spec });
    if (change.added.length > 0)
      this.recorder.logOnly(node, 'Normal', 'TaintAdded', `Added taints ${describeTaints(change.added)}`);
    if (change.removed.length > 0)
      this.recorder.logOnly(node, 'Normal', 'TaintRemoved', `Removed taints ${describeTaints(change.removed)}`);
  }

  /** A pod newly bound to a node that is not Ready is marked not ready at once (upstream `processPod`). */
  private syncPod(key: string): void {
    const pod = this.pods.cache.get(key);
    if (!pod) return;
    const nodeName = pod.spec?.nodeName ?? '';
    const node = this.nodes.cache.get(nodeName);
    const ready = node ? nodeCondition(node, 'Ready') : undefined;
    if (!ready || ready.status === 'True') return;
    markPodsNotReady(this.ctx.api, this.recorder, [pod], nodeName, this.ctx.clock.now());
  }
}
