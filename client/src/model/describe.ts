/**
 * The short text after an item's label in the cluster tree, in kubectl's
 * words: `3/3` for a Deployment, `Running · node-2 · 5m` or
 * `CrashLoopBackOff · 4 restarts · node-1 · 2m` for a Pod, `Ready · 4 pods`
 * for a node.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { isKind } from '../../../sandbox/api/resourceObjects';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { nodeStatusText, podSummary } from '../../../sandbox/printers';
import { age } from '../../../sandbox/printers/table';
import { cell, wideRow } from './cells';

const SEP = ' · ';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A pod's STATUS, then readiness when running but not ready, restarts, node and AGE. */
export function podDescription(pod: Typed<Pod>, now: number): string {
  const s = podSummary(pod);
  const parts = [s.status];
  if (s.status === 'Running' && s.ready < s.total) parts.push(`${s.ready}/${s.total} ready`);
  if (s.restarts > 0) parts.push(plural(s.restarts, 'restart'));
  const node = pod.spec?.nodeName;
  if (node) parts.push(node);
  parts.push(age(pod, now));
  return parts.join(SEP);
}

/** Pods that count against a node: bound to it and not finished (kubectl describe's "Non-terminated Pods"). */
export function activePods<P extends Pod>(pods: readonly P[]): P[] {
  return pods.filter((p) => {
    const phase = p.status?.phase;
    return phase !== 'Succeeded' && phase !== 'Failed';
  });
}

/** `Ready · 4 pods`, `NotReady · SchedulingDisabled · 0 pods`. */
export function nodeDescription(node: Typed<Node>, podsOnNode: readonly Pod[]): string {
  const status = nodeStatusText(node).split(',');
  return [...status, plural(activePods(podsOnNode).length, 'pod')].join(SEP);
}

/** The description of any object the tree shows (nodes excepted: see `nodeDescription`). */
export function objectDescription(obj: KubeObject, now: number): string {
  if (isKind(obj, 'Pod')) return podDescription(obj, now);
  const row = wideRow(obj, now);
  switch (obj.kind) {
    case 'Deployment':
    case 'StatefulSet':
      return cell(row, 'Ready');
    case 'ReplicaSet':
      return `${cell(row, 'Ready')}/${cell(row, 'Desired')}`;
    case 'DaemonSet':
    case 'ReplicationController':
      return `${cell(row, 'Ready')}/${cell(row, 'Desired')}`;
    case 'HorizontalPodAutoscaler':
      // kubectl get hpa: TARGETS (`cpu: 12%/50%`), then REPLICAS of MINPODS–MAXPODS.
      return [
        cell(row, 'Targets'),
        `${plural(Number(cell(row, 'Replicas')), 'replica')} (${cell(row, 'MinPods')}–${cell(row, 'MaxPods')})`,
      ].join(SEP);
    case 'PersistentVolumeClaim': {
      // kubectl get pvc: STATUS, then CAPACITY and ACCESS MODES once bound.
      const parts = [cell(row, 'Status'), cell(row, 'Capacity'), cell(row, 'Access Modes')].filter((p) => p !== '');
      return parts.join(SEP);
    }
    case 'Job':
      return [cell(row, 'Status'), cell(row, 'Completions')].join(SEP);
    case 'CronJob':
      return [cell(row, 'Schedule'), `${cell(row, 'Active')} active`].join(SEP);
    case 'Service':
      return [cell(row, 'Type'), cell(row, 'Cluster-IP'), cell(row, 'Port(s)')].join(SEP);
    case 'ConfigMap':
      return plural(Number(cell(row, 'Data')), 'key');
    case 'Secret':
      return [cell(row, 'Type'), plural(Number(cell(row, 'Data')), 'key')].join(SEP);
    case 'Namespace':
      return cell(row, 'Status') === 'Active' ? '' : cell(row, 'Status');
    default:
      return cell(row, 'Age');
  }
}
