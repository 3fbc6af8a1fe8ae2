/**
 * The Cluster view's own commands: its grouping and filters (the title bar's
 * Filter menu), and Delete on the selected row (Delete key): Kill Pod for a
 * pod, Delete for what can be deleted.
 */
import type { TreeOptions } from '../model/treeOptions';
import type { CommandContext, CommandFactory } from './context';
import { targetOf } from './objectArg';
import { killPod } from './podCommands';
import { deleteObject } from './workloadCommands';

/** Resources the Delete key deletes (as the context menu's Delete); pods are killed. */
export const DELETABLE = [
  'deployments',
  'replicasets',
  'statefulsets',
  'daemonsets',
  'jobs',
  'cronjobs',
  'services',
  'configmaps',
  'secrets',
];

function setOption(change: (o: TreeOptions) => TreeOptions): CommandFactory {
  return (ctx: CommandContext) => async () => {
    if (ctx.tree) await ctx.tree.setOptions(change(ctx.tree.options()));
  };
}

export const filterUnhealthy = setOption((o) => ({ ...o, unhealthyOnly: true }));
export const filterShowAll = setOption((o) => {
  const { namespace: _all, ...rest } = o;
  return { ...rest, unhealthyOnly: false };
});
export const groupByNode = setOption((o) => ({ ...o, groupBy: 'node' }));
export const groupByNamespace = setOption((o) => ({ ...o, groupBy: 'namespace' }));
export const showEmptyReplicaSets = setOption((o) => ({ ...o, hideEmptyReplicaSets: false }));
export const hideEmptyReplicaSets = setOption((o) => ({ ...o, hideEmptyReplicaSets: true }));

export const ALL_NAMESPACES = 'All namespaces';

export const filterNamespace: CommandFactory = (ctx) => async () => {
  if (!ctx.tree) return;
  const current = ctx.tree.options().namespace;
  const items = [
    { label: ALL_NAMESPACES, description: current === undefined ? 'current' : undefined, value: '' },
    ...ctx.connection.cache.namespaces().map((ns) => ({
      label: ns,
      description: ns === current ? 'current' : undefined,
      value: ns,
    })),
  ];
  const chosen = await ctx.ui.pick(items, 'Show one namespace in the Cluster view');
  if (chosen === undefined) return;
  const { namespace: _old, ...rest } = ctx.tree.options();
  await ctx.tree.setOptions(chosen === '' ? rest : { ...rest, namespace: chosen });
};

/** The Delete key: kills a pod (its owner replaces it), deletes what the menu can delete, says so otherwise. */
export const deleteSelected: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Delete', arg, ['pods', ...DELETABLE]);
  if (!ref) return;
  if (ref.resource === 'pods') await killPod(ctx)(ref);
  else await deleteObject(ctx)(ref);
};
