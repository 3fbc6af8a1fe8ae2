/**
 * The extension's settings (`kubeReconcile.*`), typed. The rules — defaults,
 * ranges, which changes need a sandbox reset — live in `model/settings.ts`;
 * this class reads VS Code's configuration and reports changes by key.
 */
import { workspace } from 'vscode';
import type { Disposable } from 'vscode';
import { SETTING_KEYS, readSettings, sandboxSettings } from './model/settings';
import type { SettingKey, Settings } from './model/settings';
import type { SandboxSettings } from './sandbox/protocol';

export const SECTION = 'kubeReconcile';

export class Config {
  /** Every setting, read now. */
  get settings(): Settings {
    const cfg = workspace.getConfiguration(SECTION);
    return readSettings((key) => cfg.get(key));
  }

  /** What the sandbox worker's `init` takes. */
  get sandbox(): SandboxSettings {
    return sandboxSettings(this.settings);
  }

  /** Whether saving a YAML file applies it to the sandbox (`kubeReconcile.applyOnSave`). */
  get applyOnSave(): boolean {
    return this.settings.applyOnSave;
  }

  /** Whether the sync loop reverts drift (`kubeReconcile.selfHeal`). */
  get selfHeal(): boolean {
    return this.settings.selfHeal;
  }

  /** Calls `listener` with the keys of ours that changed, whenever any did. */
  onDidChange(listener: (changed: SettingKey[]) => void): Disposable {
    return workspace.onDidChangeConfiguration((e) => {
      const changed = SETTING_KEYS.filter((k) => e.affectsConfiguration(`${SECTION}.${k}`));
      if (changed.length > 0) listener(changed);
    });
  }
}
