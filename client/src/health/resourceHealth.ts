/**
 * Argo CD's built-in health assessment (gitops-engine `GetResourceHealth`):
 * an object being deleted is Progressing, a tracked object that does not
 * exist is Missing, the kinds with a built-in rule get it, and every other
 * kind has no health (`undefined`), as in Argo CD.
 */
import type { KubeObject } from '../../../sandbox/api/types';
import { parseApiVersion } from '../../../sandbox/api/types';
import { hpaHealth, ingressHealth, jobHealth, pvcHealth, serviceHealth } from './other';
import { podHealth } from './pod';
import { health, type HealthStatus } from './types';
import { daemonSetHealth, deploymentHealth, replicaSetHealth, statefulSetHealth } from './workloads';

// The object is typed loosely (any KubeObject); each rule reads it through the kind's kubernetes-types view.
type Rule = (obj: never) => HealthStatus;

const RULES: Record<string, Record<string, Rule>> = {
  apps: {
    Deployment: deploymentHealth,
    ReplicaSet: replicaSetHealth,
    StatefulSet: statefulSetHealth,
    DaemonSet: daemonSetHealth,
  },
  extensions: {
    Deployment: deploymentHealth,
    ReplicaSet: replicaSetHealth,
    DaemonSet: daemonSetHealth,
    Ingress: ingressHealth,
  },
  'networking.k8s.io': { Ingress: ingressHealth },
  '': { Service: serviceHealth, PersistentVolumeClaim: pvcHealth, Pod: podHealth },
  batch: { Job: jobHealth },
  autoscaling: { HorizontalPodAutoscaler: hpaHealth },
};

/** True when Argo CD has a built-in health rule for the object's group and kind. */
export function hasHealthRule(apiVersion: string, kind: string): boolean {
  return RULES[parseApiVersion(apiVersion).group]?.[kind] !== undefined;
}

/**
 * The health of `obj`, or Missing when a tracked object is absent. `undefined`
 * for kinds without a built-in rule (ConfigMaps, Namespaces, Nodes…).
 */
export function resourceHealth(obj: KubeObject | undefined): HealthStatus | undefined {
  if (!obj) return health('Missing', 'The object does not exist in the cluster');
  if (obj.metadata.deletionTimestamp) return health('Progressing', 'Pending deletion');
  const group = parseApiVersion(obj.apiVersion).group;
  const rule = RULES[group]?.[obj.kind];
  if (rule) return rule(obj as never);
  return isCustomGroup(group) ? customResourceHealth(obj) : undefined;
}

/** A group no built-in API uses: `monitoring.coreos.com`, not `apps` or `networking.k8s.io`. */
export function isCustomGroup(group: string): boolean {
  return group.includes('.') && !group.endsWith('.k8s.io') && group !== 'k8s.io';
}

/**
 * A custom resource without a health rule: Unknown, unless a `Ready` (or else `Available`) condition says
 * Healthy (True) or Degraded (False), with the condition's message.
 */
export function customResourceHealth(obj: KubeObject): HealthStatus {
  const conditions = (obj as { status?: { conditions?: unknown } }).status?.conditions;
  const list = Array.isArray(conditions) ? (conditions as { type?: string; status?: string; message?: string }[]) : [];
  for (const type of ['Ready', 'Available']) {
    const c = list.find((x) => x.type === type);
    if (c?.status === 'True') return health('Healthy', c.message ?? '');
    if (c?.status === 'False') return health('Degraded', c.message || `${type} is False`);
  }
  return health('Unknown', 'No Ready or Available condition: no health rule for this custom resource');
}
