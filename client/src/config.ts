/**
 * The extension's settings (`kubeReconcile.*`), typed. The rules — defaults,
 * ranges, which changes need a sandbox reset — live in `model/settings.ts`;
 * this class reads VS Code's configuration and reports changes by key.
 */
import { join } from 'node:path';
import { workspace } from 'vscode';
import type { Disposable, ExtensionContext } from 'vscode';
import { readApiConfig } from './commands/apiCommands';
import type { ApiConfig } from './commands/apiCommands';
import { SETTING_KEYS, readSettings, sandboxSettings } from './model/settings';
import type { ApplyOn, SettingKey, Settings } from './model/settings';
import type { SandboxSettings } from './sandbox/protocol';

export const SECTION = 'kubeReconcile';

/** Settings read only when the user set them: `applyOnSave: false` migrates to `applyOn: never` only if set. */
const EXPLICIT_ONLY: ReadonlySet<SettingKey> = new Set(['applyOn', 'applyOnSave']);

/** The value the user set at the narrowest level, or undefined when only the default applies. */
function explicitValue(
  i: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
): unknown {
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

/** Settings of the HTTP API (`kubeReconcile.api.*`): changing one reconfigures the running sandbox. */
export const API_KEYS = ['api.enabled', 'api.port'] as const;

/**
 * Where the extension writes the kubeconfig for the sandbox's HTTP API: this
 * workspace's storage (one sandbox per window, so windows never overwrite
 * each other's file), or the global storage in a window without a folder.
 */
export function kubeconfigFile(context: ExtensionContext): string {
  return join((context.storageUri ?? context.globalStorageUri).fsPath, 'kubeconfig.yaml');
}

export class Config {
  /** Every setting, read now. */
  get settings(): Settings {
    const cfg = workspace.getConfiguration(SECTION);
    return readSettings((key) => (EXPLICIT_ONLY.has(key) ? explicitValue(cfg.inspect(key)) : cfg.get(key)));
  }

  /** What the sandbox worker's `init` takes. */
  get sandbox(): SandboxSettings {
    return sandboxSettings(this.settings);
  }

  /** Which saves apply a YAML file to the sandbox (`kubeReconcile.applyOn`, or the legacy `applyOnSave`). */
  get applyOn(): ApplyOn {
    return this.settings.applyOn;
  }

  /** Whether the sync loop reverts drift (`kubeReconcile.selfHeal`). */
  get selfHeal(): boolean {
    return this.settings.selfHeal;
  }

  /** The HTTP API settings (`kubeReconcile.api.enabled`, `kubeReconcile.api.port`). */
  get api(): ApiConfig {
    const cfg = workspace.getConfiguration(SECTION);
    return readApiConfig((key) => cfg.get(key));
  }

  /** Calls `listener` whenever `kubeReconcile.api.*` changed. */
  onDidChangeApi(listener: () => void): Disposable {
    return workspace.onDidChangeConfiguration((e) => {
      if (API_KEYS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) listener();
    });
  }

  /** Calls `listener` with the keys of ours that changed, whenever any did. */
  onDidChange(listener: (changed: SettingKey[]) => void): Disposable {
    return workspace.onDidChangeConfiguration((e) => {
      const changed = SETTING_KEYS.filter((k) => e.affectsConfiguration(`${SECTION}.${k}`));
      if (changed.length > 0) listener(changed);
    });
  }
}
