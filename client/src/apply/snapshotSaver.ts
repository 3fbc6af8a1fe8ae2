/**
 * Keeps the sandbox's saved state fresh: every 30 s, when something changed
 * since the last save, asks the worker for a snapshot and writes it; `saveNow`
 * does the same on deactivate; `clear` forgets it (Reset Sandbox).
 * Storage is injected, so this runs (and is tested) without VS Code.
 */
import type { Disposable, SandboxConnection } from '../sandbox/connection';

export const SAVE_INTERVAL_MS = 30_000;

/** Where the snapshot text lives (workspace storage in the extension). */
export interface SnapshotStore {
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
  remove(): Promise<void>;
  /** Moves the saved text out of the way (it could not be used), so no later save overwrites it; says where. */
  keepAside?(): Promise<string>;
}

/** The file operations a file-backed store needs (VS Code's workspace.fs in the extension, memory in tests). */
export interface SnapshotFiles {
  /** The file's text, undefined when it does not exist. */
  read(name: string): Promise<string | undefined>;
  write(name: string, text: string): Promise<void>;
  /** Renames over an existing `to`. */
  rename(from: string, to: string): Promise<void>;
  /** Deletes; nothing when it does not exist. */
  remove(name: string): Promise<void>;
  /** The file's path as the user should see it. */
  describe(name: string): string;
}

/**
 * A store in one file, written atomically: the text goes to `<name>.tmp` and is then renamed over `<name>`, so a
 * window closed or a worker killed mid-write leaves the last good snapshot whole. A snapshot that cannot be used is
 * kept aside as `<name without .json>.corrupt.json`.
 */
export function fileSnapshotStore(files: SnapshotFiles, name = 'sandbox-snapshot.json'): SnapshotStore {
  const temp = `${name}.tmp`;
  const aside = `${name.replace(/\.json$/, '')}.corrupt.json`;
  return {
    read: () => files.read(name),
    write: async (text) => {
      try {
        await files.write(temp, text);
        await files.rename(temp, name);
      } catch (e) {
        await files.remove(temp).catch(() => undefined);
        throw e;
      }
    },
    remove: () => files.remove(name),
    keepAside: async () => {
      await files.rename(name, aside);
      return files.describe(aside);
    },
  };
}

/**
 * The saved snapshot, or undefined when there is none. Text that is not JSON (a truncated or corrupt file) is
 * refused whole: kept aside when the store can (so the next save does not overwrite it) and reported by a throw.
 */
export async function loadSnapshot(store: SnapshotStore): Promise<unknown> {
  const text = await store.read();
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const why = `the saved sandbox is not valid JSON (${text.length} bytes, truncated or corrupt: ${(e as Error).message})`;
    const kept = await store.keepAside?.().catch(() => undefined);
    throw new Error(kept ? `${why}; it was kept as ${kept}` : why);
  }
}

export class SnapshotSaver implements Disposable {
  private changed = false;
  private saving: Promise<void> = Promise.resolve();
  private readonly subscription: Disposable;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly connection: SandboxConnection,
    private readonly store: SnapshotStore,
    intervalMs = SAVE_INTERVAL_MS,
  ) {
    this.subscription = connection.onDidChange(() => (this.changed = true));
    this.timer = setInterval(() => void this.saveIfChanged().catch(() => undefined), intervalMs);
    this.timer.unref?.();
  }

  /** True when there are changes not yet saved. */
  get dirty(): boolean {
    return this.changed;
  }

  /** Saves when something changed since the last save. Saves never overlap. */
  saveIfChanged(): Promise<void> {
    if (!this.changed) return this.saving;
    this.changed = false;
    this.saving = this.saving
      .catch(() => undefined)
      .then(async () => {
        try {
          const { snapshot } = await this.connection.request('snapshot', {});
          await this.store.write(JSON.stringify(snapshot));
        } catch (e) {
          this.changed = true;
          throw e;
        }
      });
    return this.saving;
  }

  /** Saves now (e.g. on deactivate), changed or not. */
  saveNow(): Promise<void> {
    this.changed = true;
    return this.saveIfChanged();
  }

  /** Forgets the saved state (Reset Sandbox). */
  async clear(): Promise<void> {
    await this.saving.catch(() => undefined);
    this.changed = false;
    await this.store.remove();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.subscription.dispose();
  }
}
