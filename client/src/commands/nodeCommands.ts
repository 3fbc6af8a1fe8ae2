/** Node actions: Fail Node, Recover Node, Cordon, Uncordon, Drain. */
import type { CommandFactory } from './context';
import { sendAction, targetOf } from './objectArg';

type NodeActionType = 'failNode' | 'recoverNode' | 'cordon' | 'uncordon' | 'drain';

function nodeAction(type: NodeActionType, title: string): CommandFactory {
  return (ctx) => async (arg) => {
    const ref = targetOf(ctx, title, arg, ['nodes']);
    if (ref) await sendAction(ctx, title, { type, name: ref.name });
  };
}

export const failNode = nodeAction('failNode', 'Fail Node');
export const recoverNode = nodeAction('recoverNode', 'Recover Node');
export const cordon = nodeAction('cordon', 'Cordon');
export const uncordon = nodeAction('uncordon', 'Uncordon');
export const drain = nodeAction('drain', 'Drain');
