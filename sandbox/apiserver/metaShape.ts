/**
 * The decoding step: a body must look like a Kubernetes object before any
 * rule runs, or it is a 400, as a Go struct decode would fail upstream.
 */
import { badRequest } from '../api/errors';
import type { ApiError } from '../api/errors';

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

function decodeError(field: string, got: unknown, want: string): ApiError {
  return badRequest(
    `json: cannot unmarshal ${typeName(got)} into Go struct field ObjectMeta.metadata.${field} of type ${want}`,
  );
}

/** Throws 400 unless `body` has string apiVersion and kind and a well-typed metadata. */
export function checkObjectShape(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest(`the request body must be a JSON object, got ${typeName(body)}`);
  const obj = body as Record<string, unknown>;
  const snippet = () => JSON.stringify(body).slice(0, 120);
  if (typeof obj.kind !== 'string' || obj.kind === '') throw badRequest(`Object 'Kind' is missing in '${snippet()}'`);
  if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '')
    throw badRequest(`Object 'apiVersion' is missing in '${snippet()}'`);
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  const meta = obj.metadata;
  if (typeof meta !== 'object' || Array.isArray(meta))
    throw badRequest(`json: cannot unmarshal ${typeName(meta)} into Go struct field .metadata of type v1.ObjectMeta`);
  const m = meta as Record<string, unknown>;
  // null is a string's zero value in Go: accepted (field validation drops it). Each member read by name, in this
  // order: name, generateName, namespace, uid, resourceVersion, creationTimestamp, deletionTimestamp, labels,
  // annotations (a loop over their names read each by a generic keyed lookup, the most of this check's time).
  checkString(m.name, 'name');
  checkString(m.generateName, 'generateName');
  checkString(m.namespace, 'namespace');
  checkString(m.uid, 'uid');
  checkString(m.resourceVersion, 'resourceVersion');
  checkString(m.creationTimestamp, 'creationTimestamp');
  checkString(m.deletionTimestamp, 'deletionTimestamp');
  checkStringMap(m.labels, 'labels');
  checkStringMap(m.annotations, 'annotations');
  if (
    m.finalizers !== undefined &&
    m.finalizers !== null &&
    (!Array.isArray(m.finalizers) || m.finalizers.some((f) => f !== null && typeof f !== 'string'))
  )
    throw decodeError('finalizers', m.finalizers, '[]string');
  if (
    m.ownerReferences !== undefined &&
    m.ownerReferences !== null &&
    (!Array.isArray(m.ownerReferences) ||
      m.ownerReferences.some((o) => o !== null && (typeof o !== 'object' || Array.isArray(o))))
  ) {
    throw decodeError('ownerReferences', m.ownerReferences, '[]v1.OwnerReference');
  }
  if (m.generation !== undefined && m.generation !== null && !Number.isInteger(m.generation))
    throw decodeError('generation', m.generation, 'int64');
}

function checkString(v: unknown, field: string): void {
  if (v !== undefined && v !== null && typeof v !== 'string') throw decodeError(field, v, 'string');
}

function checkStringMap(v: unknown, field: string): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'object' || Array.isArray(v)) throw decodeError(field, v, 'map[string]string');
  for (const val of Object.values(v))
    if (val !== null && typeof val !== 'string') throw decodeError(field, val, 'string');
}
