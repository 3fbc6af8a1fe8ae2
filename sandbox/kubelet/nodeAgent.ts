/**
 * Registration and heartbeats (pkg/kubelet/kubelet_node_status.go,
 * nodelease): creates the Node (or takes over an existing one), renews the
 * Lease every 10 s, and re-posts node status when its conditions differ from
 * what the API holds or every 5 min. Its timer is background housekeeping.
 */
import type { NodeCondition } from 'kubernetes-types/core/v1';
import { isApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import type { TimerHandle } from '../clock/clock';
import { formatMicroTime } from '../clock/clock';
import type { ComponentContext, Recorder } from '../client/component';
import type { KubeletDelays } from './delays';
import type { NodeConfig } from './nodeConfig';
import { NODE_LEASE_NAMESPACE, conditionsKey, newLease, newNode, nodeStatus } from './nodeObject';
import { isExtendedResourceName } from '../api/resourceNames';

type ResourceList = Record<string, string>;

/**
 * Extended resources advertised in the Node's capacity by someone else (a PATCH of `nodes/status`, as the docs'
 * "Advertise Extended Resources for a Node" does) stay in capacity, and allocatable follows capacity for them; one
 * that left capacity leaves allocatable (upstream `nodestatus.MachineInfo`). Returns whether allocatable's extended
 * resources changed, which the kubelet posts at its next status update (every 10 s) like any other status change.
 */
function keepExtendedResources(
  next: Record<string, unknown>,
  old: { capacity?: object; allocatable?: object },
): boolean {
  const oldCapacity = (old.capacity ?? {}) as ResourceList;
  const oldAllocatable = (old.allocatable ?? {}) as ResourceList;
  const capacity = next.capacity as ResourceList;
  const allocatable = next.allocatable as ResourceList;
  for (const name in oldCapacity) {
    if (!isExtendedResourceName(name) || name in capacity) continue;
    capacity[name] = oldCapacity[name];
    allocatable[name] = oldCapacity[name];
  }
  for (const name in allocatable)
    if (isExtendedResourceName(name) && allocatable[name] !== oldAllocatable[name]) return true;
  for (const name in oldAllocatable) if (isExtendedResourceName(name) && !(name in allocatable)) return true;
  return false;
}

const REGISTRATION_EVENTS = ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID'];

export class NodeAgent {
  private timer: TimerHandle | undefined;
  private lastReport = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly config: NodeConfig,
    private readonly recorder: Recorder,
    private readonly delays: KubeletDelays,
  ) {}

  start(): void {
    this.lastReport = Number.NEGATIVE_INFINITY;
    const node = this.register();
    this.renewLease(node);
    this.schedule();
  }

  stop(): void {
    if (this.timer) this.ctx.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.timer = this.ctx.clock.setTimer(this.delays.leaseRenew, () => this.tick(), { background: true });
  }

  private tick(): void {
    const node = this.postStatus();
    this.renewLease(node);
    this.schedule();
  }

  /** Creates the Node with its standard events, or posts status on the existing one. */
  private register(): KubeObject {
    const { api, clock } = this.ctx;
    if (api.tryGet('nodes', undefined, this.config.name)) return this.postStatus();
    const node = api.create(newNode(this.config, clock.now()));
    this.lastReport = clock.now();
    this.recorder.event(node, 'Normal', 'Starting', 'Starting kubelet.');
    for (const reason of REGISTRATION_EVENTS)
      this.recorder.event(node, 'Normal', reason, `Node ${this.config.name} status is now: ${reason}`);
    this.recorder.event(node, 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    this.recorder.event(node, 'Normal', 'NodeReady', `Node ${this.config.name} status is now: NodeReady`);
    return node;
  }

  /** Posts status when the conditions the API holds differ from the kubelet's, or the report interval has passed. */
  private postStatus(): KubeObject {
    const { api, clock } = this.ctx;
    const current = api.tryGet('nodes', undefined, this.config.name);
    if (!current) return this.register();
    const now = clock.now();
    const old = current.status ?? {};
    const next = nodeStatus(this.config, now, old.conditions ?? []);
    const extendedChanged = keepExtendedResources(next, old);
    const changed =
      extendedChanged || conditionsKey(next.conditions as NodeCondition[]) !== conditionsKey(old.conditions ?? []);
    if (!changed && now - this.lastReport < this.delays.nodeStatusReport) return current;
    const wasReady = (old.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
    const written = api.updateStatus({ ...current, status: { ...current.status, ...next } });
    this.lastReport = now;
    if (!wasReady)
      this.recorder.event(written, 'Normal', 'NodeReady', `Node ${this.config.name} status is now: NodeReady`);
    return written;
  }

  private renewLease(node: KubeObject): void {
    const { api, clock } = this.ctx;
    const lease = api.tryGet('leases', NODE_LEASE_NAMESPACE, this.config.name);
    try {
      if (!lease) api.create(newLease(node, clock.now()));
      else
        api.update({
          ...lease,
          spec: {
            ...lease.spec,
            holderIdentity: this.config.name,
            renewTime: formatMicroTime(clock.now()),
          },
        });
    } catch (e) {
      // The lease namespace may be missing in a bare API server; the node status still carries the heartbeat.
      if (!isApiError(e)) throw e;
    }
  }
}
