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
 * 422 Invalid exactly as kube-apiserver sends it for a JSON patch that does not
 * apply, and for strategic merge patch's list-of-lists and `$retainKeys`
 * errors: `errors.NewGenericServerResponse(422, …, isUnexpectedResponse=false)`
 * (handlers/patch.go: applyJSPatch, interpretStrategicMergePatchError), a
 * generic message and empty details; the library's reason is dropped. It is
 * kept on the error's `cause` (never sent) for logs and tests.
 */
export function patchFailed(detail: string): ApiError {
  const error = statusFailure(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  error.cause = detail;
  return error;
}

/** The reason a `patchFailed` error carries, if it is one. */
export function patchFailureDetail(e: unknown): string | undefined {
  return e instanceof Error && typeof e.cause === 'string' ? e.cause : undefined;
}

/**
 * Where the JSON patch library dereferences a nil node it panics, and
 * kube-apiserver's panic recovery (filters.WithPanicRecovery) answers 500 with
 * this text (as text/plain there; as a Status here).
 */
export function patchPanicked(): ApiError {
  return statusFailure(500, 'InternalError', 'This request caused apiserver to panic. Look in the logs for details.');
}

/** 413 for more than `MAX_JSON_PATCH_OPERATIONS` operations. */
export function tooManyOperations(count: number): ApiError {
  return tooLarge(
    `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${count}`,
  );
}
