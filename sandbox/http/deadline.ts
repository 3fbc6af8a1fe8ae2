/**
 * The request deadline of non-long-running requests (upstream: k8s.io/apiserver pkg/endpoints/filters/
 * request_deadline.go `WithRequestDeadline`, and pkg/server/filters/timeout.go `WithTimeoutForNonLongRunningRequests`):
 * a request gets the server's `--request-timeout` (60 s), or less when `?timeout=` asks for less (0, or more than
 * the maximum, is the maximum); a `?timeout=` that is no Go duration is 400. A request still unanswered at its
 * deadline is answered 504 by the timeout filter. Long-running requests (watches, and the log, exec, attach,
 * portforward and proxy subresources) have no deadline.
 *
 * In the sandbox a request can only be held by its client: the handlers answer at once, but a body that stalls
 * half-way holds its request until the deadline, as it holds the handler's body read upstream.
 */
import { badRequest, statusFailure } from '../api/errors';
import type { ApiError } from '../api/errors';
import { goParseDuration } from '../util/goText';
import type { ResourceRequest } from './requestInfo';

/** upstream: kube-apiserver `--request-timeout` default (1m0s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** upstream: BasicLongRunningRequestCheck (verbs watch, proxy; subresources attach, exec, proxy, log, portforward). */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function isLongRunning(info: ResourceRequest): boolean {
  return info.verb === 'watch' || (info.subresource !== undefined && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

/**
 * The time a request has, in milliseconds: the maximum unless `?timeout=` asks for less than it (upstream
 * WithRequestDeadline: a timeout of 0 or beyond the maximum is the maximum). Throws 400 for a value that is not a Go
 * duration, in upstream's words (`invalid timeout specified in the request URL - time: invalid duration "x"`).
 */
export function requestDeadlineMs(query: URLSearchParams, maxMs: number): number {
  const value = query.get('timeout');
  if (value === null || value === '') return maxMs;
  const parsed = goParseDuration(value);
  if ('error' in parsed) throw badRequest(`invalid timeout specified in the request URL - ${parsed.error}`);
  const ms = Number(parsed.ns / 1_000_000n);
  return parsed.ns > 0n && ms < maxMs ? Math.max(1, ms) : maxMs;
}

/**
 * upstream timeout.go: `apierrors.NewTimeoutError("request did not complete within the allotted timeout", 0)`, 504
 * with reason Timeout. (Upstream encodes the bare Status without kind and apiVersion; the sandbox sends the whole
 * Status, which clients decode the same.)
 */
export function requestTimedOut(): ApiError {
  return statusFailure(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {});
}
