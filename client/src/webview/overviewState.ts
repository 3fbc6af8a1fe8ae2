/**
 * The Cluster overview: every object a user declares (not the ReplicaSets and
 * Pods that controllers make for them) of the kinds Argo CD has health rules
 * for, each with its health, and the worst of them as the cluster's health.
 */
import { resourceHealth } from '../health/resourceHealth';
import { worstHealth, type HealthStatus } from '../health/types';
import type { MirrorCache } from '../sandbox/mirror';
import type { OverviewRow, OverviewViewState } from './protocol';

/** Resources listed, in display order. */
export const OVERVIEW_RESOURCES: readonly string[] = [
  'deployments',
  'statefulsets',
  'daemonsets',
  'replicasets',
  'jobs',
  'pods',
  'services',
  'ingresses',
  'persistentvolumeclaims',
  'horizontalpodautoscalers',
];

export function overviewState(cache: MirrorCache): OverviewViewState {
  const rows: OverviewRow[] = [];
  for (const resource of OVERVIEW_RESOURCES) {
    for (const obj of cache.list(resource)) {
      if (obj.metadata.ownerReferences?.some((r) => r.controller)) continue;
      const row: OverviewRow = {
        ref: { resource, namespace: obj.metadata.namespace, name: obj.metadata.name! },
        kind: obj.kind,
      };
      if (!obj.metadata.namespace) delete row.ref.namespace;
      const health = resourceHealth(obj);
      if (health) row.health = health;
      rows.push(row);
    }
  }
  const all: HealthStatus[] = rows.flatMap((r) => (r.health ? [r.health] : []));
  return { view: 'overview', health: worstHealth(all), rows };
}

/** True when a change to `resource` can alter the overview. */
export function affectsOverview(resource: string): boolean {
  return OVERVIEW_RESOURCES.includes(resource);
}
