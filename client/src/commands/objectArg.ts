/** The shared steps of commands run on a tree item: find the object, send the action, report the outcome. */
import { refFromArg } from '../model/objectRef';
import type { FaultAction, ObjectRef, Requests } from '../sandbox/protocol';
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
  // A keybinding passes nothing: the command acts on the Cluster view's selected row.
  const ref = arg === undefined ? ctx.tree?.selected() : refFromArg(arg);
  if (ref && (resources.length === 0 || resources.includes(ref.resource))) return ref;
  const what = resources.length === 0 ? 'an object' : resources.map((r) => `a ${r.replace(/s$/, '')}`).join(' or ');
  ctx.ui.error(`${title}: right-click ${what} in the Cluster view.`);
  return undefined;
}

/**
 * Sends a fault action; shows the sandbox's reply (`quiet`: the caller says it), or the API server's message when it
 * fails. An action that goes on (a drain) shows its lines in a progress notification as they come — which pods wait on
 * a PodDisruptionBudget — and then its end.
 */
export async function sendAction(
  ctx: CommandContext,
  title: string,
  action: FaultAction,
  options: { quiet?: boolean } = {},
): Promise<Requests['action']['result'] | undefined> {
  try {
    const reply = await ctx.connection.request('action', action);
    if (reply.operation !== undefined) follow(ctx, title, reply.operation, reply.message);
    else if (options.quiet) return reply;
    else if (reply.message.includes('\n')) ctx.ui.info(reply.message.split('\n').join('; '));
    else ctx.ui.notify(reply.message);
    return reply;
  } catch (e) {
    ctx.ui.error(`${title} failed: ${errorMessage(e)}`);
    return undefined;
  }
}

/**
 * An operation that goes on (a drain): a progress notification titled by it, whose message is its latest line (kubectl
 * prints one per pod evicted, or what it waits for), closed by its end — then the outcome as a message of its own.
 */
function follow(ctx: CommandContext, title: string, id: number, first: string): void {
  const progress = ctx.ui.progress(title);
  const lines = first.split('\n').filter(Boolean);
  if (lines.length > 0) progress.report(lines[lines.length - 1]);
  const subscription = ctx.connection.onDidOperation((n) => {
    if (n.id !== id) return;
    if (n.line !== undefined) progress.report(n.line);
    if (!n.done) return;
    subscription.dispose();
    progress.done();
    if (n.done.ok) ctx.ui.info(n.done.message);
    else ctx.ui.error(`${title} failed: ${n.done.message}`);
  });
}

/** The namespace of a namespaced object's ref (`default` when absent, as kubectl assumes). */
export function namespaceOf(ref: ObjectRef): string {
  return ref.namespace ?? 'default';
}
