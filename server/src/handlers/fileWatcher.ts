/**
 * Learns about files changed on disk by other programs (git, generators):
 * asks the client to watch the included globs when it allows dynamic
 * registration (otherwise it relies on the client's own `synchronize`
 * option), and batches the events it sends so a `git checkout` of many
 * files causes one round of work.
 */
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver/node';
import type { Connection, Disposable, FileEvent } from 'vscode-languageserver/node';

/** How long to collect file events before acting on them. */
export const FILE_EVENT_DELAY_MS = 100;

/** Registers a watcher for `patterns` (globs relative to each workspace folder); resolves to its unregistration. */
export async function registerFileWatcher(
  connection: Connection,
  patterns: readonly string[],
): Promise<Disposable | undefined> {
  try {
    return await connection.client.register(DidChangeWatchedFilesNotification.type, {
      watchers: patterns.map((globPattern) => ({ globPattern })),
    });
  } catch {
    return undefined;
  }
}

/**
 * Collects file events for a short time, then hands over the changed and the deleted URIs (the last event per URI
 * wins).
 */
export class FileEventBatcher {
  private readonly events = new Map<string, FileChangeType>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly flush: (changed: string[], deleted: string[]) => void,
    private readonly delayMs = FILE_EVENT_DELAY_MS,
  ) {}

  add(events: readonly FileEvent[]): void {
    for (const e of events) this.events.set(e.uri, e.type);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), this.delayMs);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.events.clear();
  }

  private fire(): void {
    this.timer = undefined;
    const changed: string[] = [];
    const deleted: string[] = [];
    for (const [uri, type] of this.events) (type === FileChangeType.Deleted ? deleted : changed).push(uri);
    this.events.clear();
    this.flush(changed, deleted);
  }
}
