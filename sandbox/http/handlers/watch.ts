/**
 * WATCH over HTTP: a chunked stream of `{"type":…,"object":…}` lines (each
 * object converted as Accept asks — a one-row Table whose first event alone
 * carries the column definitions, as upstream's watch encoder does).
 *
 * - Start: initial ADDED events, or the changes after `resourceVersion`; a
 *   compacted version is an `ERROR` event with the 410 Status on an HTTP 200.
 * - BOOKMARKs every minute when `allowWatchBookmarks` (on injectable timers).
 * - Ends after `timeoutSeconds` (default: 30–60 minutes, as upstream's
 *   min-request-timeout), when the client goes away (the API-server watch is
 *   stopped), or when a slow client lets more than the server's bound pile up.
 * - At most `maxWatchesPerClient` open watches per client: 429 beyond.
 */
import { randomInt } from 'node:crypto';
import { isApiError, timeout, tooManyRequests } from '../../api/errors';
import { apiVersionOf } from '../../api/resources';
import type { ResourceType } from '../../api/resources';
import type { KubeObject, WatchEvent } from '../../api/types';
import type { WatchHandle } from '../../store/watchHub';
import type { RequestContext } from '../context';
import { convertObject, includeObjectOf } from '../convert';
import type { IncludeObject } from '../convert';
import type { OutputFormat } from '../negotiate';
import { negotiateOutput } from '../negotiate';
import { listQuery } from '../query';
import type { ListQuery } from '../query';
import { setCommonHeaders } from '../respond';
import { parseResourceVersion } from './read';

/** Upstream sends a bookmark about once a minute. */
export const BOOKMARK_INTERVAL_MS = 60_000;
/** `--min-request-timeout` (1800 s); a watch without timeoutSeconds lasts 1–2 times that. */
const MIN_REQUEST_TIMEOUT_S = 1800;

/** Encodings shared by every watcher of the same event (fan-out costs one stringify). */
const encoded = new WeakMap<object, { key: string; json: string }>();

function encodeObject(
  obj: KubeObject,
  format: OutputFormat,
  includeObject: IncludeObject,
  clockNow: number,
  headers: boolean,
  resource?: ResourceType,
): string {
  // Table cells show ages to the second: watchers of one event share its encoding even on a real-time clock.
  const now = Math.floor(clockNow / 1000) * 1000;
  const key = format.conversion
    ? `${format.conversion}|${format.conversionVersion}|${includeObject}|${headers}|${now}|${resource?.custom?.crdUid ?? ''}|${resource?.version ?? ''}`
    : '';
  const hit = encoded.get(obj);
  if (hit && hit.key === key) return hit.json;
  const json = JSON.stringify(convertObject(obj, format, includeObject, now, headers, resource));
  if (Object.isFrozen(obj)) encoded.set(obj, { key, json });
  return json;
}

/** The version the API-server watch starts from, per sendInitialEvents (undefined: initial events first). */
function startVersion(ctx: RequestContext, q: ListQuery): string | undefined {
  const rv = q.resourceVersion;
  const current = Number(ctx.api.resourceVersion);
  if (q.sendInitialEvents === true) {
    if (rv && rv !== '0' && parseResourceVersion(rv) > current)
      throw timeout(`Timeout: Too large resource version: ${rv}, current: ${current}`);
    return undefined; // the current state is at least as new as any version asked for
  }
  if (q.sendInitialEvents === false && (!rv || rv === '0')) return String(current);
  return rv;
}

/** One watch response: writes events as JSON lines and releases everything it holds when it stops. */
class WatchResponse {
  private started = false;
  private stopped = false;
  /** A Table watch sends column definitions with its first event only. */
  private headers = true;
  private handle: WatchHandle | undefined;
  private timeoutTimer: unknown;
  private bookmarkTimer: unknown;
  readonly end = (): void => {
    this.stop();
    if (!this.ctx.res.writableEnded) this.ctx.res.end();
  };

  constructor(
    private readonly ctx: RequestContext,
    private readonly format: OutputFormat,
    private readonly includeObject: IncludeObject,
    private readonly client: string,
  ) {
    const { server } = ctx;
    server.watchesByClient.set(client, (server.watchesByClient.get(client) ?? 0) + 1);
    server.streams.add(this.end);
    ctx.res.on('close', () => this.stop());
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Subscribes to the API server; initial events are written before this returns. */
  subscribe(start: () => WatchHandle): void {
    this.handle = start();
    if (this.stopped) this.handle.stop();
  }

  /** Sends the headers now (an empty watch still answers 200 at once). */
  begin(): void {
    if (this.started) return;
    this.started = true;
    this.ctx.res.statusCode = 200;
    setCommonHeaders(this.ctx.res, 'application/json');
    this.ctx.res.flushHeaders();
  }

  /** Ends the stream after `ms`, and sends `bookmark()` every minute when asked to. */
  arm(ms: number, bookmark: (() => KubeObject) | undefined): void {
    const { timers } = this.ctx.server;
    this.timeoutTimer = timers.setTimeout(this.end, ms);
    if (bookmark)
      this.bookmarkTimer = timers.setInterval(
        () => this.onEvent({ type: 'BOOKMARK', object: bookmark() }),
        BOOKMARK_INTERVAL_MS,
      );
  }

  readonly onEvent = (event: WatchEvent): void => {
    try {
      this.write(`{"type":"${event.type}","object":${this.encode(event)}}\n`);
    } catch {
      // Never let a broken stream disturb the API server's delivery to other watchers.
      this.abort();
    }
  };

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    const { server } = this.ctx;
    this.handle?.stop();
    if (this.timeoutTimer !== undefined) server.timers.clearTimeout(this.timeoutTimer);
    if (this.bookmarkTimer !== undefined) server.timers.clearInterval(this.bookmarkTimer);
    const n = (server.watchesByClient.get(this.client) ?? 1) - 1;
    if (n > 0) server.watchesByClient.set(this.client, n);
    else server.watchesByClient.delete(this.client);
    server.streams.delete(this.end);
  }

  /** Stops and drops the connection (nothing sensible can follow a half-written stream). */
  abort(): void {
    this.stop();
    if (this.started) this.ctx.res.destroy();
  }

  private encode(event: WatchEvent): string {
    const { format } = this;
    if (event.type === 'ERROR') return JSON.stringify(event.object);
    if (event.type === 'BOOKMARK' && format.conversion === 'Table') {
      return JSON.stringify({
        kind: 'Table',
        apiVersion: format.conversionVersion,
        metadata: { resourceVersion: event.object.metadata.resourceVersion },
        columnDefinitions: [],
        rows: [],
      });
    }
    const json = encodeObject(
      event.object,
      format,
      this.includeObject,
      this.ctx.now,
      this.headers,
      this.ctx.info.resource,
    );
    if (format.conversion === 'Table') this.headers = false;
    return json;
  }

  private write(line: string): void {
    if (this.stopped) return;
    this.begin();
    const { res, server } = this.ctx;
    res.write(line);
    // A client reading slower than changes arrive is dropped rather than buffered without bound.
    if (res.writableLength > server.maxWatchBufferBytes) this.abort();
  }
}

export function watchObjects(ctx: RequestContext): void {
  const { resource, namespace, name } = ctx.info;
  const { server, api } = ctx;
  const format = negotiateOutput(ctx.req.headers.accept, 'watch');
  const includeObject = includeObjectOf(ctx.query);
  const q = listQuery(ctx.query, true);
  const fieldSelector =
    name === undefined ? q.fieldSelector : [`metadata.name=${name}`, q.fieldSelector].filter(Boolean).join(',');
  const resourceVersion = startVersion(ctx, q);
  if ((server.watchesByClient.get(ctx.clientKey) ?? 0) >= server.maxWatchesPerClient)
    throw tooManyRequests('Too many requests, please try again later.', 1);

  const watch = new WatchResponse(ctx, format, includeObject, ctx.clientKey);
  const options = {
    namespace,
    labelSelector: q.labelSelector,
    fieldSelector,
    resourceVersion,
    allowWatchBookmarks: q.allowWatchBookmarks,
    sendInitialEvents: q.sendInitialEvents,
  };
  try {
    watch.subscribe(() => api.watch(resource, options, watch.onEvent));
  } catch (e) {
    if (!isApiError(e, 410)) {
      watch.abort();
      throw e;
    }
    // Upstream reports a compacted version inside the stream, on an HTTP 200.
    watch.onEvent({ type: 'ERROR', object: e.status });
    watch.end();
    return;
  }
  if (watch.isStopped) return;
  watch.begin();
  const seconds =
    q.timeoutSeconds !== undefined && q.timeoutSeconds > 0
      ? q.timeoutSeconds
      : randomInt(MIN_REQUEST_TIMEOUT_S, 2 * MIN_REQUEST_TIMEOUT_S);
  const bookmark = { apiVersion: apiVersionOf(resource), kind: resource.kind };
  watch.arm(
    seconds * 1000,
    q.allowWatchBookmarks ? () => ({ ...bookmark, metadata: { resourceVersion: api.resourceVersion } }) : undefined,
  );
}
