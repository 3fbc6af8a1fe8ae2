/**
 * Which workspace files the sandbox applies: YAML files, not under
 * node_modules or .git, at most 10 MiB each, at most MAX_WORKSPACE_FILES in
 * one scan — so activating in a huge repository stays bounded.
 */

export const YAML_GLOB = '**/*.{yaml,yml}';
export const EXCLUDE_GLOB = '{**/node_modules/**,**/.git/**}';
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_WORKSPACE_FILES = 2000;

export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/** `big.yaml (12.3 MiB)` for the "skipped" warning. */
export function describeSkipped(path: string, bytes: number): string {
  return `${path} (${(bytes / 1024 / 1024).toFixed(1)} MiB)`;
}

/** Files under a deleted folder (workspace-relative paths, `/`-separated). */
export function filesUnder(folder: string, files: Iterable<string>): string[] {
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  return [...files].filter((f) => f.startsWith(prefix));
}
