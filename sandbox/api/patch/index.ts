/**
 * Entry point for PATCH bodies: picks the patch format from the request's
 * Content-Type and applies it. Server-side apply is recognised here but
 * implemented by the API server (it needs managedFields).
 */
import { isPlainObject } from '../../util/json';
import { applyJsonPatch } from './jsonPatch';
import { applyMergePatch } from './jsonMergePatch';
import { invalidMergePatch } from './patchErrors';
import { applyStrategicMergePatch } from './strategic';

export { applyJsonPatch } from './jsonPatch';
export type { JsonPatchOperation } from './jsonPatch';
export { applyMergePatch, createMergePatch } from './jsonMergePatch';

/** The patch formats applied here; server-side apply (`apply`) is the API server's. */
export type PatchType = 'json' | 'merge' | 'strategic';

const BY_MEDIA_TYPE: ReadonlyMap<string, PatchType | 'apply'> = new Map([
  ['application/json-patch+json', 'json'],
  ['application/merge-patch+json', 'merge'],
  ['application/strategic-merge-patch+json', 'strategic'],
  ['application/apply-patch+yaml', 'apply'],
  ['application/apply-patch+cbor', 'apply'],
] as const);

/**
 * Maps a Content-Type header (parameters such as `; charset=utf-8` ignored,
 * case-insensitive) to its patch format; `undefined` for anything else, which
 * the server answers with 415.
 */
export function patchTypeFromContentType(ct: string): PatchType | 'apply' | undefined {
  const mediaType = ct.split(';')[0].trim().toLowerCase();
  return BY_MEDIA_TYPE.get(mediaType);
}

/**
 * Applies a decoded patch body to `target` without mutating either. A merge
 * patch must be a JSON object (else 400 `Invalid JSON Patch`); JSON patch
 * errors are described on `applyJsonPatch`.
 */
export function applyPatch(type: PatchType, target: unknown, patch: unknown): unknown {
  if (type === 'json') return applyJsonPatch(target, patch);
  if (!isPlainObject(patch)) throw invalidMergePatch();
  if (type === 'strategic') return applyStrategicMergePatch(target, patch);
  return applyMergePatch(target, patch);
}
