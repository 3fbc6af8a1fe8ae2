/**
 * Keeps the diagnostics of a whole workspace up to date: open documents are
 * validated after a quiet time (their unsaved text wins over the disk), the
 * YAML files of each workspace folder are read from disk in the background,
 * and whenever a file's analysis changes, the cross-document checks of its
 * folder run again and every file whose diagnostics changed is republished —
 * open or not, so the Problems panel shows the whole workspace.
 *
 * Knows nothing of the LSP connection: what it needs comes in a
 * {@link WorkspaceHost}, so it can be driven directly by tests.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { KubeObject } from '../../../sandbox/api/types';
import { DEFAULT_SETTINGS } from '../settings';
import type { KubeReconcileSettings } from '../settings';
import { crossDocumentDiagnostics, FILE_SCOPE, FOLDER_SCOPE } from '../services/crossDocument/crossDocumentDiagnostics';
import { withoutServedKindWarnings } from '../services/crossDocument/rules/customResourceValidation';
import { makeDiagnostic } from '../services/diagnostic';
import { MAX_TEXT_LENGTH } from '../services/parseManifests';
import type { FileAnalysis } from '../services/workspace/analyzeFile';
import { analyzeInSlices } from '../services/workspace/analyzeInSlices';
import { PieceCache } from '../services/workspace/pieceCache';
import { createFileFilter, createFolderFilter } from '../services/workspace/fileFilter';
import type { FileFilter } from '../services/workspace/fileFilter';
import { normalizeFolderUri, relativePath } from '../services/workspace/folders';
import { WorkspaceIndex } from '../services/workspace/index';
import type { DiskRead } from './diskFiles';
import { DiskQueue } from './diskQueue';
import type { SendDiagnostics } from './publisher';
import { DiagnosticsPublisher } from './publisher';
import { ValidationScheduler } from './validationScheduler';
import { kubernetesVersion, setKubernetesVersion } from '../schema/schema';

/** An open document as seen at one version. */
export interface DocumentSnapshot {
  readonly uri: string;
  readonly version: number;
  readonly languageId: string;
  readonly text: string;
}

/** What the coordinator needs from the outside world. */
export interface WorkspaceHost {
  readonly send: SendDiagnostics;
  readFile(uri: string): Promise<DiskRead>;
  listFiles(folderUri: string, fileFilter: FileFilter, folderFilter: FileFilter): Promise<string[]>;
  /** Milliseconds, for slicing long validations. */
  now(): number;
  yieldToEventLoop(): Promise<void>;
}

/**
 * Quiet time after the last keystroke before validating an open document: none. An edit is validated on the next
 * turn of the event loop (changes that arrived together coalesce into one run), and a run whose document changed
 * again meanwhile is cancelled between slices and never publishes — a one-line edit in a 1,000-line file is a few
 * milliseconds of work (each unchanged piece's analysis is kept), so waiting out a fixed debounce only added latency.
 */
export const VALIDATION_DELAY_MS = 0;

/** True for documents validated outside workspace folders: language `yaml`, or a `.yaml`/`.yml` file. */
export function isYamlDocument(doc: { readonly uri: string; readonly languageId: string }): boolean {
  return doc.languageId === 'yaml' || /\.ya?ml$/i.test(doc.uri);
}

interface Selection {
  readonly settings: KubeReconcileSettings;
  readonly files: FileFilter;
  readonly folders: FileFilter;
}

export class WorkspaceDiagnostics {
  readonly index = new WorkspaceIndex();
  private readonly publisher: DiagnosticsPublisher;
  private readonly scheduler: ValidationScheduler<DocumentSnapshot>;
  private readonly queue: DiskQueue;
  private readonly open = new Map<string, DocumentSnapshot>();
  /** Per open document, the analyses of its unchanged pieces. */
  private readonly caches = new Map<string, PieceCache>();
  /** Folders whose first scan has not finished: their cross-document results would be incomplete. */
  private readonly scanning = new Set<string>();
  /** The newest scan per folder: an older scan that finishes late must not end the newer one's `scanning` state. */
  private readonly scans = new Map<string, number>();
  private readonly scanRuns = new Set<Promise<void>>();
  /** The cross-document diagnostics last published per URI, as JSON. */
  private readonly crossShown = new Map<string, string>();
  /** Files analyzed again since their diagnostics were last published. */
  private readonly stale = new Set<string>();
  /** Folders with changes not yet reflected in their cross-document diagnostics. */
  private readonly dirty = new Set<string>();
  private global: Selection = selection(DEFAULT_SETTINGS);
  private perFolder = new Map<string, Selection>();
  private external: readonly KubeObject[] = [];

  constructor(
    private readonly host: WorkspaceHost,
    delayMs = VALIDATION_DELAY_MS,
  ) {
    this.publisher = new DiagnosticsPublisher(host.send);
    this.scheduler = new ValidationScheduler<DocumentSnapshot>(
      delayMs,
      (doc, isCurrent) => void this.validateOpen(doc, isCurrent),
    );
    this.queue = new DiskQueue(
      (uri, isCurrent) => this.validateDisk(uri, isCurrent),
      () => this.flushDirty(),
    );
  }

  /** Replaces the settings (global, and per folder where they differ) and re-indexes everything. */
  setSettings(global: KubeReconcileSettings, perFolder: ReadonlyMap<string, KubeReconcileSettings> = new Map()): void {
    // One release for the whole server: the window's setting (a folder's own value is not used). An open document's
    // pieces were analysed in the release of their time: forget them when it changes.
    if (global.kubernetesVersion !== kubernetesVersion()) this.caches.clear();
    setKubernetesVersion(global.kubernetesVersion);
    this.global = selection(global);
    this.perFolder = new Map([...perFolder].map(([f, s]) => [normalizeFolderUri(f), selection(s)]));
    this.reindex();
  }

  /**
   * The CustomResourceDefinitions from outside the workspace (the `kubeReconcile.crdFolders` catalogue, then the
   * running sandbox's): they serve custom resources after each folder's own CRDs. Every folder and every file
   * outside the folders is checked again.
   */
  setExternalCrds(crds: readonly KubeObject[]): void {
    this.external = crds;
    for (const folder of this.index.folders) this.dirty.add(folder);
    if (this.queue.idle) this.flushDirty();
    for (const uri of this.open.keys()) if (this.index.folderFor(uri) === undefined) this.refresh(undefined, uri);
  }

  /** The CRDs {@link setExternalCrds} gave (completion and hover serve the same kinds). */
  get externalCrds(): readonly KubeObject[] {
    return this.external;
  }

  /** Adds workspace folders and indexes them. */
  addFolders(uris: readonly string[]): void {
    for (const uri of uris) this.index.addFolder(uri);
    for (const uri of uris) this.startScan(normalizeFolderUri(uri));
    for (const doc of this.open.values()) this.scheduler.schedule(doc);
  }

  /** Forgets workspace folders: their disk files' diagnostics are cleared. */
  removeFolders(uris: readonly string[]): void {
    for (const uri of uris) {
      for (const dropped of this.index.removeFolder(uri)) {
        this.queue.cancel(dropped);
        this.publisher.clear(dropped);
      }
      this.scanning.delete(normalizeFolderUri(uri));
      this.scans.delete(normalizeFolderUri(uri));
    }
    for (const doc of this.open.values()) this.scheduler.schedule(doc);
  }

  /**
   * An open document's text changed, or it opened (`immediate`: there is no
   * burst of keystrokes to wait out, so it is validated at once).
   */
  documentChanged(doc: DocumentSnapshot, immediate = false): void {
    this.open.set(doc.uri, doc);
    this.queue.cancel(doc.uri);
    if (this.selects(doc.uri, doc.languageId)) this.scheduler.schedule(doc, immediate ? 0 : undefined);
    else this.forget(doc.uri);
  }

  /**
   * An open document closed: a workspace file falls back to its disk text, any other file's diagnostics are cleared.
   */
  documentClosed(uri: string): void {
    const doc = this.open.get(uri);
    this.open.delete(uri);
    this.caches.delete(uri);
    this.scheduler.cancel(uri);
    if (doc !== undefined && this.index.folderFor(uri) !== undefined && this.selects(uri, doc.languageId))
      this.queue.enqueue(uri);
    else this.forget(uri);
  }

  /** Files changed on disk: `deleted` URIs may be files or folders. */
  filesChanged(changed: readonly string[], deleted: readonly string[]): void {
    for (const uri of deleted) {
      for (const gone of this.index.filesAtOrBelow(uri)) if (!this.open.has(gone)) this.forget(gone);
    }
    for (const uri of changed) {
      if (!this.open.has(uri) && this.index.folderFor(uri) !== undefined && this.selects(uri, ''))
        this.queue.enqueue(uri);
    }
    if (this.queue.idle) this.flushDirty();
  }

  /** Resolves once every folder scan has finished and no disk file is waiting to be read (for tests and the bench). */
  async idle(): Promise<void> {
    while (this.scanRuns.size > 0 || !this.queue.idle) {
      await Promise.all([...this.scanRuns, this.queue.drained()]);
    }
  }

  dispose(): void {
    this.scheduler.dispose();
    this.queue.clear();
  }

  private reindex(): void {
    if (!this.global.settings.validation.enable) {
      this.scheduler.dispose();
      this.queue.clear();
      for (const f of this.index.allFiles()) this.index.delete(f.uri);
      this.publisher.clearAll();
      return;
    }
    for (const folder of this.index.folders) this.startScan(folder);
    for (const doc of this.open.values()) this.documentChanged(doc);
  }

  private startScan(folder: string): void {
    const run = this.scanFolder(folder).catch(() => undefined);
    this.scanRuns.add(run);
    void run.finally(() => this.scanRuns.delete(run));
  }

  private async scanFolder(folder: string): Promise<void> {
    const sel = this.selectionFor(folder);
    if (!sel.settings.validation.enable) return;
    const scan = (this.scans.get(folder) ?? 0) + 1;
    this.scans.set(folder, scan);
    this.scanning.add(folder);
    const found = await this.host.listFiles(folder, sel.files, sel.folders);
    if (!this.index.folders.includes(folder) || this.scans.get(folder) !== scan) return;
    const keep = new Set(found);
    for (const f of this.index.filesIn(folder)) if (f.origin === 'disk' && !keep.has(f.uri)) this.forget(f.uri);
    for (const uri of found) if (!this.open.has(uri)) this.queue.enqueue(uri);
    await this.queue.drained();
    if (this.scans.get(folder) !== scan) return;
    this.scanning.delete(folder);
    this.dirty.add(folder);
    this.flushDirty();
  }

  private async validateOpen(doc: DocumentSnapshot, isCurrent: () => boolean): Promise<void> {
    let cache = this.caches.get(doc.uri);
    if (cache === undefined && this.open.has(doc.uri)) this.caches.set(doc.uri, (cache = new PieceCache()));
    const analysis = await analyzeInSlices(doc.text, {
      now: this.host.now,
      yieldToEventLoop: this.host.yieldToEventLoop,
      isCancelled: () => !isCurrent(),
      cache,
    });
    if (analysis === undefined || !isCurrent()) return;
    this.index.set(doc.uri, analysis, 'open', doc.version);
    this.stale.add(doc.uri);
    this.refresh(this.index.folderFor(doc.uri), doc.uri);
  }

  private async validateDisk(uri: string, isCurrent: () => boolean): Promise<void> {
    const read = await this.host.readFile(uri);
    if (!isCurrent() || this.open.has(uri)) return;
    if (read === 'missing') {
      this.forget(uri);
      return;
    }
    const analysis =
      read === 'too-large'
        ? tooLarge()
        : await analyzeInSlices(read.text, {
            now: this.host.now,
            yieldToEventLoop: this.host.yieldToEventLoop,
            isCancelled: () => !isCurrent() || this.open.has(uri),
          });
    if (analysis === undefined || !isCurrent() || this.open.has(uri)) return;
    const file = this.index.set(uri, analysis, 'disk');
    this.stale.add(uri);
    if (file.folder !== undefined) this.dirty.add(file.folder);
  }

  /**
   * Republishes after `uri` changed: its folder's cross-document checks run again, unless the folder is still being
   * scanned.
   */
  private refresh(folder: string | undefined, uri: string): void {
    if (folder === undefined) {
      const file = this.index.get(uri);
      if (file === undefined) return;
      const cross = crossDocumentDiagnostics([file.facts], FILE_SCOPE, undefined, this.external).get(uri) ?? [];
      const own = withoutServedKindWarnings([file.facts], this.external)(file.facts, file.diagnostics);
      this.publisher.publish(uri, own, cross, file.version);
      return;
    }
    if (this.scanning.has(folder)) {
      const file = this.index.get(uri);
      if (file !== undefined) this.publisher.publish(uri, file.diagnostics, [], file.version);
      return;
    }
    this.dirty.delete(folder);
    const files = this.index.filesIn(folder);
    const cross = crossDocumentDiagnostics(
      files.map((f) => f.facts),
      FOLDER_SCOPE,
      undefined,
      this.external,
    );
    const ownInScope = withoutServedKindWarnings(
      files.map((f) => f.facts),
      this.external,
    );
    for (const f of files) {
      const mine = cross.get(f.uri) ?? noDiagnostics;
      // The folder's CRDs decide whether a custom resource's kind is unknown (a CRD added elsewhere changes it).
      const own = ownInScope(f.facts, f.diagnostics);
      // Files not re-analyzed whose cross-document result is unchanged need not even be compared with what the client
      // shows.
      const key = JSON.stringify([mine, f.diagnostics.length - own.length]);
      if (!this.stale.has(f.uri) && this.crossShown.get(f.uri) === key && this.publisher.shows(f.uri)) continue;
      this.stale.delete(f.uri);
      this.crossShown.set(f.uri, key);
      this.publisher.publish(f.uri, own, mine, f.version);
    }
  }

  private flushDirty(): void {
    for (const folder of [...this.dirty]) {
      if (this.scanning.has(folder)) continue;
      this.dirty.delete(folder);
      const any = this.index.filesIn(folder)[0];
      if (any !== undefined) this.refresh(folder, any.uri);
    }
  }

  /** Drops a file from the index and the client; its folder's other files are rechecked. */
  private forget(uri: string): void {
    const file = this.index.get(uri);
    this.queue.cancel(uri);
    this.index.delete(uri);
    this.crossShown.delete(uri);
    this.stale.delete(uri);
    this.publisher.clear(uri);
    if (file?.folder !== undefined) this.dirty.add(file.folder);
    if (this.queue.idle) this.flushDirty();
  }

  private selects(uri: string, languageId: string): boolean {
    const folder = this.index.folderFor(uri);
    const sel = this.selectionFor(folder);
    if (!sel.settings.validation.enable) return false;
    if (folder === undefined) return isYamlDocument({ uri, languageId });
    return sel.files(relativePath(folder, uri) ?? '');
  }

  private selectionFor(folder: string | undefined): Selection {
    return (folder !== undefined ? this.perFolder.get(folder) : undefined) ?? this.global;
  }
}

const noDiagnostics: readonly Diagnostic[] = [];

function selection(settings: KubeReconcileSettings): Selection {
  return { settings, files: createFileFilter(settings.validation), folders: createFolderFilter(settings.validation) };
}

/** The analysis of a file too large to read, as parseManifests words the same refusal. */
function tooLarge(): FileAnalysis {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return {
    diagnostics: [
      makeDiagnostic(range, 'manifest-too-large', `File is larger than ${MAX_TEXT_LENGTH} characters; not validated`),
    ],
    objects: [],
  };
}
