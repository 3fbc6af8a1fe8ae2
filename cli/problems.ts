/**
 * The validate command's findings, and their two renderings. Lines and
 * columns are 1-based here (as editors and compilers print them); the end is
 * exclusive: `endColumn` is the column just after the last marked character.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from 'vscode-languageserver-types';

export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
}

/** A language-server diagnostic (0-based range) as a problem in `file`. */
export function problemFrom(file: string, d: Diagnostic): Problem {
  return {
    file,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    severity: d.severity === DiagnosticSeverity.Warning ? 'warning' : 'error',
    code: String(d.code ?? ''),
    message: typeof d.message === 'string' ? d.message : d.message.value,
  };
}

/** `file:line:col severity code message`, one line per problem (newlines in messages folded into spaces). */
export function formatText(problems: readonly Problem[]): string {
  return problems
    .map((p) => `${p.file}:${p.line}:${p.column} ${p.severity} ${p.code} ${p.message.replace(/\s*\n\s*/g, ' ')}\n`)
    .join('');
}

/** A JSON array of problems, pretty-printed, with a trailing newline. */
export function formatJson(problems: readonly Problem[]): string {
  return `${JSON.stringify(problems, null, 2)}\n`;
}

/** `3 files, 7 resources: 2 errors, 1 warning` */
export function formatSummary(files: number, resources: number, problems: readonly Problem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  return `${count(files, 'file')}, ${count(resources, 'resource')}: ${count(errors, 'error')}, ${count(warnings, 'warning')}\n`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
