/**
 * VS Code glue for snapshots: the sandbox's state lives in the workspace's
 * storage (`context.storageUri`), so a window reload brings the same cluster
 * and desired state back. Without a workspace nothing is saved.
 */
import * as vscode from 'vscode';
import type { SandboxConnection } from '../sandbox/connection';
import { loadSnapshot, SnapshotSaver } from './snapshotSaver';
import type { SnapshotStore } from './snapshotSaver';

const FILE_NAME = 'sandbox-snapshot.json';

function workspaceStore(context: vscode.ExtensionContext): SnapshotStore | undefined {
  const dir = context.storageUri;
  if (!dir) return undefined;
  const file = vscode.Uri.joinPath(dir, FILE_NAME);
  return {
    read: async () => {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      } catch {
        return undefined;
      }
    },
    write: async (text) => {
      await vscode.workspace.fs.createDirectory(dir);
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
    },
    remove: async () => {
      try {
        await vscode.workspace.fs.delete(file);
      } catch {
        // Already gone.
      }
    },
  };
}

/** The snapshot saved for this workspace (pass it to `init`), or undefined. */
export function loadSavedSnapshot(context: vscode.ExtensionContext): Promise<unknown> {
  const store = workspaceStore(context);
  return store ? loadSnapshot(store) : Promise.resolve(undefined);
}

export interface Persistence extends vscode.Disposable {
  /** Call from `deactivate()` (and await it) before the sandbox is disposed. */
  saveNow(): Promise<void>;
  /** Reset Sandbox: forget the saved state. */
  clear(): Promise<void>;
}

/** Saves the sandbox every 30 s while it changes; see `Persistence` for deactivate and reset. */
export function registerPersistence(context: vscode.ExtensionContext, connection: SandboxConnection): Persistence {
  const store = workspaceStore(context);
  if (!store) return { saveNow: () => Promise.resolve(), clear: () => Promise.resolve(), dispose: () => undefined };
  const saver = new SnapshotSaver(connection, store);
  context.subscriptions.push(saver);
  return { saveNow: () => saver.saveNow(), clear: () => saver.clear(), dispose: () => saver.dispose() };
}
