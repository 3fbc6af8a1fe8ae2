/**
 * Which workspace files are the desired state (`kubeReconcile.desiredState.include`
 * and `.exclude`, per workspace folder): YAML files matching an include glob and no
 * exclude glob, by their path relative to the folder, with VS Code's glob semantics.
 * Only these are applied at start-up, on save and on Apply Workspace; Apply File
 * applies any file it is given.
 */
import { compileGlob, matchesAny } from '../../../sandbox/util/glob';

export interface DesiredSelection {
  include: string[];
  exclude: string[];
}

export const DEFAULT_DESIRED_STATE: Readonly<DesiredSelection> = {
  include: ['**/*.yaml', '**/*.yml'],
  exclude: ['**/node_modules/**', '**/.git/**'],
};

function globs(value: unknown, fallback: readonly string[]): string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : [...fallback];
}

/** The selection from settings values (a missing or malformed list falls back to its default). */
export function readDesiredSelection(include: unknown, exclude: unknown): DesiredSelection {
  return {
    include: globs(include, DEFAULT_DESIRED_STATE.include),
    exclude: globs(exclude, DEFAULT_DESIRED_STATE.exclude),
  };
}

/** True for a folder-relative path (`/`-separated) in the desired state. */
export type DesiredFilter = (relativePath: string) => boolean;

export function desiredFilter(selection: DesiredSelection): DesiredFilter {
  const include = selection.include.map(compileGlob);
  const exclude = selection.exclude.map(compileGlob);
  return (path) => matchesAny(include, path) && !matchesAny(exclude, path);
}
