/**
 * Reads the `kubeReconcile` settings from the client: pulled with
 * `workspace/configuration` (globally and per workspace folder) when the
 * client supports it, otherwise taken from `initializationOptions` and from
 * the payload of `workspace/didChangeConfiguration`.
 */
import type { Connection } from 'vscode-languageserver/node';
import { normalizeSettings, settingsSection, SETTINGS_SECTION } from '../settings';
import type { KubeReconcileSettings } from '../settings';

export interface ResolvedSettings {
  readonly global: KubeReconcileSettings;
  /** Settings of each workspace folder (its `.vscode/settings.json` may differ). */
  readonly perFolder: ReadonlyMap<string, KubeReconcileSettings>;
}

/** Pulls settings for the whole workspace and each folder; a client that fails to answer gets the defaults. */
export async function pullSettings(connection: Connection, folders: readonly string[]): Promise<ResolvedSettings> {
  try {
    const items = [
      { section: SETTINGS_SECTION },
      ...folders.map((scopeUri) => ({ scopeUri, section: SETTINGS_SECTION })),
    ];
    const answers: unknown[] = await connection.workspace.getConfiguration(items);
    const global = normalizeSettings(answers[0]);
    return { global, perFolder: new Map(folders.map((f, i) => [f, normalizeSettings(answers[i + 1] ?? answers[0])])) };
  } catch {
    return pushedSettings(undefined);
  }
}

/** Settings from a pushed payload (`initializationOptions`, or `didChangeConfiguration`'s `settings`). */
export function pushedSettings(payload: unknown): ResolvedSettings {
  return { global: normalizeSettings(settingsSection(payload)), perFolder: new Map() };
}
