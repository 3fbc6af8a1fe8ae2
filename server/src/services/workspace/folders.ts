/**
 * Workspace folders and the URIs inside them. URIs are compared as the client
 * sends them (VS Code encodes them consistently), with a trailing `/` dropped
 * from folder URIs so that `file:///w` and `file:///w/` are one folder.
 */

/** The folder URI without trailing slashes. */
export function normalizeFolderUri(uri: string): string {
  return uri.replace(/\/+$/, '');
}

/**
 * The `/`-separated, percent-decoded path of `uri` relative to `folderUri`,
 * or undefined when `uri` is not inside the folder.
 */
export function relativePath(folderUri: string, uri: string): string | undefined {
  const prefix = `${normalizeFolderUri(folderUri)}/`;
  if (!uri.startsWith(prefix)) return undefined;
  const rest = uri.slice(prefix.length);
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

/** The innermost of `folders` that contains `uri` (nested folders are allowed in multi-root workspaces). */
export function folderFor(folders: Iterable<string>, uri: string): string | undefined {
  let best: string | undefined;
  for (const f of folders) {
    if (relativePath(f, uri) !== undefined && (best === undefined || f.length > best.length)) best = f;
  }
  return best;
}

/** The last path segment of a URI, for messages about files outside any folder. */
export function baseName(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
