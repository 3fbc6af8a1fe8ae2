/**
 * VS Code glue for snapshots: the sandbox's state lives in the workspace's
 * storage (`context.storageUri`), so a window reload brings the same cluster
 * and desired state back. Without a workspace nothing is saved.
 */
import * as vscode from 'vscode';
import type { SandboxConnection } from '../sandbox/connection';
import { fileSnapshotStore, loadSnapshot, SnapshotSaver } from './snapshotSaver';
import type { SnapshotStore } from './snapshotSaver';

function workspaceStore(context: vscode.ExtensionContext): SnapshotStore | undefined {
  const dir = context.storageUri;
  if (!dir) return undefined;
  const uri = (name: string) => vscode.Uri.joinPath(dir, name);
  return fileSnapshotStore({
    read: async (name) => {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri(name)));
      } catch {
        return undefined;
      }
    },
    write: async (name, text) => {
      await vscode.workspace.fs.createDirectory(dir);
      await vscode.workspace.fs.writeFile(uri(name), new TextEncoder().encode(text));
    },
    rename: async (from, to) => {
      await vscode.workspace.fs.rename(uri(from), uri(to), { overwrite: true });
    },
    remove: async (name) => {
      try {
        await vscode.workspace.fs.delete(uri(name));
      } catch {
        // Already gone.
      }
    },
    describe: (name) => uri(name).fsPath,
  });
}

/** Keeps the saved snapshot aside when the worker could not restore it (so no later save overwrites it). */
export async function keepSavedSnapshotAside(context: vscode.ExtensionContext): Promise<string | undefined> {
  return workspaceStore(context)?.keepAside?.();
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
