/**
 * Well-known apiVersion/kind pairs that Kubernetes removed before the oldest
 * release a schema is generated for (1.30), so no generated data can tell
 * (docs: reference/using-api/deprecation-guide). A manifest that still uses
 * one is the most common reason a copied example is rejected, so it gets its
 * own message with the replacement rather than a bare "unknown kind".
 * Removals between the supported releases (flowcontrol v1beta3 in 1.32…) are
 * computed from their schemas (checkKind.ts), not listed here.
 */

export interface RemovedApi {
  readonly apiVersion: string;
  readonly kind: string;
  /** First Kubernetes minor release that no longer serves it. */
  readonly removedIn: string;
  /** The apiVersion to use instead, or what replaces the kind altogether; empty when nothing does. */
  readonly replacement: string;
}

const PSA = 'Pod Security Admission';

const TABLE: ReadonlyArray<
  readonly [apiVersion: string, kinds: readonly string[], removedIn: string, replacement: string]
> = [
  ['extensions/v1beta1', ['Deployment', 'DaemonSet', 'ReplicaSet'], '1.16', 'apps/v1'],
  ['extensions/v1beta1', ['NetworkPolicy'], '1.16', 'networking.k8s.io/v1'],
  ['extensions/v1beta1', ['PodSecurityPolicy'], '1.16', PSA],
  ['extensions/v1beta1', ['Ingress'], '1.22', 'networking.k8s.io/v1'],
  ['apps/v1beta1', ['Deployment', 'StatefulSet', 'ReplicaSet', 'ControllerRevision'], '1.16', 'apps/v1'],
  ['apps/v1beta2', ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ControllerRevision'], '1.16', 'apps/v1'],
  ['networking.k8s.io/v1beta1', ['Ingress', 'IngressClass'], '1.22', 'networking.k8s.io/v1'],
  [
    'rbac.authorization.k8s.io/v1beta1',
    ['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'],
    '1.22',
    'rbac.authorization.k8s.io/v1',
  ],
  ['coordination.k8s.io/v1beta1', ['Lease'], '1.22', 'coordination.k8s.io/v1'],
  ['storage.k8s.io/v1beta1', ['StorageClass'], '1.22', 'storage.k8s.io/v1'],
  ['batch/v1beta1', ['CronJob'], '1.25', 'batch/v1'],
  ['policy/v1beta1', ['PodDisruptionBudget'], '1.25', 'policy/v1'],
  ['policy/v1beta1', ['PodSecurityPolicy'], '1.25', PSA],
  ['discovery.k8s.io/v1beta1', ['EndpointSlice'], '1.25', 'discovery.k8s.io/v1'],
  ['events.k8s.io/v1beta1', ['Event'], '1.25', 'events.k8s.io/v1'],
  ['autoscaling/v2beta1', ['HorizontalPodAutoscaler'], '1.25', 'autoscaling/v2'],
  ['autoscaling/v2beta2', ['HorizontalPodAutoscaler'], '1.26', 'autoscaling/v2'],
];

const REMOVED = new Map<string, RemovedApi>();
for (const [apiVersion, kinds, removedIn, replacement] of TABLE) {
  for (const kind of kinds) REMOVED.set(`${apiVersion}|${kind}`, { apiVersion, kind, removedIn, replacement });
}

/** The removal record for an apiVersion/kind pair, or undefined when it was never a well-known served API. */
export function removedApi(apiVersion: string, kind: string): RemovedApi | undefined {
  return REMOVED.get(`${apiVersion}|${kind}`);
}

/** `extensions/v1beta1 Deployment was removed in Kubernetes 1.16; use apps/v1` */
export function removedApiMessage(r: RemovedApi): string {
  const removed = `${r.apiVersion} ${r.kind} was removed in Kubernetes ${r.removedIn}`;
  return r.replacement === '' ? removed : `${removed}; use ${r.replacement}`;
}
