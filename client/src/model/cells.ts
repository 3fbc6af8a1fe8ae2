/**
 * An object's row of `kubectl get -o wide`, by column name — so that the
 * tree's descriptions and tooltips use kubectl's own words and numbers.
 */
import type { KubeObject } from '../../../sandbox/api/types';
import { tableFor } from '../../../sandbox/printers';
import type { TableCell } from '../../../sandbox/printers';

export interface Cell {
  column: string;
  value: TableCell;
}

/** Every column of the kind's wide table for `obj` at `now` (epoch ms), in kubectl's order. */
export function wideRow(obj: KubeObject, now: number): Cell[] {
  const table = tableFor(obj.kind, [obj], now, { wide: true });
  const cells = table.rows[0]?.cells ?? [];
  return table.columns.map((c, i) => ({ column: c.name, value: cells[i] ?? '' }));
}

/** The cell of one column (`Ready`, `Status`…) as text, '' when the kind has no such column. */
export function cell(row: readonly Cell[], column: string): string {
  const c = row.find((x) => x.column === column);
  return c === undefined ? '' : String(c.value);
}
