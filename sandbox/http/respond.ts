/**
 * Writing responses: one JSON.stringify per body (lists are not copied),
 * the headers kube-apiserver sends (`Content-Type`, `Cache-Control: no-cache,
 * private`, `Warning: 299 - "…"`), and Status objects for errors and for
 * successful deletes and subresource posts.
 */
import type { ServerResponse } from 'node:http';
import type { ApiError, StatusDetails } from '../api/errors';
import type { OutputFormat } from './negotiate';
import { yamlText } from '../util/yamlText';

/** Upstream's WithCacheControl filter: nothing the API answers may be cached by intermediaries. */
const CACHE_CONTROL = 'no-cache, private';

export interface SendOptions {
  /** Indent JSON (`?pretty=true`, or a curl / browser user agent, as upstream). */
  pretty?: boolean;
  encoding?: OutputFormat['encoding'];
  /** Texts for `Warning: 299 - "<text>"` headers. */
  warnings?: readonly string[];
  headers?: Record<string, string>;
}

/** A `Success` Status, as returned by deletes of objects that are gone and by `binding` and `eviction`. */
export interface SuccessStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success';
  details?: StatusDetails;
  code?: number;
}

export function successStatus(details?: StatusDetails, code?: number): SuccessStatus {
  const status: SuccessStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  if (details) status.details = details;
  if (code !== undefined) status.code = code;
  return status;
}

/** RFC 7234 warn-text: the text quoted, with `"` and `\` escaped (as upstream's warning recorder does). */
export function warningHeader(text: string): string {
  return `299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Sets the headers every API response carries. */
export function setCommonHeaders(res: ServerResponse, contentType: string, options: SendOptions = {}): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', CACHE_CONTROL);
  if (options.warnings && options.warnings.length > 0) res.setHeader('Warning', options.warnings.map(warningHeader));
  for (const [k, v] of Object.entries(options.headers ?? {})) res.setHeader(k, v);
}

/** Encodes `body` once (JSON or YAML) and sends it with `code`. */
export function sendObject(res: ServerResponse, code: number, body: unknown, options: SendOptions = {}): void {
  const yaml = options.encoding === 'yaml';
  const text = yaml ? yamlText(body) : `${JSON.stringify(body, null, options.pretty ? 2 : undefined)}\n`;
  setCommonHeaders(res, yaml ? 'application/yaml' : 'application/json', options);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.statusCode = code;
  res.end(text);
}

/** Sends an API error as its Status; 429s and 504s also say when to retry. */
export function sendError(res: ServerResponse, error: ApiError, options: SendOptions = {}): void {
  const retry = error.status.details?.retryAfterSeconds;
  const headers: Record<string, string> = { ...options.headers };
  if (retry !== undefined && retry > 0) headers['Retry-After'] = String(retry);
  if (error.code === 413) headers.Connection = 'close';
  sendObject(res, error.code, error.status, { ...options, headers, encoding: options.encoding ?? 'json' });
}

/** Plain text, for health checks and logs. */
export function sendText(res: ServerResponse, code: number, text: string): void {
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', CACHE_CONTROL);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.statusCode = code;
  res.end(text);
}
