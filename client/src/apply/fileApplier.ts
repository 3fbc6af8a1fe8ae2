/**
 * Save-to-apply without VS Code: a file's text → `applyFile` (or `removeFile`
 * when it is gone) → the diagnostics to show. Remembers which files it
 * applied, so a deleted folder can prune what its files declared.
 */
import type { SandboxConnection } from '../sandbox/connection';
import type { ApplyReply, ApplyTrigger } from '../sandbox/protocol';
import { applyDiagnostics } from './applyDiagnostics';
import type { ApplyDiagnostic } from './applyDiagnostics';
import { manifestsForApply } from './manifestsForApply';
import type { ParsedForApply } from './manifestsForApply';
import { filesUnder } from './workspaceFiles';
import { appendAll } from '../../../sandbox/util/arrays';

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
   * the worker has nothing to do. `trigger` names the user's action in the reconciliation log; `parsed` saves a second
   * parse when the caller read the text already.
   */
  async applyText(
    file: string,
    text: string,
    trigger?: ApplyTrigger,
    parsed: ParsedForApply = manifestsForApply(text),
  ): Promise<FileApplyResult> {
    // A YAML error in a file that never declared an object (a Helm template…) is the language server's business.
    const relevant = parsed.manifests.length > 0 || this.known.has(file);
    const reply = await this.connection.request('applyFile', {
      file,
      manifests: parsed.manifests,
      prune: parsed.yamlErrors.length === 0,
      ...(trigger ? { trigger } : {}),
      text,
    });
    if (parsed.manifests.length > 0) this.known.add(file);
    else if (parsed.yamlErrors.length === 0) this.known.delete(file);
    return { reply, diagnostics: applyDiagnostics(text, relevant ? parsed : { ...parsed, yamlErrors: [] }, reply) };
  }

  /**
   * The file was deleted: prunes what it declared (what another file declares too gets that file's declaration
   * instead).
   */
  async remove(file: string): Promise<Omit<ApplyReply, 'outcomes'>> {
    this.known.delete(file);
    return this.connection.request('removeFile', { file });
  }

  /** A folder was deleted: prunes what the files applied from under it declared; returns what was pruned. */
  async removeFolder(folder: string): Promise<string[]> {
    const pruned: string[] = [];
    for (const f of filesUnder(folder, this.known)) appendAll(pruned, (await this.remove(f)).pruned);
    return pruned;
  }
}
