/**
 * Wire layer for the CustomResourceDefinitions of `kubeReconcile.crdFolders` (a vendored CRD catalogue): every
 * `.yaml`, `.yml` and `.json` file below each folder is read from disk whenever the setting or the workspace folders
 * change, or a file below one of them changes; a folder that does not exist is reported once (not again until it has
 * existed). What they serve is customSchema/externalCrds.ts's.
 */
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../../sandbox/api/types';
import { crdsInText, resolveCrdFolder } from '../services/customSchema/externalCrds';
import type { FileFilter } from '../services/workspace/fileFilter';
import { relativePath } from '../services/workspace/folders';
import type { DiskRead } from './diskFiles';
import { listFolderFiles, readDiskFile } from './diskFiles';

/** What reading the catalogue needs from the outside world. */
export interface CrdFolderHost {
  listFiles(folderUri: string, fileFilter: FileFilter, folderFilter: FileFilter): Promise<string[]>;
  readFile(uri: string): Promise<DiskRead>;
  /** Whether `uri` is a folder that exists. */
  isFolder(uri: string): Promise<boolean>;
  /** Shows a warning to the user (once per folder: the catalogue decides when). */
  warn(message: string): void;
}

export const CRD_FILE: FileFilter = (rel) => /\.(ya?ml|json)$/i.test(rel);
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
const CRD_SUBFOLDER: FileFilter = (rel) => !SKIPPED_FOLDERS.has(rel.slice(rel.lastIndexOf('/') + 1));

/** The host on the local disk. */
export function diskCrdFolderHost(warn: (message: string) => void): CrdFolderHost {
  return {
    listFiles: listFolderFiles,
    readFile: readDiskFile,
    async isFolder(uri) {
      try {
        return (await stat(fileURLToPath(uri))).isDirectory();
      } catch {
        return false;
      }
    },
    warn,
  };
}

export class CrdCatalogue {
  private generation = 0;
  private entries: readonly string[] = [];
  private workspaceFolders: readonly string[] = [];
  private loaded: readonly string[] = [];
  /** Folders already reported missing (or unresolvable): reported again only after they have been read once. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly host: CrdFolderHost,
    private readonly onCrds: (crds: readonly KubeObject[]) => void,
  ) {}

  /**
   * Reads the folders of `entries` (resolved against the first of `workspaceFolders`) and hands their CRDs, in the
   * order of the setting then of file names, to `onCrds`. A newer load supersedes one still reading.
   */
  async load(entries: readonly string[], workspaceFolders: readonly string[]): Promise<void> {
    this.entries = entries;
    this.workspaceFolders = workspaceFolders;
    const generation = ++this.generation;
    const crds: KubeObject[] = [];
    const loaded: string[] = [];
    for (const entry of entries) {
      const uri = resolveCrdFolder(entry, workspaceFolders);
      const key = uri ?? `relative:${entry}`;
      if (uri === undefined || !(await this.host.isFolder(uri))) {
        if (generation !== this.generation) return;
        if (!this.warned.has(key)) {
          this.warned.add(key);
          this.host.warn(
            uri === undefined
              ? `Kube Reconcile: the CRD folder "${entry}" (kubeReconcile.crdFolders) is relative and no workspace folder is open; its CRDs are not read.`
              : `Kube Reconcile: the CRD folder "${entry}" (kubeReconcile.crdFolders) does not exist; its CRDs are not read.`,
          );
        }
        continue;
      }
      this.warned.delete(key);
      loaded.push(uri);
      for (const file of await this.host.listFiles(uri, CRD_FILE, CRD_SUBFOLDER)) {
        const read = await this.host.readFile(file);
        if (typeof read === 'object') crds.push(...crdsInText(read.text));
      }
    }
    if (generation !== this.generation) return;
    this.loaded = loaded;
    this.onCrds(crds);
  }

  /** Files changed on disk: the catalogue is read again when one is below (or is) one of its folders. */
  filesChanged(uris: readonly string[]): Promise<void> | undefined {
    const touches = uris.some((u) => this.loaded.some((f) => u === f || relativePath(f, u) !== undefined));
    return touches ? this.load(this.entries, this.workspaceFolders) : undefined;
  }
}
