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
}

/** The saved snapshot, or undefined when there is none or it is not JSON. */
export async function loadSnapshot(store: SnapshotStore): Promise<unknown> {
  const text = await store.read();
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
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
