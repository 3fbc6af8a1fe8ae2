/**
 * Expands the paths given on the command line into the files to check:
 * a file is taken as given (whatever its extension), a folder is searched
 * recursively for `*.yaml` / `*.yml`, in sorted order so output is the same
 * on every machine. Hidden folders and `node_modules` are skipped.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const MANIFEST_FILE = /\.ya?ml$/i;

/** One file to validate: `display` is the path to print (as given, joined with the part found by searching). */
export interface FoundFile {
  readonly display: string;
  readonly absolute: string;
}

/**
 * Files for `paths` (relative to `cwd`), without duplicates, in argument order
 * and sorted within each folder. A path that cannot be read is still returned,
 * so the caller reports it in place.
 */
export async function collectFiles(paths: readonly string[], cwd: string): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  const seen = new Set<string>();
  const add = (f: FoundFile): void => {
    if (seen.has(f.absolute)) return;
    seen.add(f.absolute);
    out.push(f);
  };
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    const isDir = await stat(absolute).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) add({ display: given, absolute });
    else
      for (const rel of await manifestsUnder(absolute))
        add({ display: join(given, rel), absolute: join(absolute, rel) });
  }
  return out;
}

/** Relative paths of manifest files below `dir`, sorted by code unit so the order is locale-independent. */
async function manifestsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = entries.map((e) => e.name).sort(compareCodeUnits);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const out: string[] = [];
  for (const name of names) {
    const entry = byName.get(name)!;
    if (entry.isDirectory()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      for (const rel of await manifestsUnder(join(dir, name))) out.push(join(name, rel));
    } else if ((entry.isFile() || entry.isSymbolicLink()) && MANIFEST_FILE.test(name)) {
      out.push(name);
    }
  }
  return out;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
