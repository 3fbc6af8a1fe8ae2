/**
 * Commands on any object: Show Desired vs Actual, Show Events, Copy as YAML, and revealing its manifest line on
 * selection.
 */
import { eventsFor, eventsText } from '../model/events';
import { liveYaml } from '../model/liveYaml';
import { refText } from '../model/objectRef';
import type { ObjectRef } from '../sandbox/protocol';
import type { CommandContext, CommandFactory } from './context';
import { errorMessage } from './context';
import { targetOf } from './objectArg';

function live(ctx: CommandContext, title: string, ref: ObjectRef) {
  const obj = ctx.connection.cache.get(ref.resource, ref.namespace, ref.name);
  if (!obj) ctx.ui.error(`${title}: ${refText(ref)} no longer exists.`);
  return obj;
}

export const showDesiredVsActual: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Show Desired vs Actual', arg);
  if (!ref) return;
  if (ctx.showDesiredVsActual) ctx.showDesiredVsActual(ref);
  else ctx.ui.info('Desired vs Actual is not available in this build of Kube Reconcile.');
};

export const showClusterOverview: CommandFactory = (ctx) => async () => {
  if (ctx.showClusterOverview) ctx.showClusterOverview();
  else ctx.ui.info('The cluster overview is not available in this build of Kube Reconcile.');
};

export const showEvents: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Show Events', arg);
  const obj = ref && live(ctx, 'Show Events', ref);
  if (!ref || !obj) return;
  const now = ctx.connection.status?.time ?? 0;
  const header = `# kubectl get events --field-selector involvedObject.name=${ref.name}${ref.namespace ? ` -n ${ref.namespace}` : ''}\n`;
  await ctx.ui.showText(
    `Events ${refText(ref)}`,
    header + eventsText(eventsFor(ctx.connection.cache, obj), now, ref.namespace),
  );
};

export const copyAsYaml: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Copy as YAML', arg);
  const obj = ref && live(ctx, 'Copy as YAML', ref);
  if (!ref || !obj) return;
  await ctx.ui.copy(liveYaml(obj));
  ctx.ui.notify(`Copied ${refText(ref)} as YAML`);
};

/**
 * Run when a tree item is selected: opens the saved manifest at the object's line, if it came from a file; otherwise
 * does nothing.
 */
export const revealManifest: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Reveal Manifest', arg);
  if (!ref) return;
  try {
    const desired = await ctx.connection.request('desired', ref);
    if (desired.file) await ctx.ui.openFile(desired.file, desired.line, arg === undefined);
    // From the keyboard (Enter on the selected row) say why nothing opens; a click on such a row expands it instead.
    else if (arg === undefined) ctx.ui.notify(`${refText(ref)} is not declared in a saved manifest`);
  } catch (e) {
    ctx.ui.error(`Reveal Manifest failed: ${errorMessage(e)}`);
  }
};
