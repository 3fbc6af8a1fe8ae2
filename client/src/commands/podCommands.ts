/** Pod actions: Kill Pod (delete it; its owner replaces it) and Crash Container (the kubelet restarts it). */
import type { CommandFactory } from './context';
import { namespaceOf, sendAction, targetOf } from './objectArg';

export const killPod: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Kill Pod', arg, ['pods']);
  if (ref) await sendAction(ctx, 'Kill Pod', { type: 'killPod', namespace: namespaceOf(ref), name: ref.name });
};

export const crashContainer: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Crash Container', arg, ['pods']);
  if (ref)
    await sendAction(ctx, 'Crash Container', { type: 'crashContainer', namespace: namespaceOf(ref), name: ref.name });
};
