/** Registers every command of the table with VS Code. */
import { commands } from 'vscode';
import type { ExtensionContext } from 'vscode';
import type { Command, CommandContext } from './context';
import { COMMANDS } from './table';

/**
 * `refuse` (when given) says why a command may not run now (a real cluster is shown); the command is then not run.
 * `divert` (when given) may answer another implementation of the command for now (the real-cluster one), run
 * instead.
 */
export function registerCommands(
  context: ExtensionContext,
  ctx: CommandContext,
  refuse?: (id: string) => string | undefined,
  divert?: (id: string) => Command | undefined,
): void {
  for (const [id, factory] of Object.entries(COMMANDS)) {
    const run = factory(ctx);
    context.subscriptions.push(
      commands.registerCommand(id, async (...args: unknown[]) => {
        const instead = divert?.(id);
        if (instead) return instead(...args);
        const why = refuse?.(id);
        if (why !== undefined) return ctx.ui.error(why);
        return run(...args);
      }),
    );
  }
}
