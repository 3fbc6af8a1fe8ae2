/**
 * What every resource handler receives: the parsed request, the cluster, the
 * negotiated output and the server's shared state (timers, limits, open
 * watches). Handlers write through `respond.ts` and throw ApiErrors, which the
 * server turns into Status responses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiServer } from '../apiserver/apiServer';
import type { Cluster } from '../cluster/cluster';
import { readBody } from './body';
import type { ResourceRequest } from './requestInfo';
import type { SendOptions } from './respond';
import { sendObject } from './respond';

/** Real-time timers of the transport (bookmarks, watch timeouts); injectable so tests never wait. */
export interface HttpTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const GLOBAL_TIMERS: HttpTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/** Server-wide state the handlers share. */
export interface ServerState {
  readonly cluster: Cluster;
  readonly timers: HttpTimers;
  readonly maxBodyBytes: number;
  readonly maxWatchesPerClient: number;
  /** Unwritten bytes a watch may queue for a slow client before it is closed. */
  readonly maxWatchBufferBytes: number;
  /** Open watches (and log follows) per client key. */
  readonly watchesByClient: Map<string, number>;
  /** Stops every open stream (server shutdown). */
  readonly streams: Set<() => void>;
}

export class RequestContext {
  readonly warnings: string[] = [];
  private bodyPromise: Promise<Buffer> | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: URL,
    readonly info: ResourceRequest,
    readonly server: ServerState,
  ) {}

  get api(): ApiServer {
    return this.server.cluster.api;
  }

  get query(): URLSearchParams {
    return this.url.searchParams;
  }

  get now(): number {
    return this.server.cluster.clock.now();
  }

  /** Who the client is, for per-client limits: its User-Agent. */
  get clientKey(): string {
    return this.req.headers['user-agent'] ?? '';
  }

  /** `?pretty=true`, or a curl / wget / browser user agent, as upstream's isPrettyPrint. */
  get pretty(): boolean {
    const p = this.query.get('pretty');
    if (p !== null) return p === 'true' || p === '1';
    const ua = this.clientKey;
    return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/');
  }

  /** The request body (read once, limited to the server's maximum). */
  body(): Promise<Buffer> {
    this.bodyPromise ??= readBody(this.req, this.server.maxBodyBytes);
    return this.bodyPromise;
  }

  send(code: number, body: unknown, options: SendOptions = {}): void {
    sendObject(this.res, code, body, { pretty: this.pretty, warnings: this.warnings, ...options });
  }
}
