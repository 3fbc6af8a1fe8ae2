/**
 * The sandbox's Kubernetes HTTP API: the Cluster's API server behind the
 * routes, verbs and wire formats of kube-apiserver, so that `kubectl` and
 * client libraries (client-go, @kubernetes/client-node) work against it.
 *
 * Listens on 127.0.0.1 only. Every request but the health checks needs
 * `Authorization: Bearer <token>` (else 401). Each request is handled in
 * turn on the Cluster's thread; errors become upstream Status responses and
 * never stop the server (an unexpected exception is a 500).
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, ServerResponse as HttpServerResponse } from 'node:http';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ApiError, internalError, methodNotAllowed, resourceNotFound, unauthorized } from '../api/errors';
import type { Cluster } from '../cluster/cluster';
import { DEFAULT_MAX_BODY_BYTES } from './body';
import { DEFAULT_REQUEST_TIMEOUT_MS, isLongRunning, requestDeadlineMs, requestTimedOut } from './deadline';
import { GLOBAL_TIMERS, RequestContext } from './context';
import type { HttpTimers, ServerState } from './context';
import { discoveryDocument, versionInfo } from './discovery';
import { handleResource } from './handlers/index';
import { openApiDocument } from './openapi/index';
import { isDiscoveryPath, parseResourceRequest } from './requestInfo';
import { sendError, sendObject, sendText, setCommonHeaders } from './respond';
import { selfSignedCertificate } from './tls';

export type { HttpTimers } from './context';

export interface KubeHttpServerOptions {
  /** The cluster served: its API server, clock and logs. */
  cluster: Cluster;
  /** 0 or undefined: a free port. The host is always 127.0.0.1. */
  port?: number;
  /** The bearer token every request must carry. */
  token: string;
  /** Largest request body accepted (default 3 MiB, upstream's limit); larger is 413. */
  maxBodyBytes?: number;
  /** Open watches per client (by User-Agent) before 429 (default 100). */
  maxWatchesPerClient?: number;
  /** Unwritten bytes a watch or log stream may queue for a slow client before it is closed (default 16 MiB). */
  maxWatchBufferBytes?: number;
  /** Transport timers (watch timeouts, bookmarks, request deadlines); default the global ones. */
  timers?: HttpTimers;
  /**
   * The deadline of a non-long-running request, in ms (upstream `--request-timeout`, default 60 s; `?timeout=` may
   * ask for less): unanswered by then, it is 504 and its connection is closed.
   */
  requestTimeoutMs?: number;
  /** Time a client has to send its headers before its connection is closed (default 32 s: ReadHeaderTimeout). */
  headersTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this (default 90 s, upstream's IdleTimeout). */
  keepAliveTimeoutMs?: number;
  /** Receives one line per request: method, path, status, milliseconds. */
  log?: (line: string) => void;
  /**
   * Serve HTTPS with a fresh self-signed certificate (default true). kubectl
   * sends a kubeconfig's token only over https; plain http suits clients that
   * send it anyway (@kubernetes/client-node, curl).
   */
  tls?: boolean;
}

export interface KubeHttpServer {
  /** `https://127.0.0.1:<port>` (`http://` without TLS). */
  readonly url: string;
  readonly port: number;
  /**
   * The server's self-signed certificate (PEM), for clients to trust: a kubeconfig's `certificate-authority-data` is
   * its base64. Undefined without TLS.
   */
  readonly certificateAuthority?: string;
  /** Ends open watches and log streams, closes every connection and stops listening. */
  close(): Promise<void>;
}

/** A new bearer token: 32 random bytes, base64url. A secret, not simulation randomness. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

const HEALTH_PATHS = /^\/(healthz|livez|readyz)(\/[^/]+)?$/;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time check of `Authorization: Bearer <token>` (digests compared, so length leaks nothing). */
function authorized(header: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]), expected);
}

/** `/version`, discovery and OpenAPI documents (GET only). True when the path was one of them. */
function serveDocuments(req: IncomingMessage, res: ServerResponse, url: URL, cluster: Cluster): boolean {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const isDocument = path === '/version' || path.startsWith('/openapi/') || isDiscoveryPath(path);
  if (!isDocument) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed();
  if (path === '/version') {
    sendObject(res, 200, versionInfo(), { pretty: true });
    return true;
  }
  if (path.startsWith('/openapi/')) {
    const doc = openApiDocument(path, url.searchParams, req.headers.accept, cluster.api.resources);
    if (!doc) throw resourceNotFound();
    setCommonHeaders(res, doc.contentType, { headers: doc.headers });
    res.setHeader('Content-Length', Buffer.byteLength(doc.body));
    res.statusCode = doc.status ?? 200;
    res.end(doc.body);
    return true;
  }
  const doc = discoveryDocument(path, req.headers.accept, cluster.api.resources);
  if (!doc) throw resourceNotFound();
  const body = encodedDocument(doc.body);
  setCommonHeaders(res, doc.contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.statusCode = 200;
  res.end(body);
  return true;
}

/** Discovery documents are built once and frozen: their JSON is kept alongside. */
const documentJson = new WeakMap<object, string>();

function encodedDocument(body: unknown): string {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body);
  let text = documentJson.get(body);
  if (text === undefined) documentJson.set(body, (text = JSON.stringify(body)));
  return text;
}

function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  return internalError(e instanceof Error ? e.message : String(e));
}

export function startKubeHttpServer(options: KubeHttpServerOptions): Promise<KubeHttpServer> {
  const expected = digest(options.token);
  const state: ServerState = {
    cluster: options.cluster,
    timers: options.timers ?? GLOBAL_TIMERS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxWatchesPerClient: options.maxWatchesPerClient ?? 100,
    maxWatchBufferBytes: options.maxWatchBufferBytes ?? 16 * 1024 * 1024,
    watchesByClient: new Map(),
    streams: new Set(),
  };

  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeoutMs = options.headersTimeoutMs ?? 32_000;
  /**
   * upstream timeout.go: a request unanswered at its deadline is 504 (if nothing of the answer was written yet; else
   * its connection is cut), and whatever the handler writes later goes nowhere. The connection is closed: the rest of
   * a stalled body would otherwise be read as the next request.
   */
  const startDeadline = (req: IncomingMessage, res: ServerResponse, url: URL, ms: number): void => {
    const timer = state.timers.setTimeout(() => {
      if (res.writableEnded || res.destroyed) return;
      options.log?.(`${req.method} ${url.pathname}${url.search}: request timed out after ${ms} ms`);
      res.on('error', () => undefined); // the handler's late writes
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.shouldKeepAlive = false;
      sendError(res, requestTimedOut(), { pretty: url.searchParams.get('pretty') === 'true' });
    }, ms);
    res.once('close', () => state.timers.clearTimeout(timer));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    // The request target is a path: parsed against a fixed origin, so `//x` stays a path and nothing throws.
    const url = new URL(`http://127.0.0.1${(req.url ?? '/').startsWith('/') ? (req.url ?? '/') : `/${req.url}`}`);
    try {
      if (HEALTH_PATHS.test(url.pathname)) {
        sendText(res, 200, 'ok');
        return;
      }
      if (!authorized(req.headers.authorization, expected)) throw unauthorized();
      if (serveDocuments(req, res, url, options.cluster)) return;
      const info = parseResourceRequest(
        req.method ?? 'GET',
        url.pathname,
        url.searchParams,
        options.cluster.api.resources,
      );
      if (!isLongRunning(info)) startDeadline(req, res, url, requestDeadlineMs(url.searchParams, requestTimeoutMs));
      await handleResource(new RequestContext(req, res, url, info, state));
    } catch (e) {
      const error = toApiError(e);
      if (!(e instanceof ApiError))
        options.log?.(
          `internal error on ${req.method} ${url.pathname}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
        );
      if (res.headersSent) res.destroy();
      else sendError(res, error, { pretty: url.searchParams.get('pretty') === 'true' });
    } finally {
      // A body nobody read (a GET with one, an early error) is drained, or it would be parsed as the next request.
      req.resume();
      options.log?.(
        `${req.method} ${url.pathname}${url.search} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`,
      );
    }
  };

  const listener: RequestListener = (req, res) => {
    handle(req, res).catch((e: unknown) => {
      // Only a failure to write the error itself gets here: drop the connection, keep serving.
      options.log?.(`failed to answer ${req.method} ${req.url}: ${String(e)}`);
      res.destroy();
    });
  };
  const certificate = options.tls === false ? undefined : selfSignedCertificate();
  // Node's own requestTimeout (whole request received) stays off: the deadline above answers as upstream does (504,
  // not 408), and long-running requests have none. Headers are checked against headersTimeout every second or so.
  const serverOptions = {
    requestTimeout: 0,
    keepAlive: true,
    connectionsCheckingInterval: Math.max(5, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
  };
  const server = certificate
    ? createHttpsServer({ ...serverOptions, key: certificate.key, cert: certificate.cert }, listener)
    : createHttpServer(serverOptions, listener);
  // Requests with `Connection: Upgrade` (kubectl exec, attach, port-forward: WebSocket, then SPDY) are
  // answered by the same routes through a response on the raw socket, which closes when it is sent.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (head.length > 0) socket.unshift(head);
    const res = new HttpServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => socket.end());
    socket.on('error', () => socket.destroy());
    listener(req, res);
  });
  // upstream secure_serving.go: ReadHeaderTimeout 32 s (a slowloris client that never finishes its headers is cut),
  // IdleTimeout 90 s (an idle keep-alive connection, or a half-open one that sends nothing, is closed).
  server.headersTimeout = headersTimeoutMs;
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 90_000;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `${certificate ? 'https' : 'http'}://127.0.0.1:${port}`,
        port,
        certificateAuthority: certificate?.cert,
        close: () =>
          new Promise<void>((done) => {
            for (const end of [...state.streams]) end();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
