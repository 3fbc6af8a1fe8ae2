/**
 * Save-to-apply without VS Code: a file's text → `applyFile` (or `removeFile`
 * when it is gone) → the diagnostics to show. Remembers which files it
 * applied, so a deleted folder can prune what its files declared.
 */
import type { SandboxConnection } from '../sandbox/connection';
import type { ApplyReply } from '../sandbox/protocol';
import { applyDiagnostics } from './applyDiagnostics';
import type { ApplyDiagnostic } from './applyDiagnostics';
import { manifestsForApply } from './manifestsForApply';
import { filesUnder } from './workspaceFiles';

export interface FileApplyResult {
  reply: ApplyReply;
  diagnostics: ApplyDiagnostic[];
}

export class FileApplier {
  private readonly known = new Set<string>();

  constructor(private readonly connection: Pick<SandboxConnection, 'request'>) {}

  /** Workspace-relative paths applied in this session. */
  get files(): ReadonlySet<string> {
    return this.known;
  }

  /**
   * Applies the file's manifests. With YAML errors the good documents are
   * still applied but nothing is pruned (a broken document must not delete
   * what it declared). A file without manifests is sent too: when it used to
   * have some (perhaps in a restored session), its objects are pruned; otherwise
   * the worker has nothing to do.
   */
  async applyText(file: string, text: string): Promise<FileApplyResult> {
    const parsed = manifestsForApply(text);
    // A YAML error in a file that never declared an object (a Helm template…) is the language server's business.
    const relevant = parsed.manifests.length > 0 || this.known.has(file);
    const reply = await this.connection.request('applyFile', {
      file,
      manifests: parsed.manifests,
      prune: parsed.yamlErrors.length === 0,
    });
    if (parsed.manifests.length > 0) this.known.add(file);
    else if (parsed.yamlErrors.length === 0) this.known.delete(file);
    return { reply, diagnostics: applyDiagnostics(text, relevant ? parsed : { ...parsed, yamlErrors: [] }, reply) };
  }

  /** The file was deleted: prunes what it declared. */
  async remove(file: string): Promise<string[]> {
    this.known.delete(file);
    return (await this.connection.request('removeFile', { file })).pruned;
  }

  /** A folder was deleted: prunes what the files applied from under it declared. */
  async removeFolder(folder: string): Promise<string[]> {
    const pruned: string[] = [];
    for (const f of filesUnder(folder, this.known)) pruned.push(...(await this.remove(f)));
    return pruned;
  }
}
