/** Registers every command of the table with VS Code. */
import { commands } from 'vscode';
import type { ExtensionContext } from 'vscode';
import type { CommandContext } from './context';
import { COMMANDS } from './table';

/** `refuse` (when given) says why a command may not run now (a real cluster is shown); the command is then not run. */
export function registerCommands(
  context: ExtensionContext,
  ctx: CommandContext,
  refuse?: (id: string) => string | undefined,
): void {
  for (const [id, factory] of Object.entries(COMMANDS)) {
    const run = factory(ctx);
    context.subscriptions.push(
      commands.registerCommand(id, async (...args: unknown[]) => {
        const why = refuse?.(id);
        if (why !== undefined) return ctx.ui.error(why);
        return run(...args);
      }),
    );
  }
}
