/**
 * The language server's settings (`kubeReconcile.*` in VS Code): their
 * defaults and how an untrusted value from the client becomes a complete,
 * well-typed settings object. Fetching them is the handlers' job.
 */

import { DEFAULT_KUBERNETES_VERSION, isSupportedKubernetesVersion, normalizeKubernetesVersion } from './schema/schema';

/** The configuration section the server asks the client for. */
export const SETTINGS_SECTION = 'kubeReconcile';

export interface ValidationSettings {
  /** Validate at all; when false the server publishes no diagnostics. */
  readonly enable: boolean;
  /** Globs, relative to the workspace folder, of the files to validate and index. */
  readonly include: readonly string[];
  /** Globs of files never validated nor indexed, even when included. */
  readonly exclude: readonly string[];
}

export interface KubeReconcileSettings {
  readonly validation: ValidationSettings;
  /** The Kubernetes minor release manifests are checked against (`kubeReconcile.kubernetesVersion`). */
  readonly kubernetesVersion: string;
  /**
   * Folders of CustomResourceDefinitions read offline (`kubeReconcile.crdFolders`, e.g. a vendored CRD catalogue):
   * absolute, or relative to the first workspace folder. Their CRDs serve custom resources as a workspace CRD does.
   */
  readonly crdFolders: readonly string[];
}

export const DEFAULT_SETTINGS: KubeReconcileSettings = Object.freeze({
  validation: Object.freeze({
    enable: true,
    include: Object.freeze(['**/*.yaml', '**/*.yml']),
    exclude: Object.freeze(['**/node_modules/**', '**/.git/**']),
  }),
  kubernetesVersion: DEFAULT_KUBERNETES_VERSION,
  crdFolders: Object.freeze([]),
});

/**
 * Complete settings from the `kubeReconcile` section a client sent (from
 * `workspace/configuration`, `didChangeConfiguration` or
 * `initializationOptions`). Anything missing or of the wrong type takes its
 * default, so a typo in settings.json never stops validation.
 */
export function normalizeSettings(raw: unknown): KubeReconcileSettings {
  const validation = field(raw, 'validation');
  return {
    validation: {
      enable:
        typeof field(validation, 'enable') === 'boolean'
          ? (field(validation, 'enable') as boolean)
          : DEFAULT_SETTINGS.validation.enable,
      include: stringList(field(validation, 'include')) ?? DEFAULT_SETTINGS.validation.include,
      exclude: stringList(field(validation, 'exclude')) ?? DEFAULT_SETTINGS.validation.exclude,
    },
    kubernetesVersion: release(field(raw, 'kubernetesVersion')),
    crdFolders: stringList(field(raw, 'crdFolders')) ?? DEFAULT_SETTINGS.crdFolders,
  };
}

/**
 * The `kubeReconcile` section inside `initializationOptions` or a pushed
 * `didChangeConfiguration` payload, which clients send either as
 * `{ kubeReconcile: {...} }` or as the section itself.
 */
export function settingsSection(payload: unknown): unknown {
  const nested = field(payload, SETTINGS_SECTION);
  return nested === undefined ? payload : nested;
}

function release(value: unknown): string {
  const v = typeof value === 'string' ? normalizeKubernetesVersion(value) : undefined;
  return v !== undefined && isSupportedKubernetesVersion(v) ? v : DEFAULT_SETTINGS.kubernetesVersion;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function stringList(value: unknown): readonly string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}
