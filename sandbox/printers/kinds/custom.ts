/**
 * The table of a custom resource: NAME, then the CRD version's `additionalPrinterColumns` (or AGE when it
 * declares none), each cell its JSONPath's first result typed by the column — integers, numbers, booleans,
 * `date` as an age, strings printed as kubectl's jsonpath prints them — and empty when the path
 * finds nothing (null: kubectl prints an empty cell).
 *
 * upstream: apiextensions-apiserver pkg/registry/customresource/tableconvertor/tableconvertor.go (`New`,
 * `ConvertToTable`, `cellForJSONValue`).
 */
import type { PrinterColumn } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import { findResults, jsonPathText } from '../jsonPath';
import type { KindPrinter, TableCell, TableColumn } from '../table';
import { NAME_COLUMN, since } from '../table';

function cell(column: PrinterColumn, obj: KubeObject, now: number): TableCell {
  let results: unknown[];
  try {
    results = findResults(obj, column.jsonPath);
  } catch {
    return null;
  }
  if (results.length === 0 || results[0] === undefined) return null;
  const value = results[0];
  if (value === null) return null;
  switch (column.type) {
    case 'string':
      return jsonPathText(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      return Number.isFinite(Date.parse(value)) ? since(value, now) : '<invalid>';
    default:
      return null;
  }
}

/** The printer of one version of a custom resource, from its columns. */
export function customPrinter(columns: readonly PrinterColumn[]): KindPrinter {
  const defs: TableColumn[] = [
    NAME_COLUMN,
    ...columns.map(
      (c): TableColumn => ({
        name: c.name,
        type: c.type === 'date' ? 'string' : (c.type as TableColumn['type']),
        ...(c.format !== undefined && c.format !== '' ? { format: c.format as TableColumn['format'] } : {}),
        priority: c.priority > 0 ? 1 : 0,
        description: c.description ?? '',
      }),
    ),
  ];
  return {
    columns: defs,
    row: (obj, now) => [obj.metadata.name ?? '', ...columns.map((c) => cell(c, obj, now))],
  };
}
