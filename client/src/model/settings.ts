/**
 * The extension's settings as typed values, read through a getter so that
 * the rules (defaults, ranges, which changes need a sandbox reset) are
 * tested without VS Code. `client/src/config.ts` supplies the getter.
 */
import {
  DEFAULT_KUBERNETES_VERSION,
  isSupportedKubernetesVersion,
  normalizeKubernetesVersion,
} from '../../../sandbox/schema/versions';
import type { SandboxSettings } from '../sandbox/protocol';

/**
 * Keys under `kubeReconcile.` that this module reads. `applyOnSave` is the setting `applyOn` replaced: read only to
 * migrate a `false` someone set.
 */
export type SettingKey =
  | 'sandbox.nodes'
  | 'sandbox.speed'
  | 'sandbox.seed'
  | 'applyOn'
  | 'applyOnSave'
  | 'applyOnStartup'
  | 'selfHeal'
  | 'kubernetesVersion';

export const SETTING_KEYS: readonly SettingKey[] = [
  'sandbox.nodes',
  'sandbox.speed',
  'sandbox.seed',
  'applyOn',
  'applyOnSave',
  'applyOnStartup',
  'selfHeal',
  'kubernetesVersion',
];

/**
 * Which saves apply a file: only those the user asked for (Ctrl+S, Save All; not the auto-saves after a delay or on a
 * focus change), any save, or none (apply by hand).
 */
export type ApplyOn = 'explicitSave' | 'anySave' | 'never';
export const APPLY_ON: readonly ApplyOn[] = ['explicitSave', 'anySave', 'never'];

/** Whether the workspace's manifests are applied when the extension starts: ask once per workspace, always, never. */
export type ApplyOnStartup = 'ask' | 'always' | 'never';
export const APPLY_ON_STARTUP: readonly ApplyOnStartup[] = ['ask', 'always', 'never'];

/** Settings that only take effect when the sandbox is reset (a new cluster is built). */
export const RESET_SETTINGS: readonly SettingKey[] = ['sandbox.nodes', 'sandbox.seed', 'kubernetesVersion'];

export const SPEEDS: readonly number[] = [1, 5, 20];
export const MAX_NODES = 20;

export interface Settings extends SandboxSettings {
  applyOn: ApplyOn;
  applyOnStartup: ApplyOnStartup;
  kubernetesVersion: string;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = {
  nodes: 3,
  speed: 1,
  seed: 1,
  selfHeal: true,
  applyOn: 'explicitSave',
  applyOnStartup: 'ask',
  kubernetesVersion: DEFAULT_KUBERNETES_VERSION,
};

function integer(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function release(value: unknown): string {
  const v = typeof value === 'string' ? normalizeKubernetesVersion(value) : undefined;
  return v !== undefined && isSupportedKubernetesVersion(v) ? v : DEFAULT_SETTINGS.kubernetesVersion;
}

function oneOf<T extends string>(value: unknown, choices: readonly T[]): T | undefined {
  return typeof value === 'string' && (choices as readonly string[]).includes(value) ? (value as T) : undefined;
}

/**
 * `applyOn` when set; else the legacy `applyOnSave: false` means `never`; else the default. `get` must return only
 * values the user set for these two keys (not the defaults of package.json), or the migration cannot tell.
 */
function applyOnOf(get: (key: SettingKey) => unknown): ApplyOn {
  return oneOf(get('applyOn'), APPLY_ON) ?? (get('applyOnSave') === false ? 'never' : DEFAULT_SETTINGS.applyOn);
}

/**
 * The settings from `get(key)`; a missing or out-of-range value falls back to its default. For `applyOn` and
 * `applyOnSave`, `get` gives only what the user set (see `applyOnOf`).
 */
export function readSettings(get: (key: SettingKey) => unknown): Settings {
  const speed = get('sandbox.speed');
  return {
    nodes: integer(get('sandbox.nodes'), DEFAULT_SETTINGS.nodes, 1, MAX_NODES),
    speed: typeof speed === 'number' && SPEEDS.includes(speed) ? speed : DEFAULT_SETTINGS.speed,
    seed: integer(get('sandbox.seed'), DEFAULT_SETTINGS.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    selfHeal: bool(get('selfHeal'), DEFAULT_SETTINGS.selfHeal),
    applyOn: applyOnOf(get),
    applyOnStartup: oneOf(get('applyOnStartup'), APPLY_ON_STARTUP) ?? DEFAULT_SETTINGS.applyOnStartup,
    kubernetesVersion: release(get('kubernetesVersion')),
  };
}

/** The sandbox part of the settings, as the worker's `init` takes it. */
export function sandboxSettings(s: Settings): SandboxSettings {
  return { nodes: s.nodes, speed: s.speed, seed: s.seed, selfHeal: s.selfHeal, kubernetesVersion: s.kubernetesVersion };
}
