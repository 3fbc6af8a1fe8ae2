/**
 * Which files of a workspace folder the server validates and indexes: those
 * matching an include glob and no exclude glob, by their path relative to the
 * folder.
 */
import type { ValidationSettings } from '../../settings';
import { compileGlob, matchesAny } from './glob';

/** True for a folder-relative path (`/`-separated) the settings select. */
export type FileFilter = (relativePath: string) => boolean;

/** Compiles the include/exclude globs of `settings` once. */
export function createFileFilter(settings: Pick<ValidationSettings, 'include' | 'exclude'>): FileFilter {
  const include = settings.include.map(compileGlob);
  const exclude = settings.exclude.map(compileGlob);
  return (path) => matchesAny(include, path) && !matchesAny(exclude, path);
}

/** Stand-in file names one, two and three levels below a folder (a NUL never occurs in a real name). */
const PROBES = ['/\u0000', '/\u0000/\u0000', '/\u0000/\u0000/\u0000'];

/**
 * False for a folder (relative path) whose whole content the excludes rule
 * out (`node_modules`, `.git`), so a directory walk need not enter it. Judged
 * by probing stand-in files at several depths: a pattern such as `test/*`,
 * which excludes only the folder's direct files, does not prune the folder.
 */
export function createFolderFilter(settings: Pick<ValidationSettings, 'exclude'>): FileFilter {
  const exclude = settings.exclude.map(compileGlob);
  return (path) => !PROBES.every((probe) => matchesAny(exclude, path + probe));
}
