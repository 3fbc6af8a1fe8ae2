/**
 * What the tree knows about an object's state beyond its kubectl row: the
 * `contextValue` its menus match on (a node's readiness, schedulability and
 * kubelet; a pod's phase), whether it needs attention (the "unhealthy only"
 * filter and the status bar's health summary), a node's countdown after Fail
 * Node, and a pod's last termination for its tooltip.
 */
import type { ContainerStatus, Node, Pod } from 'kubernetes-types/core/v1';
import { isKind } from '../../../sandbox/api/resourceObjects';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { parseTimestamp } from '../../../sandbox/clock/clock';
import { humanDuration, nodeStatusText } from '../../../sandbox/printers';
import type { FailedNode } from '../sandbox/protocol';
import { GREEN, RED, claimColor, nodeColor, podColor, workloadColor } from './icons';

/**
 * `node.<ready|notready|unknown>.<schedulable|unschedulable>`, with `.kubeletStopped` after Fail Node: the menus offer
 * Cordon or Uncordon, Fail Node or Recover Node, by these.
 */
export function nodeContextValue(node: Typed<Node>, failed: FailedNode | undefined): string {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const readiness = !ready ? 'unknown' : ready.status === 'True' ? 'ready' : 'notready';
  const schedulable = node.spec?.unschedulable ? 'unschedulable' : 'schedulable';
  return `node.${readiness}.${schedulable}${failed ? '.kubeletStopped' : ''}`;
}

/** `pod.running`, `pod.pending`, `pod.succeeded`, `pod.failed`, `pod.unknown`, or `pod.terminating` once deleted. */
export function podContextValue(pod: Typed<Pod>): string {
  if (pod.metadata.deletionTimestamp) return 'pod.terminating';
  const phase = pod.status?.phase ?? 'Pending';
  return `pod.${phase.toLowerCase()}`;
}

/**
 * True when the object needs a look: a pod not running and ready (finished ones aside), a node not Ready and
 * schedulable, a workload short of ready replicas, a failed Job.
 */
export function needsAttention(obj: KubeObject): boolean {
  if (isKind(obj, 'Pod')) {
    const color = podColor(obj);
    return color !== undefined && color !== GREEN;
  }
  if (isKind(obj, 'Node')) return nodeColor(obj) !== GREEN;
  if (isKind(obj, 'Job')) return (obj.status?.conditions ?? []).some((c) => c.type === 'Failed' && c.status === 'True');
  switch (obj.kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicationController': {
      const color = workloadColor(obj);
      return color !== undefined && color !== GREEN;
    }
    case 'PersistentVolumeClaim': {
      const color = claimColor(obj);
      return color !== undefined && color !== GREEN;
    }
    default:
      return false;
  }
}

/** A pod whose containers keep failing or cannot start (the red ones): what "1 pod failing" counts. */
export function isFailingPod(pod: Typed<Pod>): boolean {
  return podColor(pod) === RED;
}

/**
 * After Fail Node: `kubelet stopped — NotReady in 38s` while the node still reads Ready, `kubelet stopped — evicting
 * pods in 4m50s` once NotReady and tainted with pods that tolerate it for a while, else `kubelet stopped`.
 */
export function nodeFailureText(
  node: Typed<Node>,
  pods: readonly Typed<Pod>[],
  failed: FailedNode,
  now: number,
): string {
  const status = nodeStatusText(node).split(',')[0];
  if (status === 'Ready') {
    const left = failed.notReadyAt - now;
    return left > 0 ? `kubelet stopped — NotReady in ${humanDuration(left)}` : 'kubelet stopped — NotReady any moment';
  }
  const eviction = evictionAt(node, pods);
  if (eviction !== undefined && eviction > now)
    return `kubelet stopped — evicting pods in ${humanDuration(eviction - now)}`;
  return 'kubelet stopped';
}

const NO_EXECUTE_TAINTS = new Set(['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready']);

/**
 * When the taint manager evicts the first pod from a tainted node: the NoExecute taint's `timeAdded` plus the shortest
 * `tolerationSeconds` of a pod there that tolerates it (upstream: pkg/controller/tainteviction: processPodOnNode).
 */
export function evictionAt(node: Typed<Node>, pods: readonly Typed<Pod>[]): number | undefined {
  const taints = (node.spec?.taints ?? []).filter(
    (t) => t.effect === 'NoExecute' && NO_EXECUTE_TAINTS.has(t.key) && t.timeAdded,
  );
  let first: number | undefined;
  for (const taint of taints) {
    const added = parseTimestamp(taint.timeAdded!);
    for (const p of pods) {
      if (p.metadata.deletionTimestamp) continue;
      const seconds = (p.spec?.tolerations ?? [])
        .filter(
          (t) => t.effect === 'NoExecute' && (t.key === taint.key || (t.key === undefined && t.operator === 'Exists')),
        )
        .map((t) => t.tolerationSeconds)
        .filter((s): s is number => typeof s === 'number');
      if (seconds.length === 0) continue;
      const at = added + Math.min(...seconds) * 1000;
      if (first === undefined || at < first) first = at;
    }
  }
  return first;
}

/**
 * The last termination of each container that has one (`lastState.terminated`, or the current state when the
 * container has ended), as `nginx: Error, exit code 1, 2m ago` — what `kubectl describe pod` prints under "Last State".
 */
export function lastTerminations(pod: Typed<Pod>, now: number): string[] {
  const s = pod.status;
  const statuses: ContainerStatus[] = [...(s?.initContainerStatuses ?? []), ...(s?.containerStatuses ?? [])];
  const out: string[] = [];
  for (const c of statuses) {
    const t = c.lastState?.terminated ?? c.state?.terminated;
    if (!t) continue;
    const parts = [t.reason ?? 'Terminated', `exit code ${t.exitCode}`];
    if (t.signal) parts.push(`signal ${t.signal}`);
    if (t.finishedAt) parts.push(`${humanDuration(now - parseTimestamp(t.finishedAt))} ago`);
    out.push(`${c.name}: ${parts.join(', ')}`);
  }
  return out;
}

/** The cluster's health in one line for the status bar: `1 pod failing · node-2 NotReady`; '' when all is well. */
export interface HealthSummary {
  /** Short, for the status bar text ('' when nothing needs attention). */
  text: string;
  /** One line per finding, for the tooltip. */
  details: string[];
}

export function healthSummary(
  pods: readonly Typed<Pod>[],
  nodes: readonly Typed<Node>[],
  failedNodes: readonly FailedNode[] = [],
): HealthSummary {
  const failing = pods.filter(isFailingPod);
  const pending = pods.filter(
    (p) => !p.metadata.deletionTimestamp && p.status?.phase === 'Pending' && !isFailingPod(p),
  );
  const down = nodes.filter((n) => nodeStatusText(n).split(',')[0] !== 'Ready');
  const stopped = failedNodes.filter((f) => !down.some((n) => n.metadata.name === f.name));
  const parts: string[] = [];
  const details: string[] = [];
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const ref = (p: KubeObject) => `${p.metadata.namespace}/${p.metadata.name}`;
  if (failing.length > 0) {
    parts.push(`${plural(failing.length, 'pod')} failing`);
    details.push(`Failing: ${failing.map(ref).join(', ')}`);
  }
  if (down.length > 0) {
    parts.push(down.length === 1 ? `${down[0].metadata.name} NotReady` : `${down.length} nodes NotReady`);
    details.push(`NotReady: ${down.map((n) => n.metadata.name).join(', ')}`);
  }
  if (stopped.length > 0) details.push(`Kubelet stopped (Fail Node): ${stopped.map((f) => f.name).join(', ')}`);
  if (pending.length > 0) {
    parts.push(`${plural(pending.length, 'pod')} Pending`);
    details.push(`Pending: ${pending.map(ref).join(', ')}`);
  }
  return { text: parts.join(' · '), details };
}
