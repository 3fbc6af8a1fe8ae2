/**
 * Icons of the cluster tree: a codicon per kind, coloured by health where the
 * kind has one (pods: Running green, Pending yellow, crashing red; nodes;
 * workloads by ready replicas).
 */
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { isKind } from '../../../sandbox/api/resourceObjects';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { nodeStatusText, podSummary } from '../../../sandbox/printers';
import { kindView } from './kinds';
import type { TreeIcon } from './treeNode';

export const GREEN = 'charts.green';
export const YELLOW = 'charts.yellow';
export const RED = 'charts.red';
export const GREY = 'disabledForeground';

/** STATUS values that mean a container keeps failing or cannot start. */
const FAILING = new Set([
  'CrashLoopBackOff',
  'Error',
  'Failed',
  'OOMKilled',
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'ContainerStatusUnknown',
  'Evicted',
]);

const FAILING_PREFIXES = [
  'Init:Error',
  'Init:CrashLoopBackOff',
  'Init:ImagePullBackOff',
  'Init:ErrImagePull',
  'Init:Signal:',
  'Init:ExitCode:',
  'Signal:',
  'ExitCode:',
];

/**
 * The colour of a pod's STATUS: green when running and ready, red when failing, grey when going, yellow otherwise
 * (starting).
 */
export function podColor(pod: Typed<Pod>): string | undefined {
  const s = podSummary(pod);
  if (s.status === 'Running') return s.ready === s.total ? GREEN : YELLOW;
  if (s.status === 'Completed' || s.status === 'Succeeded') return undefined;
  if (s.status === 'Terminating' || s.status === 'Unknown') return GREY;
  if (FAILING.has(s.status) || FAILING_PREFIXES.some((p) => s.status.startsWith(p))) return RED;
  return YELLOW;
}

/** Ready nodes green, cordoned ones yellow, NotReady/Unknown red. */
export function nodeColor(node: Typed<Node>): string {
  const status = nodeStatusText(node).split(',');
  if (status[0] !== 'Ready') return RED;
  return status.includes('SchedulingDisabled') ? YELLOW : GREEN;
}

interface Replicated {
  spec?: { replicas?: number };
  status?: { readyReplicas?: number; desiredNumberScheduled?: number; numberReady?: number };
}

/** Workloads: green when every desired replica is ready, yellow while some are not, none when scaled to zero. */
export function workloadColor(obj: KubeObject): string | undefined {
  const w = obj as Replicated;
  const desired = obj.kind === 'DaemonSet' ? (w.status?.desiredNumberScheduled ?? 0) : (w.spec?.replicas ?? 1);
  const ready = obj.kind === 'DaemonSet' ? (w.status?.numberReady ?? 0) : (w.status?.readyReplicas ?? 0);
  if (desired === 0) return undefined;
  return ready >= desired ? GREEN : YELLOW;
}

const WORKLOADS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'ReplicationController']);

/**
 * A PVC as Argo CD colours it (gitops-engine pkg/health/health_pvc.go: getCorev1PVCHealth): Bound healthy, Pending
 * progressing, Lost degraded.
 */
export function claimColor(obj: KubeObject): string | undefined {
  const phase = (obj as { status?: { phase?: string } }).status?.phase;
  if (phase === 'Bound') return GREEN;
  if (phase === 'Lost') return RED;
  return phase === 'Pending' ? YELLOW : undefined;
}

/** The icon of an object of `resource`. */
export function objectIcon(resource: string, obj: KubeObject): TreeIcon {
  const id = kindView(resource)?.icon ?? 'symbol-misc';
  let color: string | undefined;
  if (isKind(obj, 'Pod')) color = podColor(obj);
  else if (isKind(obj, 'Node')) color = nodeColor(obj);
  else if (WORKLOADS.has(obj.kind)) color = workloadColor(obj);
  else if (obj.kind === 'PersistentVolumeClaim') color = claimColor(obj);
  return color === undefined ? { id } : { id, color };
}
