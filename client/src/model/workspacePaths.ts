/**
 * How the sandbox names workspace files, and back. A file applied to the
 * sandbox is named by its path relative to its workspace folder (`web.yaml`,
 * `deploy/web.yaml`), prefixed by the folder's name in a multi-root workspace
 * (`app/web.yaml`), as VS Code's `asRelativePath` names it. Turning a name back
 * into a file always goes through its workspace folder's URI, never through a
 * local absolute path, so it works where the folder is remote
 * (`vscode-remote://`: code-server, Remote-SSH, WSL, dev containers,
 * Codespaces) or virtual. No `vscode` import: the glue joins the URIs.
 */

/** What is needed of a workspace folder: its name (multi-root prefixes) and its URI's path. */
export interface FolderLike {
  readonly name: string;
  /** The path of the folder's URI (`/home/me/app`), `/`-separated. */
  readonly path: string;
}

/** Where a source lives: the index of its workspace folder and its `/`-separated path inside it. */
export interface SourceLocation {
  folder: number;
  path: string;
}

/** The source name of the file at `path` (`/`-separated, relative) in folder `index` of `folders`. */
export function sourceName(folders: readonly FolderLike[], index: number, path: string): string {
  const relative = path.replace(/^\/+/, '');
  return folders.length > 1 ? `${folders[index].name}/${relative}` : relative;
}

/**
 * The folder and relative path a source name stands for; undefined when no folder is open, or in a multi-root
 * workspace when no folder has the name it starts with. A stray leading `/` is ignored.
 */
export function sourceLocation(folders: readonly FolderLike[], source: string): SourceLocation | undefined {
  const name = source.replace(/^\/+/, '');
  if (folders.length === 0 || name === '') return undefined;
  if (folders.length === 1) return { folder: 0, path: name };
  const slash = name.indexOf('/');
  if (slash <= 0) return undefined;
  const folder = folders.findIndex((f) => f.name === name.slice(0, slash));
  return folder < 0 ? undefined : { folder, path: name.slice(slash + 1) };
}

/**
 * The source name of a file given by its URI path, when it is inside one of `folders` (the innermost one, as VS Code
 * picks it) for which `eligible` holds (a folder of the same URI scheme); undefined otherwise. Both paths are URI
 * paths (`/`-separated).
 */
export function sourceOfPath(
  folders: readonly FolderLike[],
  path: string,
  eligible: (index: number) => boolean = () => true,
): string | undefined {
  const base = (i: number) => folders[i].path.replace(/\/+$/, '');
  let best = -1;
  for (let i = 0; i < folders.length; i++) {
    if (eligible(i) && path.startsWith(`${base(i)}/`) && (best < 0 || base(i).length > base(best).length)) best = i;
  }
  return best < 0 ? undefined : sourceName(folders, best, path.slice(base(best).length + 1));
}
