/**
 * The server-side conversions kubectl asks for: `meta.k8s.io` Table (what
 * `kubectl get` prints; columns from the sandbox's printers, every priority
 * included as upstream's TableConvertor does) and PartialObjectMetadata(List).
 * Rows share the stored objects' metadata: nothing is deep-copied, the
 * response is stringified once.
 */
import { badRequest } from '../api/errors';
import type { KubeList, KubeObject } from '../api/types';
import type { ResourceType } from '../api/resources';
import { tableFor } from '../printers/tableFor';
import type { OutputFormat } from './negotiate';

/** `?includeObject=`: what each row carries (default PartialObjectMetadata's `Metadata`). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function includeObjectOf(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  if (v === null || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  throw badRequest(`includeObject: Unsupported value: "${v}": supported values: "Metadata", "None", "Object"`);
}

interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

function partial(
  obj: KubeObject,
  apiVersion: string,
): { kind: 'PartialObjectMetadata'; apiVersion: string; metadata: KubeObject['metadata'] } {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

export interface TableRequest {
  apiVersion: string;
  includeObject: IncludeObject;
  /** Include columnDefinitions (a watch sends them with the first event only). */
  headers: boolean;
  now: number;
}

/** A `Table` of `objects` (all of `kind`). */
export function toTable(
  kind: string | ResourceType,
  objects: readonly KubeObject[],
  meta: ListMeta,
  t: TableRequest,
): object {
  const table = tableFor(kind, objects, t.now, { wide: true });
  const rows = table.rows.map((row) => {
    if (t.includeObject === 'None') return { cells: row.cells, object: null };
    return { cells: row.cells, object: t.includeObject === 'Object' ? row.object : partial(row.object, t.apiVersion) };
  });
  const columnDefinitions = t.headers
    ? table.columns.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? '',
        description: c.description ?? '',
        priority: c.priority,
      }))
    : [];
  return { kind: 'Table', apiVersion: t.apiVersion, metadata: meta, columnDefinitions, rows };
}

/** A list in the requested form: itself, a Table, or a PartialObjectMetadataList. */
export function convertList(
  list: KubeList,
  kind: string | ResourceType,
  format: OutputFormat,
  includeObject: IncludeObject,
  now: number,
): object {
  const apiVersion = format.conversionVersion ?? '';
  if (format.conversion === 'Table')
    return toTable(kind, list.items, list.metadata, { apiVersion, includeObject, headers: true, now });
  if (format.conversion === 'PartialObjectMetadataList') {
    return {
      kind: 'PartialObjectMetadataList',
      apiVersion,
      metadata: list.metadata,
      items: list.items.map((o) => partial(o, apiVersion)),
    };
  }
  return list;
}

/** One object in the requested form: itself, a one-row Table, or its PartialObjectMetadata. */
export function convertObject(
  obj: KubeObject,
  format: OutputFormat,
  includeObject: IncludeObject,
  now: number,
  headers = true,
  resource?: ResourceType,
): object {
  const apiVersion = format.conversionVersion ?? '';
  if (format.conversion === 'Table')
    return toTable(
      resource ?? obj.kind,
      [obj],
      { resourceVersion: obj.metadata.resourceVersion ?? '' },
      { apiVersion, includeObject, headers, now },
    );
  if (format.conversion === 'PartialObjectMetadata') return partial(obj, apiVersion);
  return obj;
}
