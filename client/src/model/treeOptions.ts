/**
 * How the user chose to see the Cluster tree: grouped by namespace (nodes and
 * namespaces side by side, as kubectl lists them) or by node (where each pod
 * runs), and filtered — only what needs attention, one namespace, old 0/0
 * ReplicaSets hidden. Plain data, kept in the workspace state by the view.
 */

import type { KubeObject } from '../../../sandbox/api/types';

export type GroupBy = 'namespace' | 'node';

export interface TreeOptions {
  groupBy: GroupBy;
  /** Only objects that need attention, and the parents on the way to them. */
  unhealthyOnly: boolean;
  /** One namespace only; undefined shows all. */
  namespace?: string;
  /** Hide ReplicaSets scaled to 0 with no pods left (a Deployment's old revisions). */
  hideEmptyReplicaSets: boolean;
}

export const DEFAULT_TREE_OPTIONS: Readonly<TreeOptions> = {
  groupBy: 'namespace',
  unhealthyOnly: false,
  hideEmptyReplicaSets: true,
};

/** Options read back from storage: anything missing or of the wrong type takes its default. */
export function readTreeOptions(raw: unknown): TreeOptions {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const options: TreeOptions = {
    groupBy: r.groupBy === 'node' ? 'node' : 'namespace',
    unhealthyOnly: typeof r.unhealthyOnly === 'boolean' ? r.unhealthyOnly : DEFAULT_TREE_OPTIONS.unhealthyOnly,
    hideEmptyReplicaSets:
      typeof r.hideEmptyReplicaSets === 'boolean' ? r.hideEmptyReplicaSets : DEFAULT_TREE_OPTIONS.hideEmptyReplicaSets,
  };
  if (typeof r.namespace === 'string' && r.namespace !== '') options.namespace = r.namespace;
  return options;
}

/**
 * What the view's description says about the options in force besides the defaults: `by node · unhealthy only ·
 * namespace shop · all ReplicaSets`; '' with the defaults.
 */
export function describeTreeOptions(o: TreeOptions): string {
  const parts: string[] = [];
  if (o.groupBy === 'node') parts.push('by node');
  if (o.unhealthyOnly) parts.push('unhealthy only');
  if (o.namespace !== undefined) parts.push(`namespace ${o.namespace}`);
  if (!o.hideEmptyReplicaSets) parts.push('all ReplicaSets');
  return parts.join(' · ');
}

/** A ReplicaSet scaled to zero with no pods left: an old revision the Deployment keeps for roll-backs. */
export function isEmptyReplicaSet(rs: KubeObject): boolean {
  const spec = rs.spec as { replicas?: number } | undefined;
  const status = rs.status as { replicas?: number } | undefined;
  return (spec?.replicas ?? 1) === 0 && (status?.replicas ?? 0) === 0;
}
