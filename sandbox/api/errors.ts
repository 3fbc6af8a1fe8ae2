/**
 * API errors in the upstream `Status` shape. Every rejection the API server
 * makes is one of these, with the same code, reason and message text that
 * kube-apiserver uses (k8s.io/apimachinery/pkg/api/errors).
 */
import type { ResourceType } from './resources';
import { qualifiedKind, qualifiedResource } from './resources';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'TooManyRequests'
  | 'InternalError'
  | 'Timeout';

export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The API's `Status`; a type literal, so that it is a `KubeObject` too (a watch sends it as an ERROR event). */
export type Status = {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: StatusReason | '';
  details?: StatusDetails;
  code: number;
};

/** A failed API call. `status` is exactly what the HTTP API will send. */
export class ApiError extends Error {
  /**
   * The fields the failure is about, as upstream paths (`spec.containers[0].poarts`), when the Status does not carry
   * them as causes (strict decoding errors): for editors to point at. Never sent on the wire.
   */
  fields?: readonly string[];

  constructor(readonly status: Status) {
    super(status.message);
    this.name = 'ApiError';
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason | '' {
    return this.status.reason;
  }
}

export function isApiError(e: unknown, code?: number): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.status.code === code);
}

/**
 * A failed call with exactly this code, reason, message and details (for answers no named constructor below covers).
 */
export function statusFailure(
  code: number,
  reason: StatusReason | '',
  message: string,
  details?: StatusDetails,
): ApiError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = details;
  return new ApiError(status);
}

const failure = statusFailure;

function detailsFor(r: ResourceType, name: string): StatusDetails {
  return { name, group: r.group, kind: r.plural };
}

/** 404 `deployments.apps "web" not found`. */
export function notFound(r: ResourceType, name: string): ApiError {
  return failure(404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, detailsFor(r, name));
}

/** 404 for a kind or path the server does not serve. */
export function resourceNotFound(): ApiError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** 409 `deployments.apps "web" already exists`. */
export function alreadyExists(r: ResourceType, name: string): ApiError {
  return failure(409, 'AlreadyExists', `${qualifiedResource(r)} "${name}" already exists`, detailsFor(r, name));
}

/** 409 optimistic-concurrency conflict, with the upstream wording. */
export function conflict(
  r: ResourceType,
  name: string,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
): ApiError {
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(r)} "${name}": ${why}`,
    detailsFor(r, name),
  );
}

/** 410 Gone for a compacted resourceVersion. */
export function expired(requested: number | string, oldest: number | string): ApiError {
  return failure(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

/** 403 `… is forbidden: <why>`. */
export function forbidden(r: ResourceType, name: string, why: string): ApiError {
  const subject = name === '' ? qualifiedResource(r) : `${qualifiedResource(r)} "${name}"`;
  return failure(403, 'Forbidden', `${subject} is forbidden: ${why}`, detailsFor(r, name));
}

export function badRequest(message: string): ApiError {
  return failure(400, 'BadRequest', message);
}

/** 413 for a body larger than the server accepts. */
export function tooLarge(message: string): ApiError {
  return failure(413, 'RequestEntityTooLarge', message);
}

/** 504 Timeout, e.g. a watch from a resourceVersion the store has not reached. */
export function timeout(message: string, retryAfterSeconds = 1): ApiError {
  return failure(504, 'Timeout', message, { retryAfterSeconds });
}

/**
 * `<subject> is invalid: <errs>`, where `<errs>` is one `path: detail` or `[e1, e2]` for several; each becomes a cause.
 */
function invalidWith(subject: string, causes: StatusCause[], details: StatusDetails): ApiError {
  const texts = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const errs = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return failure(422, 'Invalid', `${subject} is invalid: ${errs}`, { ...details, causes });
}

/** 422 Invalid: `Deployment.apps "web" is invalid: <errs>`. */
export function invalid(r: ResourceType, name: string, causes: StatusCause[]): ApiError {
  return invalidWith(`${qualifiedKind(r)} "${name}"`, causes, { name, group: r.group, kind: r.kind });
}

/**
 * 422 for a patch whose result does not decode (upstream's patch handler: `NewInvalid(schema.GroupKind{}, "", …)`):
 * ` "" is invalid: patch: Invalid value: "<value>": <detail>` — the empty kind leaves the leading space.
 */
export function invalidPatch(value: string, detail: string): ApiError {
  const cause = {
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
    field: 'patch',
  };
  return invalidWith(' ""', [cause], {});
}

/** 401 for a request without the server's bearer token (the authentication filter's answer). */
export function unauthorized(): ApiError {
  return failure(401, 'Unauthorized', 'Unauthorized');
}

/** 405 for a method the path does not route (e.g. POST on a named object). */
export function methodNotAllowed(): ApiError {
  return failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

/** 405 `deletecollection is not supported on resources of kind "pods"` (NewMethodNotSupported). */
export function methodNotSupported(r: ResourceType, action: string): ApiError {
  return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualifiedResource(r)}"`, {
    group: r.group,
    kind: r.plural,
  });
}

/** 406 when no media type in Accept can be served. */
export function notAcceptable(accepted: readonly string[]): ApiError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 415 for a body in a format the endpoint does not decode. */
export function unsupportedMediaType(accepted: readonly string[]): ApiError {
  return failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** 429 TooManyRequests; `retryAfterSeconds` > 0 also goes into the details (and the Retry-After header). */
export function tooManyRequests(message: string, retryAfterSeconds = 0, causes?: StatusCause[]): ApiError {
  const details: StatusDetails = {};
  if (causes) details.causes = causes;
  if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
  return failure(429, 'TooManyRequests', message, details);
}

/** 500 `Internal error occurred: <why>`: a server fault, never the client's. */
export function internalError(why: string): ApiError {
  return failure(500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ reason: '', message: why }] });
}

/**
 * 422 for invalid request options: `ListOptions.meta.k8s.io "" is invalid: <errs>`
 * (the apiserver validates CreateOptions, ListOptions, PatchOptions… as objects of meta.k8s.io).
 */
export function invalidOptions(kind: string, causes: StatusCause[]): ApiError {
  return invalidWith(`${kind}.meta.k8s.io ""`, causes, { group: 'meta.k8s.io', kind });
}
