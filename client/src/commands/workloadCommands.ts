/** Workload actions: Scale…, Restart Rollout, Roll Back, Delete. */
import { asResource } from '../../../sandbox/api/resourceObjects';
import { refText } from '../model/objectRef';
import type { ObjectRef, Requests } from '../sandbox/protocol';
import type { CommandContext } from './context';
import { parseReplicas, validateReplicas } from '../model/replicas';
import type { CommandFactory } from './context';
import { namespaceOf, sendAction, targetOf } from './objectArg';

export const SCALABLE = ['deployments', 'replicasets', 'statefulsets', 'replicationcontrollers'];
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
  // Whether self-heal will put it back: the object's saved manifest declares another count.
  const desired = ctx.settings().selfHeal
    ? await ctx.connection.request('desired', ref).catch((): Requests['desired']['result'] => ({}))
    : {};
  const declared = currentReplicas(desired.manifest?.spec);
  const reverts = desired.file !== undefined && desired.manifest !== undefined && (declared ?? 1) !== replicas;
  const reply = await sendAction(
    ctx,
    'Scale',
    { type: 'scale', resource: ref.resource, namespace: namespaceOf(ref), name: ref.name, replicas },
    reverts ? { quiet: true } : {},
  );
  if (!reply || !reverts) return;
  const file = desired.file!.replace(/^.*[\\/]/, '');
  ctx.ui.notify(`${reply.message} — self-heal will put it back to ${declared ?? 1} (${file} declares it)`);
  watchRevert(ctx, ref, replicas);
};

/** How long after a scale a revert is still attributed to it. */
const REVERT_WATCH_MS = 60_000;

/**
 * Tells when self-heal has put the scaled object back (its `DriftReverted` event), so that the status bar never keeps
 * saying "scaled" about a count that no longer holds.
 */
function watchRevert(ctx: CommandContext, ref: ObjectRef, replicas: number): void {
  const started = Date.now();
  const subscription = ctx.connection.onDidChange((changes) => {
    if (Date.now() - started > REVERT_WATCH_MS) return subscription.dispose();
    for (const c of changes) {
      if (c.resource !== 'events') continue;
      const e = asResource('events', c.object);
      if (e.reason !== 'DriftReverted') continue;
      if (e.involvedObject?.name !== ref.name || e.involvedObject.namespace !== ref.namespace) continue;
      subscription.dispose();
      ctx.ui.notify(`${refText(ref)}: self-heal undid the scale to ${replicas} — ${(e.message ?? '').trim()}`);
      return;
    }
  });
}

/**
 * A rollout command on the workload it was given: Restart Rollout, and Roll Back (kubectl rollout undo: a Deployment
 * to its previous ReplicaSet, a StatefulSet or DaemonSet to its previous ControllerRevision,
 * sandbox/operations/rollout.ts).
 */
function rolloutCommand(title: string, type: 'restartRollout' | 'rollBack'): CommandFactory {
  return (ctx) => async (arg) => {
    const ref = targetOf(ctx, title, arg, RESTARTABLE);
    if (ref)
      await sendAction(ctx, title, { type, resource: ref.resource, namespace: namespaceOf(ref), name: ref.name });
  };
}

export const restartRollout = rolloutCommand('Restart Rollout', 'restartRollout');
export const rollBack = rolloutCommand('Roll Back', 'rollBack');

/**
 * Set Load…: the total CPU the workload's ready pods share (the HPA's simulated metrics), the same as
 * `simulate --at load=SELECTOR:cpu=…` on the workload's selector.
 */
export const setLoad: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Set Load', arg, SCALABLE);
  if (!ref) return;
  const text = await ctx.ui.input({
    title: `Set Load on ${refText(ref)}`,
    prompt: 'Total CPU its ready pods share, as `load=SELECTOR:cpu=…` (e.g. 500m, or 2 for two cores; 0 for idle)',
    value: '500m',
    validate: validateCpu,
  });
  if (text === undefined) return;
  await sendAction(ctx, 'Set Load', {
    type: 'setLoad',
    resource: ref.resource,
    namespace: namespaceOf(ref),
    name: ref.name,
    cpu: text.trim(),
  });
};

/** An error for the input box, or undefined when `text` is a CPU quantity (`250m`, `1.5`). */
export function validateCpu(text: string): string | undefined {
  return /^(\d+(\.\d+)?|\.\d+)m?$/.test(text.trim()) ? undefined : 'A CPU quantity: 250m, 1 or 1.5';
}

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
