/** Workload actions: Scale…, Restart Rollout, Roll Back, Delete. */
import { refText } from '../model/objectRef';
import { parseReplicas, validateReplicas } from '../model/replicas';
import type { CommandFactory } from './context';
import { namespaceOf, sendAction, targetOf } from './objectArg';

export const SCALABLE = ['deployments', 'replicasets', 'statefulsets'];
export const RESTARTABLE = ['deployments', 'statefulsets', 'daemonsets'];

function currentReplicas(spec: unknown): number | undefined {
  const replicas = (spec as { replicas?: unknown } | undefined)?.replicas;
  return typeof replicas === 'number' ? replicas : undefined;
}

export const scale: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Scale', arg, SCALABLE);
  if (!ref) return;
  const live = ctx.connection.cache.get(ref.resource, ref.namespace, ref.name);
  const text = await ctx.ui.input({
    title: `Scale ${refText(ref)}`,
    prompt: 'Replicas (with self-heal on, a change that differs from the saved manifest is reverted)',
    value: String(currentReplicas(live?.spec) ?? 1),
    validate: validateReplicas,
  });
  const replicas = text === undefined ? undefined : parseReplicas(text);
  if (replicas === undefined) return;
  await sendAction(ctx, 'Scale', {
    type: 'scale',
    resource: ref.resource,
    namespace: namespaceOf(ref),
    name: ref.name,
    replicas,
  });
};

export const restartRollout: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Restart Rollout', arg, RESTARTABLE);
  if (ref)
    await sendAction(ctx, 'Restart Rollout', {
      type: 'restartRollout',
      resource: ref.resource,
      namespace: namespaceOf(ref),
      name: ref.name,
    });
};

export const rollBack: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Roll Back', arg, ['deployments']);
  if (ref) await sendAction(ctx, 'Roll Back', { type: 'rollBack', namespace: namespaceOf(ref), name: ref.name });
};

export const deleteObject: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Delete', arg);
  if (!ref) return;
  const where = ref.namespace ? ` in namespace ${ref.namespace}` : '';
  const ok = await ctx.ui.confirm(
    `Delete ${refText(ref)}${where}?`,
    'Objects it owns are deleted with it. If a saved manifest declares it, self-heal creates it again.',
    'Delete',
  );
  if (ok)
    await sendAction(ctx, 'Delete', {
      type: 'delete',
      resource: ref.resource,
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      name: ref.name,
    });
};
