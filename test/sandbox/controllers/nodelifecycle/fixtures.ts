/**
 * Test doubles for the node controllers: nodes and their Leases as kubelets
 * register them, kubelets reduced to their heartbeat (a background timer
 * renewing the Lease every 10 s), and bound, running pods.
 */
import type { KubeObject, OwnerReference } from '../../../../sandbox/api/types';
import { formatMicroTime, formatTimestamp } from '../../../../sandbox/clock/clock';
import type { Harness } from '../harness';

export const LEASE_NS = 'kube-node-lease';

export function readyCondition(at: number, status = 'True'): Record<string, string> {
  const t = formatTimestamp(at);
  return {
    type: 'Ready',
    status,
    reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady',
    message: status === 'True' ? 'kubelet is posting ready status' : 'container runtime is down',
    lastHeartbeatTime: t,
    lastTransitionTime: t,
  };
}

export function pressureConditions(at: number): Record<string, string>[] {
  const t = formatTimestamp(at);
  return [
    {
      type: 'MemoryPressure',
      status: 'False',
      reason: 'KubeletHasSufficientMemory',
      message: 'kubelet has sufficient memory available',
      lastHeartbeatTime: t,
      lastTransitionTime: t,
    },
    {
      type: 'DiskPressure',
      status: 'False',
      reason: 'KubeletHasNoDiskPressure',
      message: 'kubelet has no disk pressure',
      lastHeartbeatTime: t,
      lastTransitionTime: t,
    },
    {
      type: 'PIDPressure',
      status: 'False',
      reason: 'KubeletHasSufficientPID',
      message: 'kubelet has sufficient PID available',
      lastHeartbeatTime: t,
      lastTransitionTime: t,
    },
  ];
}

/**
 * A registered node: the pressure conditions and Ready=True (unless `posted` is false), and its Lease, all as of now.
 */
export function addNode(h: Harness, name: string, posted = true): void {
  const now = h.clock.now();
  h.api.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    spec: {},
    status: posted ? { conditions: [...pressureConditions(now), readyCondition(now)] } : {},
  });
  h.api.create({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: LEASE_NS },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: formatMicroTime(now) },
  });
}

/** Renews the node's Lease now. */
export function renewLease(h: Harness, name: string): void {
  const lease = h.api.get('leases', LEASE_NS, name);
  h.api.update({ ...lease, spec: { ...(lease.spec as object), renewTime: formatMicroTime(h.clock.now()) } });
}

/** Kubelet heartbeats: every 10 s, for the nodes still alive. */
export class Heartbeats {
  private readonly alive = new Set<string>();

  constructor(
    private readonly h: Harness,
    names: string[],
  ) {
    for (const n of names) this.alive.add(n);
    this.schedule();
  }

  stop(name: string): void {
    this.alive.delete(name);
  }

  resume(name: string): void {
    this.alive.add(name);
  }

  private schedule(): void {
    this.h.clock.setTimer(
      10_000,
      () => {
        for (const n of [...this.alive].sort()) renewLease(this.h, n);
        this.schedule();
      },
      { background: true },
    );
  }
}

/** The kubelet posting node status: the given Ready status, heartbeat now. */
export function postReady(h: Harness, name: string, status: 'True' | 'False'): void {
  const node = h.api.get('nodes', undefined, name);
  const now = h.clock.now();
  h.api.updateStatus({
    ...node,
    status: { ...(node.status as object), conditions: [...pressureConditions(now), readyCondition(now, status)] },
  });
}

/** A running, ready pod bound to `node`. */
export function addPod(
  h: Harness,
  name: string,
  node: string,
  extra: {
    tolerations?: unknown[];
    ownerReferences?: OwnerReference[];
    volumes?: unknown[];
    annotations?: Record<string, string>;
  } = {},
): KubeObject {
  const created = h.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      ...(extra.ownerReferences ? { ownerReferences: extra.ownerReferences } : {}),
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
    },
    spec: {
      nodeName: node,
      containers: [{ name: 'app', image: 'nginx' }],
      ...(extra.tolerations ? { tolerations: extra.tolerations } : {}),
      ...(extra.volumes ? { volumes: extra.volumes } : {}),
    },
  });
  const t = formatTimestamp(h.clock.now());
  return h.api.updateStatus({
    ...created,
    status: {
      ...(created.status as object),
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: t }],
    },
  });
}

export interface EventLine {
  type: string;
  reason: string;
  object: string;
  message: string;
}

/** Events recorded so far, oldest first, as `{type, reason, object, message}`. */
export function events(h: Harness): EventLine[] {
  const items = h.api.list('events').items;
  return items
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => ({
      type: e.type ?? '',
      reason: e.reason ?? '',
      object: `${e.involvedObject.kind?.toLowerCase()}/${e.involvedObject.name}`,
      message: e.message ?? '',
    }));
}
