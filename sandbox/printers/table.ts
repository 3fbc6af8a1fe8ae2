/**
 * The shape of a printed table — the same as the API's `meta.k8s.io/v1`
 * `Table` (column definitions with a type and a priority; rows of cells with
 * the object they describe) — and the small formatting helpers the per-kind
 * printers share.
 */
import type { LabelSelector as ApiLabelSelector } from 'kubernetes-types/meta/v1';
import { formatLabelSelector } from '../api/selectors/labelSelector';
import type { LabelSelector } from '../api/selectors/labelSelector';
import type { KubeObject } from '../api/types';
import { parseTimestamp } from '../clock/clock';
import { humanDuration } from './duration';

export interface TableColumn {
  /** As upstream declares it (`Name`, `Up-to-date`, `Nominated Node`); kubectl upper-cases it for the header. */
  name: string;
  /** OpenAPI type of the cells: `string`, `integer`, `boolean`. */
  type: 'string' | 'integer' | 'boolean' | 'number';
  /** `name` for the column that identifies the object (a CRD's columns may name other formats). */
  format?: string;
  /** 0: always shown; 1: only with `-o wide`. */
  priority: 0 | 1;
  description?: string;
}

/** A cell: text, a number, a boolean, or `null` for nothing to show (kubectl prints nothing). */
export type TableCell = string | number | boolean | null;

export interface TableRow {
  cells: TableCell[];
  object: KubeObject;
}

export interface Table {
  columns: TableColumn[];
  rows: TableRow[];
}

/**
 * How one kind is printed: its columns (all of them, wide ones included) and one row per object, typed as that
 * kind's objects (`KindPrinter<Typed<Pod>>`).
 */
export interface KindPrinter<T extends KubeObject = KubeObject> {
  columns: TableColumn[];
  /** Cells for every column in `columns`, in order. `now` is epoch ms. */
  row(obj: T, now: number): TableCell[];
}

const NAME_DESCRIPTION = 'Name must be unique within a namespace.';
const AGE_DESCRIPTION = 'CreationTimestamp is a timestamp representing the server time when this object was created.';

/** A column shown by default. */
export function col(name: string, type: TableColumn['type'] = 'string', description?: string): TableColumn {
  return description ? { name, type, priority: 0, description } : { name, type, priority: 0 };
}

/** A column shown only with `-o wide`. */
export function wide(name: string, type: TableColumn['type'] = 'string', description?: string): TableColumn {
  return description ? { name, type, priority: 1, description } : { name, type, priority: 1 };
}

export const NAME_COLUMN: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  priority: 0,
  description: NAME_DESCRIPTION,
};
export const AGE_COLUMN: TableColumn = { name: 'Age', type: 'string', priority: 0, description: AGE_DESCRIPTION };

/** `translateTimestampSince`: the age of an RFC 3339 timestamp, `<unknown>` when absent. */
export function since(timestamp: unknown, now: number): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const t = parseTimestamp(timestamp);
  return Number.isFinite(t) ? humanDuration(now - t) : '<unknown>';
}

/** The AGE cell of an object. */
export function age(obj: KubeObject, now: number): string {
  return since(obj.metadata.creationTimestamp, now);
}

/** `labels.FormatLabels`: `a=1,b=2` sorted by key, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

interface ContainerLike {
  name?: string;
  image?: string;
}

/** `layoutContainerCells`: the CONTAINERS and IMAGES cells, comma-joined. */
export function containerCells(containers: readonly ContainerLike[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
}

/** A non-negative integer field, 0 when absent (Go's zero value). */
export function int(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A string field, '' when absent. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** `list + N more...` as upstream shortens long lists, `<unset>` when empty. */
export function listWithMore(all: readonly string[], max: number, empty = '<unset>'): string {
  if (all.length === 0) return empty;
  const shown = all.slice(0, max).join(',');
  return all.length > max ? `${shown} + ${all.length - max} more...` : shown;
}

/**
 * The SELECTOR cell (`metav1.FormatLabelSelector`): `app=web`, `<none>`, `<error>`. Unknown operators are caught there.
 */
export function selectorText(sel: ApiLabelSelector | undefined): string {
  return formatLabelSelector(sel as LabelSelector | undefined);
}

/** The API's selector object in the sandbox's selector type (operators are checked when it is compiled). */
export function asSelector(sel: ApiLabelSelector | undefined): LabelSelector | undefined {
  return sel as LabelSelector | undefined;
}
