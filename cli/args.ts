/**
 * A deliberately small argument parser: `--flag`, `--opt value`,
 * `--opt=value`, short aliases, and `--` to end options. Each command states
 * the options it accepts; anything else is a usage error (exit code 2).
 */

import { UsageError } from './usageError';
import { DEFAULT_KUBERNETES_VERSION, setKubernetesVersion } from '../sandbox/schema/schema';
import {
  KUBERNETES_VERSIONS,
  isSupportedKubernetesVersion,
  normalizeKubernetesVersion,
  unsupportedVersionMessage,
} from '../sandbox/schema/versions';

export type OptionSpec =
  | { readonly type: 'boolean'; readonly short?: string }
  | { readonly type: 'string'; readonly short?: string; readonly choices?: readonly string[] }
  /** May be given several times; the values are collected in order. */
  | { readonly type: 'list'; readonly short?: string };

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface ParsedArgs {
  /** Option values by long name; booleans are `true` when present; lists collect every value. */
  readonly options: Readonly<Record<string, string | boolean | readonly string[]>>;
  readonly positionals: readonly string[];
}

export { UsageError };

/** Parses `args` against `specs`; throws {@link UsageError} for unknown options, missing values and bad choices. */
export function parseArgs(args: readonly string[], specs: OptionSpecs): ParsedArgs {
  const options: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const written = eq < 0 ? arg : arg.slice(0, eq);
    const name = optionName(written, specs);
    const spec = specs[name];
    if (spec.type === 'boolean') {
      if (eq >= 0) throw new UsageError(`option ${written} does not take a value`);
      options[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`option ${written} needs a value`);
    if (spec.type === 'list') {
      const list = options[name];
      options[name] = Array.isArray(list) ? [...list, value] : [value];
      continue;
    }
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`option ${written} must be one of ${spec.choices.join(', ')} (got "${value}")`);
    }
    options[name] = value;
  }
  return { options, positionals };
}

function optionName(written: string, specs: OptionSpecs): string {
  if (written.startsWith('--') && Object.hasOwn(specs, written.slice(2))) return written.slice(2);
  if (!written.startsWith('--')) {
    const found = Object.entries(specs).find(([, s]) => s.short === written.slice(1));
    if (found) return found[0];
  }
  throw new UsageError(`unknown option ${written}`);
}

/** `--kubernetes-version`, shared by validate, simulate and serve. */
export const KUBERNETES_VERSION_OPTION: OptionSpec = { type: 'string' };

/** Help text of `--kubernetes-version`, aligned for the commands' option lists. */
export const KUBERNETES_VERSION_HELP = `--kubernetes-version V  the Kubernetes release to check against and serve
                        (${KUBERNETES_VERSIONS.join(', ')}; default ${DEFAULT_KUBERNETES_VERSION})`;

/**
 * Makes the `--kubernetes-version` value (default 1.32) the release the schema, `/version` and the nodes
 * follow; returns it (`1.33` for `v1.33.2`). A release without a schema is a usage error.
 */
export function useKubernetesVersion(value: string | boolean | readonly string[] | undefined): string {
  const text = typeof value === 'string' ? value : DEFAULT_KUBERNETES_VERSION;
  const version = normalizeKubernetesVersion(text);
  if (version === undefined || !isSupportedKubernetesVersion(version))
    throw new UsageError(`--kubernetes-version: ${unsupportedVersionMessage(text)}`);
  setKubernetesVersion(version);
  return version;
}
