/**
 * The workspace index: for every file the server knows (YAML files of the
 * workspace folders read from disk, and open documents, whose unsaved text
 * wins), its own diagnostics and the facts of its Kubernetes objects, grouped
 * by workspace folder. Pure bookkeeping: the handlers decide what to read and
 * when; this answers "what is in this folder".
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { FileFacts } from '../crossDocument/facts';
import type { FileAnalysis } from './analyzeFile';
import { baseName, folderFor, normalizeFolderUri, relativePath } from './folders';

/** Where an indexed file's text came from. */
export type FileOrigin = 'open' | 'disk';

export interface IndexedFile {
  readonly uri: string;
  /** The innermost workspace folder holding the file; undefined for files outside every folder. */
  readonly folder: string | undefined;
  readonly origin: FileOrigin;
  /** The document version for open files. */
  readonly version: number | undefined;
  readonly diagnostics: readonly Diagnostic[];
  readonly facts: FileFacts;
}

export class WorkspaceIndex {
  private readonly folderUris = new Set<string>();
  private readonly files = new Map<string, IndexedFile>();

  /** The workspace folders, normalized (no trailing slash). */
  get folders(): string[] {
    return [...this.folderUris];
  }

  /** Adds a workspace folder; files already indexed are re-assigned to their innermost folder. */
  addFolder(uri: string): void {
    this.folderUris.add(normalizeFolderUri(uri));
    this.reassignFolders();
  }

  /**
   * Removes a folder; returns the disk files that were in it and are now forgotten (open files stay, as loose files).
   */
  removeFolder(uri: string): string[] {
    const folder = normalizeFolderUri(uri);
    this.folderUris.delete(folder);
    const dropped = [...this.files.values()]
      .filter((f) => f.folder === folder && f.origin === 'disk')
      .map((f) => f.uri);
    for (const u of dropped) this.files.delete(u);
    this.reassignFolders();
    return dropped;
  }

  /** The innermost workspace folder holding `uri`, or undefined. */
  folderFor(uri: string): string | undefined {
    return folderFor(this.folderUris, uri);
  }

  /** Records the analysis of a file, replacing what was known about it. */
  set(uri: string, analysis: FileAnalysis, origin: FileOrigin, version?: number): IndexedFile {
    const folder = this.folderFor(uri);
    const display = folder === undefined ? baseName(uri) : (relativePath(folder, uri) ?? baseName(uri));
    const file: IndexedFile = {
      uri,
      folder,
      origin,
      version,
      diagnostics: analysis.diagnostics,
      facts: { uri, display, objects: analysis.objects },
    };
    this.files.set(uri, file);
    return file;
  }

  get(uri: string): IndexedFile | undefined {
    return this.files.get(uri);
  }

  /** Forgets a file; true when it was known. */
  delete(uri: string): boolean {
    return this.files.delete(uri);
  }

  /** Every known file at or below `uri` (a deleted file, or a deleted directory). */
  filesAtOrBelow(uri: string): string[] {
    const prefix = `${normalizeFolderUri(uri)}/`;
    return [...this.files.keys()].filter((u) => u === uri || u.startsWith(prefix));
  }

  /** The files of a folder (or, for `undefined`, every file outside all folders), in URI order. */
  filesIn(folder: string | undefined): IndexedFile[] {
    const f = folder === undefined ? undefined : normalizeFolderUri(folder);
    return [...this.files.values()]
      .filter((file) => file.folder === f)
      .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** Every known file. */
  allFiles(): IndexedFile[] {
    return [...this.files.values()];
  }

  /**
   * Label keys and their values known in a workspace folder: object labels
   * and pod template labels of every file in it (for selector completion).
   */
  labelsInWorkspace(folderUri: string): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const add = (labels: Readonly<Record<string, string>>): void => {
      for (const [k, v] of Object.entries(labels)) {
        const values = out.get(k) ?? new Set<string>();
        values.add(v);
        out.set(k, values);
      }
    };
    for (const file of this.filesIn(folderUri)) {
      for (const o of file.facts.objects) {
        add(o.labels);
        for (const t of o.podTemplateLabels) add(t);
      }
    }
    return out;
  }

  private reassignFolders(): void {
    for (const file of [...this.files.values()]) {
      const folder = this.folderFor(file.uri);
      if (folder === file.folder) continue;
      const display =
        folder === undefined ? baseName(file.uri) : (relativePath(folder, file.uri) ?? baseName(file.uri));
      this.files.set(file.uri, { ...file, folder, facts: { ...file.facts, display } });
    }
  }
}

/** Label keys and values known in a folder of `index`; see {@link WorkspaceIndex.labelsInWorkspace}. */
export function labelsInWorkspace(index: WorkspaceIndex, folderUri: string): Map<string, Set<string>> {
  return index.labelsInWorkspace(folderUri);
}
