/**
 * What happens when settings change while the sandbox runs: self-heal and
 * speed are sent at once; node count and seed need a new cluster, so the
 * user is told and offered a reset.
 */
import { RESET_SETTINGS } from '../model/settings';
import type { SettingKey } from '../model/settings';
import type { CommandContext } from './context';
import { errorMessage } from './context';
import { resetWithSettings } from './sandboxCommands';

export const RESET_ACTION = 'Reset Sandbox';

export async function onSettingsChanged(ctx: CommandContext, changed: readonly SettingKey[]): Promise<void> {
  const settings = ctx.settings();
  try {
    if (changed.includes('selfHeal')) await ctx.connection.request('setSelfHeal', { selfHeal: settings.selfHeal });
    if (changed.includes('sandbox.speed'))
      await ctx.connection.request('control', { type: 'speed', speed: settings.speed });
  } catch (e) {
    ctx.ui.error(`Kube Reconcile could not apply the new settings: ${errorMessage(e)}`);
  }
  if (!changed.some((k) => RESET_SETTINGS.includes(k))) return;
  const choice = await ctx.ui.offer(
    `The sandbox's node count and seed take effect when it is reset (now ${settings.nodes} nodes, seed ${settings.seed}).`,
    RESET_ACTION,
  );
  if (choice === RESET_ACTION) await resetWithSettings(ctx);
}
