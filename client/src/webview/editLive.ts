/**
 * Turns the YAML the user edited in the webview into the object for a
 * `replaceLive` action — refusing anything that is not one mapping for the
 * same object (an edit may change fields, not which object it is).
 */
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import type { ObjectRef } from '../sandbox/protocol';

export type EditParse = { ok: true; object: KubeObject } | { ok: false; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseLiveEdit(yaml: string, ref: ObjectRef, kind: string): EditParse {
  const docs = parseAllDocuments(yaml);
  if (!Array.isArray(docs) || docs.length !== 1)
    return { ok: false, message: 'The edit must be exactly one YAML document.' };
  const doc = docs[0];
  if (doc.errors.length > 0) return { ok: false, message: `The YAML does not parse: ${doc.errors[0].message}` };
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (!isRecord(value) || !isRecord(value.metadata))
    return { ok: false, message: 'The edit must be a Kubernetes object with metadata.' };
  if (typeof value.apiVersion !== 'string' || value.kind !== kind)
    return { ok: false, message: `The edit must stay a ${kind}.` };
  const meta = value.metadata;
  if (meta.name !== ref.name || (meta.namespace ?? undefined) !== ref.namespace) {
    return {
      ok: false,
      message: `The edit must keep the name ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}.`,
    };
  }
  return { ok: true, object: { ...value, apiVersion: value.apiVersion, kind, metadata: meta } };
}
