/**
 * `kube-reconcile validate <files or folders…> [--format text|json]`: the
 * language server's diagnostics for files on disk, for CI and pre-commit.
 */
import { availableParallelism } from 'node:os';
import {
  KUBERNETES_VERSION_HELP,
  KUBERNETES_VERSION_OPTION,
  UsageError,
  parseArgs,
  useKubernetesVersion,
} from './args';
import type { OptionSpecs } from './args';
import { collectFiles } from './collectFiles';
import type { FoundFile } from './collectFiles';
import { EXIT_ERRORS, EXIT_OK } from './io';
import type { CliIo } from './io';
import { formatJson, formatSummary, formatText, problemFrom } from './problems';
import type { Problem } from './problems';
import { checkFile } from './validateFile';
import type { FileResult } from './validateFile';
import { POOL_MIN_FILES, checkFilesInPool } from './validatePool';
import { kubernetesVersion } from '../sandbox/schema/schema';
import { crossDocumentDiagnostics } from '../server/src/services/crossDocument/crossDocumentDiagnostics';
import type { FileFacts } from '../server/src/services/crossDocument/facts';
import { withoutServedKindWarnings } from '../server/src/services/crossDocument/rules/customResourceValidation';
import type { Diagnostic } from 'vscode-languageserver-types';

export const VALIDATE_OPTIONS: OptionSpecs = {
  format: { type: 'string', choices: ['text', 'json'] },
  jobs: { type: 'string', short: 'j' },
  'kubernetes-version': KUBERNETES_VERSION_OPTION,
  help: { type: 'boolean', short: 'h' },
};

export const VALIDATE_HELP = `Usage: kube-reconcile validate <files or folders...> [--format text|json] [--jobs N]

Checks Kubernetes manifests the way the sandbox API server admits them
(defaults, then validation) and reports what it would reject.
Folders are searched recursively for *.yaml and *.yml files; files of
Kubernetes' tools that are not manifests (kustomization.yaml, kubeconfig)
are skipped, and custom resources get a warning (their definitions are not
checked).

Options:
  --format text|json  text (default): file:line:col severity code message,
                      and a summary on stderr; json: an array on stdout
  -j, --jobs N        check files in N worker threads (default: the number
                      of CPUs, from ${POOL_MIN_FILES} files on); the output is the same
                      as with --jobs 1, which checks in this thread
  ${KUBERNETES_VERSION_HELP}
  -h, --help          Show this help

Exit codes: 0 no errors (warnings allowed), 1 errors found (an API server of
that release would refuse something), 2 usage error.
`;

/** Runs `validate` with the arguments after the command name; returns the exit code. Throws UsageError. */
export async function runValidate(args: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(args, VALIDATE_OPTIONS);
  if (options.help === true) {
    io.stdout.write(VALIDATE_HELP);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('no files or folders given');
  const jobs = jobsOption(options.jobs);
  useKubernetesVersion(options['kubernetes-version']);
  const files = await collectFiles(positionals, io.cwd);
  const results = await checkFiles(files, jobs);
  const problems: Problem[] = [];
  let resources = 0;
  const facts: FileFacts[] = [];
  const perFile = new Map<string, Problem[]>();
  const own = new Map<string, readonly Diagnostic[]>();
  for (const [i, file] of files.entries()) {
    const result = results[i];
    perFile.set(file.display, result.problems);
    resources += result.resources;
    if (result.objects) facts.push({ uri: file.display, display: file.display, objects: result.objects });
    if (result.diagnostics) own.set(file.display, result.diagnostics);
  }
  // A custom resource whose CRD is among the files given is no unknown kind (the editor decides so per folder).
  const ownInScope = withoutServedKindWarnings(facts);
  for (const f of facts)
    perFile.set(
      f.uri,
      ownInScope(f, own.get(f.uri) ?? []).map((d) => problemFrom(f.uri, d)),
    );
  // Checks across the files given (a Service selecting nothing, missing ConfigMaps, duplicates), as the editor runs
  // them per folder.
  for (const [file, diagnostics] of crossDocumentDiagnostics(facts, CLI_SCOPE)) {
    const list = perFile.get(file)!;
    list.push(...diagnostics.map((d) => problemFrom(file, d)));
    list.sort((a, b) => a.line - b.line || a.column - b.column);
  }
  for (const file of files) problems.push(...perFile.get(file.display)!);
  if (options.format === 'json') io.stdout.write(formatJson(problems));
  else {
    io.stdout.write(formatText(problems));
    io.stderr.write(formatSummary(files.length, resources, problems));
  }
  return problems.some((p) => p.severity === 'error') ? EXIT_ERRORS : EXIT_OK;
}

/** How cross-document messages name the set of files checked together. */
const CLI_SCOPE = 'the files checked';

/** `--jobs`: a whole number ≥ 1, or undefined for the default. */
function jobsOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--jobs must be a whole number of at least 1, not "${String(value)}"`);
  return n;
}

/**
 * Every file's own check, in the order of `files`: in this thread with one job (or, by default, for fewer than
 * {@link POOL_MIN_FILES} files), else in a pool of worker threads.
 */
async function checkFiles(files: readonly FoundFile[], jobs: number | undefined): Promise<FileResult[]> {
  const wanted = jobs ?? (files.length < POOL_MIN_FILES ? 1 : availableParallelism());
  if (wanted <= 1 || files.length <= 1) return files.map(checkFile);
  return checkFilesInPool(files, wanted, kubernetesVersion());
}
