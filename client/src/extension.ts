import type { ExtensionContext } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { createLanguageClient } from './languageClient';

// Held at module scope only so that deactivate() can wait for a clean shutdown:
// VS Code awaits deactivate()'s promise, but not the disposal of subscriptions.
let client: LanguageClient | undefined;

/**
 * Wires the extension: starts the language server and registers everything it creates
 * in `context.subscriptions`. Rejects if the server cannot be started.
 */
export async function activate(context: ExtensionContext): Promise<void> {
  client = createLanguageClient(context);
  context.subscriptions.push(client);
  await client.start();
}

/** Stops the language server; resolves once it has shut down (or at once if it never started). */
export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
