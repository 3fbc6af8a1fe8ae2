/** Starting the sandbox at activation: restore the saved snapshot when there is one, else build a fresh cluster. */
import { sandboxSettings } from '../model/settings';
import type { CommandContext } from './context';
import { errorMessage } from './context';

/**
 * Sends `init` with the current settings (the HTTP API's too) and the saved
 * snapshot; shows the worker's warning when it could not use the snapshot (kept aside, not overwritten).
 * Resolves to whether the sandbox is running (apply-on-save is wired only then).
 */
export async function startSandbox(
  ctx: CommandContext,
  loadSnapshot: () => Promise<unknown>,
  keepSnapshotAside?: () => Promise<string | undefined>,
): Promise<boolean> {
  let snapshot: unknown;
  try {
    snapshot = await loadSnapshot();
  } catch (e) {
    ctx.ui.error(`Kube Reconcile could not read the saved sandbox, starting a fresh one: ${errorMessage(e)}`);
  }
  try {
    const api = ctx.api?.();
    const status = await ctx.connection.request('init', {
      settings: sandboxSettings(ctx.settings()),
      ...(snapshot === undefined ? {} : { snapshot }),
      ...(api ? { api } : {}),
    });
    if (status.warning) {
      // A snapshot the worker could not restore is kept aside, so the next save does not overwrite it.
      const kept = snapshot !== undefined ? await keepSnapshotAside?.().catch(() => undefined) : undefined;
      ctx.ui.info(`Kube Reconcile: ${status.warning}${kept ? ` The saved file was kept as ${kept}.` : ''}`);
    }
    return true;
  } catch (e) {
    ctx.ui.error(`Kube Reconcile: the sandbox could not start: ${errorMessage(e)}`);
    return false;
  }
}
