/**
 * Tables as text, the way kubectl writes them through Go's tabwriter
 * (minwidth 6, padding 3, spaces): every column as wide as its widest cell
 * plus three spaces, the last column unpadded, headers upper-cased.
 */
import type { KubeObject } from '../api/types';
import type { Table, TableCell } from './table';
import type { ResourceType } from '../api/resources';
import { tableFor } from './tableFor';
import type { TableOptions } from './tableFor';

const MIN_WIDTH = 6;
const PADDING = 3;

export interface FormatOptions {
  /** `--no-headers`. */
  noHeaders?: boolean;
}

/** Go's tabwriter counts runes, not UTF-16 units. */
function width(text: string): number {
  return [...text].length;
}

function cellText(cell: TableCell): string {
  // kubectl prints a cell without a value (null) as nothing.
  if (cell === null) return '';
  return typeof cell === 'string' ? cell : String(cell);
}

/** Aligns lines of cells; each line ends with a newline, trailing blanks trimmed. */
export function alignColumns(lines: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const line of lines) {
    for (let i = 0; i < line.length - 1; i++)
      widths[i] = Math.max(widths[i] ?? 0, Math.max(MIN_WIDTH, width(line[i]) + PADDING));
  }
  return lines
    .map(
      (line) =>
        line
          .map((cell, i) => (i < line.length - 1 ? cell + ' '.repeat(widths[i] - width(cell)) : cell))
          .join('')
          .trimEnd() + '\n',
    )
    .join('');
}

/** The table as kubectl prints it; '' when it has no rows (kubectl then says "No resources found"). */
export function formatTable(table: Table, options: FormatOptions = {}): string {
  if (table.rows.length === 0) return '';
  const lines: string[][] = [];
  if (!options.noHeaders) lines.push(table.columns.map((c) => c.name.toUpperCase()));
  for (const row of table.rows) lines.push(row.cells.map(cellText));
  return alignColumns(lines);
}

export interface GetGroup {
  /** Any name kubectl accepts for the kind (`deploy`, `replicasets`, `Pod`), or the resource itself. */
  kind: string | ResourceType;
  objects: readonly KubeObject[];
}

/**
 * `kubectl get deploy,rs,pods`: one table per kind that has objects, each
 * with its own header, separated by a blank line; names are prefixed with
 * the kind when more than one kind was asked for.
 */
export function formatGet(
  groups: readonly GetGroup[],
  now: number,
  options: Omit<TableOptions, 'showKind'> & FormatOptions & { showKind?: boolean } = {},
): string {
  const showKind = options.showKind ?? groups.length > 1;
  return groups
    .filter((g) => g.objects.length > 0)
    .map((g) => formatTable(tableFor(g.kind, g.objects, now, { ...options, showKind }), options))
    .join('\n');
}

/** What kubectl prints (to stderr) when nothing matched: `No resources found in default namespace.` */
export function noResourcesFound(namespace?: string): string {
  return namespace ? `No resources found in ${namespace} namespace.` : 'No resources found';
}
