/**
 * One file of `kube-reconcile validate`: read, then the language server's single-file analysis (its own diagnostics
 * and the facts the cross-document checks need). Run on the main thread or in a worker of the `--jobs` pool; the
 * result is plain data (structured-cloneable), so either way the output is the same.
 */
import { readFileSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { FoundFile } from './collectFiles';
import { problemFrom } from './problems';
import type { Problem } from './problems';
import type { FileFacts } from '../server/src/services/crossDocument/facts';
import { analyzeFile } from '../server/src/services/workspace/analyzeFile';

export interface FileResult {
  problems: Problem[];
  resources: number;
  objects?: FileFacts['objects'];
  diagnostics?: readonly Diagnostic[];
}

/** Checks one file; an unreadable file is one `file-unreadable` problem. Never throws. */
export function checkFile(file: FoundFile): FileResult {
  let text: string;
  try {
    // Read synchronously: the files are read one after another anyway, and the promise API costs several
    // thread-pool round trips per file (a third of the time on a folder of small manifests).
    // Invalid UTF-8 decodes to U+FFFD, which the parser service declines as binary.
    text = new TextDecoder('utf-8').decode(readFileSync(file.absolute));
  } catch (e) {
    const reason = e instanceof Error ? e.message.split(',')[0] : String(e);
    const problem: Problem = {
      file: file.display,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      severity: 'error',
      code: 'file-unreadable',
      message: `cannot read file: ${reason}`,
    };
    return { problems: [problem], resources: 0 };
  }
  const analysis = analyzeFile(text);
  return {
    problems: analysis.diagnostics.map((d) => problemFrom(file.display, d)),
    resources: analysis.objects.length,
    objects: analysis.objects,
    diagnostics: analysis.diagnostics,
  };
}
