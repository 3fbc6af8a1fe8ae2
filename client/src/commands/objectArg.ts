/** The shared steps of commands run on a tree item: find the object, send the action, report the outcome. */
import { refFromArg } from '../model/objectRef';
import type { FaultAction, ObjectRef } from '../sandbox/protocol';
import type { CommandContext } from './context';
import { errorMessage } from './context';

/**
 * The object a command was invoked on, when it is one of `resources`
 * (any resource when empty); otherwise tells the user where to invoke it and
 * returns undefined.
 */
export function targetOf(
  ctx: CommandContext,
  title: string,
  arg: unknown,
  resources: readonly string[] = [],
): ObjectRef | undefined {
  const ref = refFromArg(arg);
  if (ref && (resources.length === 0 || resources.includes(ref.resource))) return ref;
  const what = resources.length === 0 ? 'an object' : resources.map((r) => `a ${r.replace(/s$/, '')}`).join(' or ');
  ctx.ui.error(`${title}: right-click ${what} in the Cluster view.`);
  return undefined;
}

/**
 * Sends a fault action; shows the sandbox's reply, or the API server's message when it fails. An action that goes on
 * (a drain) shows its further lines as they come — which pods wait on a PodDisruptionBudget — and its end.
 */
export async function sendAction(ctx: CommandContext, title: string, action: FaultAction): Promise<void> {
  try {
    const reply = await ctx.connection.request('action', action);
    ctx.ui.notify(reply.message);
    if (reply.operation !== undefined) follow(ctx, title, reply.operation);
  } catch (e) {
    ctx.ui.error(`${title} failed: ${errorMessage(e)}`);
  }
}

function follow(ctx: CommandContext, title: string, id: number): void {
  const subscription = ctx.connection.onDidOperation((n) => {
    if (n.id !== id) return;
    if (n.line !== undefined) ctx.ui.notify(n.line);
    if (!n.done) return;
    subscription.dispose();
    if (n.done.ok) ctx.ui.info(n.done.message);
    else ctx.ui.error(`${title} failed: ${n.done.message}`);
  });
}

/** The namespace of a namespaced object's ref (`default` when absent, as kubectl assumes). */
export function namespaceOf(ref: ObjectRef): string {
  return ref.namespace ?? 'default';
}
