/**
 * Reading workspace files from disk: listing the files of a folder that the
 * include/exclude settings select, and reading one file's text. Only `file:`
 * URIs are read; anything else (a remote folder) is left to open documents.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FileFilter } from '../services/workspace/fileFilter';
import { normalizeFolderUri } from '../services/workspace/folders';
import { MAX_TEXT_LENGTH } from '../services/parseManifests';

/** At most this many files are indexed per folder: the index stays bounded in huge repositories. */
export const MAX_FILES_PER_FOLDER = 5000;

/**
 * Files with more bytes than this have more than MAX_TEXT_LENGTH UTF-16 code units (UTF-8 spends at most 3 bytes per
 * unit), so they are not read at all.
 */
const MAX_READ_BYTES = 3 * MAX_TEXT_LENGTH;

/**
 * URIs of the files below `folderUri` that `fileFilter` selects, walking only
 * into folders `folderFilter` allows, in sorted order, at most `limit`.
 * Unreadable folders are skipped.
 */
export async function listFolderFiles(
  folderUri: string,
  fileFilter: FileFilter,
  folderFilter: FileFilter,
  limit = MAX_FILES_PER_FOLDER,
): Promise<string[]> {
  const root = normalizeFolderUri(folderUri);
  const rootPath = pathOf(root);
  if (rootPath === undefined) return [];
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length >= limit) return;
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (folderFilter(childRel)) await walk(`${dir}/${e.name}`, childRel);
      } else if ((e.isFile() || e.isSymbolicLink()) && fileFilter(childRel)) {
        out.push(`${root}/${childRel.split('/').map(encodeURIComponent).join('/')}`);
      }
    }
  };
  await walk(rootPath, '');
  return out;
}

/** What reading a file gave: its text, `too-large` (not read), or `missing` (gone or unreadable). */
export type DiskRead = { readonly text: string } | 'too-large' | 'missing';

/** Reads a file as UTF-8 (invalid bytes become U+FFFD, which the analysis declines as binary). */
export async function readDiskFile(uri: string): Promise<DiskRead> {
  const path = pathOf(uri);
  if (path === undefined) return 'missing';
  try {
    const info = await stat(path);
    if (!info.isFile()) return 'missing';
    if (info.size > MAX_READ_BYTES) return 'too-large';
    return { text: new TextDecoder('utf-8').decode(await readFile(path)) };
  } catch {
    return 'missing';
  }
}

function pathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
