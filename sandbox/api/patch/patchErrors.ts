/**
 * How kube-apiserver rejects patches (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go):
 * a body that does not decode as a patch is 400 BadRequest; a well-formed JSON
 * patch whose operations do not apply is 422 Invalid with the generic text
 * "the server rejected our request due to an error in our request".
 */
import type { ApiError } from '../errors';
import { badRequest, statusFailure, tooLarge } from '../errors';

/** Upstream's ceiling on operations in one JSON patch. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** A JSON patch operation that cannot be applied; `applyJsonPatch` turns it into `patchFailed`. */
export class PatchOperationError extends Error {
  override name = 'PatchOperationError';
}

/** 400 for a body that is not a JSON patch document (Go's decoding message). */
export function malformedPatch(message: string): ApiError {
  return badRequest(message);
}

/** 400 `Invalid JSON Patch`: a merge patch that is not a JSON object (evanphx/json-patch `ErrBadJSONPatch`). */
export function invalidMergePatch(): ApiError {
  return badRequest('Invalid JSON Patch');
}

/**
 * 422 Invalid, as upstream. Upstream drops the reason; we keep it as the one
 * cause (e.g. `testing value /spec/replicas failed: test failed`) so the UI
 * can show why.
 */
export function patchFailed(detail: string, causeReason = 'FieldValueInvalid'): ApiError {
  return statusFailure(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: causeReason, message: detail }],
  });
}

/** 413 for more than `MAX_JSON_PATCH_OPERATIONS` operations. */
export function tooManyOperations(count: number): ApiError {
  return tooLarge(
    `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${count}`,
  );
}
