/**
 * Namespace lifecycle: the system namespaces every cluster starts with, and
 * the admission check that refuses content in missing (404) or terminating
 * (403) namespaces.
 */
import { forbidden, notFound } from '../api/errors';
import type { ResourceType } from '../api/resources';
import { resourceFor } from '../api/resources';
import type { KubeObject } from '../api/types';
import type { ObjectStore } from '../store/objectStore';
import { ServiceAllocators } from './allocators';
import { kindKey } from './kindKey';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** Upstream refuses to delete these. */
export const PROTECTED_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

const NAMESPACES = resourceFor('v1', 'Namespace')!;

/** Throws 404 when `namespace` does not exist, 403 when it is being deleted. */
export function namespaceAdmission(store: ObjectStore, r: ResourceType, namespace: string, name: string): void {
  const ns = store.get(kindKey(NAMESPACES), '', namespace);
  if (!ns) throw notFound(NAMESPACES, namespace);
  const phase = (ns.status as { phase?: string } | undefined)?.phase;
  if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
    const err = forbidden(
      r,
      name,
      `unable to create new content in namespace ${namespace} because it is being terminated`,
    );
    err.status.details!.causes = [
      { reason: 'NamespaceTerminating', message: err.status.message, field: 'metadata.namespace' },
    ];
    throw err;
  }
}

/** What a new cluster holds before anyone applies anything. */
export function bootstrapObjects(): KubeObject[] {
  const namespaces: KubeObject[] = SYSTEM_NAMESPACES.map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  }));
  const kubernetesService: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      clusterIP: ServiceAllocators.KUBERNETES_SERVICE_IP,
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
    },
  };
  return [...namespaces, kubernetesService];
}

/**
 * The two PriorityClasses every API server creates at start (upstream: pkg/apis/scheduling
 * `SystemPriorityClasses`, created by pkg/registry/scheduling/rest `PostStartHook`).
 */
export const SYSTEM_PRIORITY_CLASSES: readonly KubeObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];
