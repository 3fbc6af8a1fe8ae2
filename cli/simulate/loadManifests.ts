/**
 * Reads manifest files for `simulate`: every Kubernetes document with the
 * file and line it starts on, plus the problems that stop a document from
 * being applied at all (unreadable file, YAML errors) in `file:line: message`
 * form.
 */
import { readFile } from 'node:fs/promises';
import type { ApiError } from '../../sandbox/api/errors';
import { manifestObjects } from '../../sandbox/manifests/parseManifests';
import { placeManifests } from '../../sandbox/manifests/placedManifests';
import type { PlacedManifest } from '../../sandbox/manifests/placedManifests';
import { collectFiles } from '../collectFiles';
import { appendAll } from '../../sandbox/util/arrays';

/** A manifest of a file, its `source` the file as displayed (relative to where the command runs). */
export type LoadedManifest = PlacedManifest;

/**
 * `file:line` of a rejection: the line of the first field it names (an unknown field, or a 422's first cause), else
 * of the document.
 */
export function rejectionAt(m: LoadedManifest, e: ApiError): string {
  const fields = e.fields ?? (e.status.details?.causes ?? []).flatMap((c) => (c.field ? [c.field] : []));
  return `${m.source}:${fields.length > 0 ? m.lineOf(fields[0]) : m.line}`;
}

export interface LoadResult {
  manifests: LoadedManifest[];
  /** Lines like `web.yaml:12: <message>`. */
  problems: string[];
  files: number;
}

export async function loadManifests(paths: readonly string[], cwd: string): Promise<LoadResult> {
  const files = await collectFiles(paths, cwd);
  const manifests: LoadedManifest[] = [];
  const problems: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = await readFile(f.absolute, 'utf8');
    } catch (e) {
      problems.push(`${f.display}: cannot read file: ${(e as Error).message}`);
      continue;
    }
    const parsed = manifestObjects(text);
    for (const e of parsed.errors) problems.push(`${f.display}:${e.line + 1}: ${e.message}`);
    appendAll(manifests, placeManifests(parsed.manifests, f.display));
  }
  return { manifests, problems, files: files.length };
}
