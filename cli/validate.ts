/**
 * `kube-reconcile validate <files or folders…> [--format text|json]`: the
 * language server's diagnostics for files on disk, for CI and pre-commit.
 */
import { readFile } from 'node:fs/promises';
import { UsageError, parseArgs } from './args';
import type { OptionSpecs } from './args';
import { collectFiles } from './collectFiles';
import type { FoundFile } from './collectFiles';
import { EXIT_ERRORS, EXIT_OK } from './io';
import type { CliIo } from './io';
import { formatJson, formatSummary, formatText, problemFrom } from './problems';
import type { Problem } from './problems';
import { analyzeManifestText } from '../server/src/services/validateDocument';

export const VALIDATE_OPTIONS: OptionSpecs = {
  format: { type: 'string', choices: ['text', 'json'] },
  help: { type: 'boolean', short: 'h' },
};

export const VALIDATE_HELP = `Usage: kube-reconcile validate <files or folders...> [--format text|json]

Checks Kubernetes manifests the way the sandbox API server admits them
(defaults, then validation) and reports what it would reject.
Folders are searched recursively for *.yaml and *.yml files.

Options:
  --format text|json  text (default): file:line:col severity code message,
                      and a summary on stderr; json: an array on stdout
  -h, --help          Show this help

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage error.
`;

/** Runs `validate` with the arguments after the command name; returns the exit code. Throws UsageError. */
export async function runValidate(args: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(args, VALIDATE_OPTIONS);
  if (options.help === true) {
    io.stdout.write(VALIDATE_HELP);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('no files or folders given');
  const files = await collectFiles(positionals, io.cwd);
  const problems: Problem[] = [];
  let resources = 0;
  for (const file of files) {
    const result = await checkFile(file);
    problems.push(...result.problems);
    resources += result.resources;
  }
  if (options.format === 'json') io.stdout.write(formatJson(problems));
  else {
    io.stdout.write(formatText(problems));
    io.stderr.write(formatSummary(files.length, resources, problems));
  }
  return problems.some((p) => p.severity === 'error') ? EXIT_ERRORS : EXIT_OK;
}

async function checkFile(file: FoundFile): Promise<{ problems: Problem[]; resources: number }> {
  let text: string;
  try {
    // Invalid UTF-8 decodes to U+FFFD, which the parser service declines as binary.
    text = new TextDecoder('utf-8').decode(await readFile(file.absolute));
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
  const report = analyzeManifestText(text);
  return { problems: report.diagnostics.map((d) => problemFrom(file.display, d)), resources: report.resources };
}
