/** Registers every command of the table with VS Code. */
import { commands } from 'vscode';
import type { ExtensionContext } from 'vscode';
import type { CommandContext } from './context';
import { COMMANDS } from './table';

export function registerCommands(context: ExtensionContext, ctx: CommandContext): void {
  for (const [id, factory] of Object.entries(COMMANDS))
    context.subscriptions.push(commands.registerCommand(id, factory(ctx)));
}
