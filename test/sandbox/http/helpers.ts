/**
 * A sandbox HTTP API on a free port over a Cluster on a VirtualClock, and a
 * small client for it: plain requests and watch streams read line by line.
 * Waits are on socket events, never on fixed delays.
 */
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { ConfigMap, Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../../sandbox/api/types';
import { aConfigMap, aDeployment, aPod } from '../../builders';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { ClusterOptions } from '../../../sandbox/cluster/cluster';
import type { HttpTimers, KubeHttpServer, KubeHttpServerOptions } from '../../../sandbox/http/server';
import { startKubeHttpServer } from '../../../sandbox/http/server';

export const TOKEN = 'test-token-0123456789';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: Record<string, unknown>;
}

/** The body of `reply` parsed as JSON of the shape the test expects (a `Table`, a `Status`). */
export function bodyAs<T>(reply: Reply): T {
  return JSON.parse(reply.text) as T;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  accept?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface Served {
  cluster: Cluster;
  server: KubeHttpServer;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  watch(path: string, options?: RequestOptions): Promise<WatchStream>;
  close(): Promise<void>;
}

/** Manual transport timers: tests fire them with `fire`. */
export class FakeTimers implements HttpTimers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number; repeat: boolean }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms, repeat: false });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  setInterval(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms, repeat: true });
    return id;
  }
  clearInterval(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Runs every pending timer set for `ms` milliseconds (intervals stay). Returns how many ran. */
  fire(ms: number): number {
    let n = 0;
    for (const [id, t] of [...this.pending]) {
      if (t.ms !== ms) continue;
      if (!t.repeat) this.pending.delete(id);
      t.fn();
      n++;
    }
    return n;
  }
  count(ms: number): number {
    return [...this.pending.values()].filter((t) => t.ms === ms).length;
  }
}

export interface WatchEventLine {
  type: string;
  object: Record<string, unknown> & {
    metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> };
  };
}

/** An open watch response, read as JSON lines. */
export class WatchStream {
  private buffer = '';
  private readonly queue: WatchEventLine[] = [];
  private waiters: {
    n: number;
    resolve: () => void;
    reject: (e: Error) => void;
    timer: ReturnType<typeof setTimeout>;
  }[] = [];
  ended = false;

  constructor(readonly response: IncomingMessage) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim()) this.queue.push(JSON.parse(line) as WatchEventLine);
      }
      this.wake();
    });
    const finish = () => {
      this.ended = true;
      this.wake();
    };
    response.on('end', finish);
    response.on('close', finish);
    response.on('error', finish);
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** Events received so far (not consumed). */
  get received(): readonly WatchEventLine[] {
    return this.queue;
  }

  /** Resolves once at least `n` events have arrived in total; rejects if the stream ends first or after `timeoutMs`. */
  until(n: number, timeoutMs = 5000): Promise<readonly WatchEventLine[]> {
    if (this.queue.length >= n) return Promise.resolve(this.queue);
    if (this.ended) return Promise.reject(new Error(`watch ended after ${this.queue.length} events, wanted ${n}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`timed out waiting for ${n} events, have ${JSON.stringify(this.queue.map((e) => e.type))}`)),
        timeoutMs,
      );
      this.waiters.push({ n, resolve: () => resolve(this.queue), reject, timer });
    });
  }

  /** Resolves when the server ends the response. */
  whenEnded(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for the watch to end')), 5000);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.response.once('end', done);
      this.response.once('close', done);
    });
  }

  close(): void {
    this.response.destroy();
  }

  private wake(): void {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.queue.length >= w.n) {
        clearTimeout(w.timer);
        w.resolve();
      } else if (this.ended) {
        clearTimeout(w.timer);
        w.reject(new Error(`watch ended after ${this.queue.length} events, wanted ${w.n}`));
      } else still.push(w);
    }
    this.waiters = still;
  }
}

function send(server: KubeHttpServer, method: string, path: string, options: RequestOptions): Promise<IncomingMessage> {
  const url = new URL(path, server.url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null) headers.Authorization = `Bearer ${options.token ?? TOKEN}`;
  if (options.accept !== undefined) headers.Accept = options.accept;
  let payload: string | Buffer | undefined;
  if (options.body !== undefined) {
    payload =
      typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] = options.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  } else if (options.contentType !== undefined) headers['Content-Type'] = options.contentType;
  const https = url.protocol === 'https:';
  const make = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = make(url, { method, headers, ...(https ? { ca: server.certificateAuthority } : {}) }, resolve);
    req.on('error', reject);
    req.end(payload);
  });
}

export async function request(
  server: KubeHttpServer,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Reply> {
  const res = await send(server, method, path, options);
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (health checks, logs)
  }
  return { status: res.statusCode ?? 0, headers: res.headers, text, json };
}

/**
 * Starts a cluster (not running its controllers unless `start`) and the server
 * on port 0, plain HTTP unless `tls` says otherwise.
 */
export async function serve(
  options: { cluster?: ClusterOptions; start?: boolean } & Partial<
    Omit<KubeHttpServerOptions, 'cluster' | 'token'>
  > = {},
): Promise<Served> {
  const { cluster: clusterOptions, start, ...serverOptions } = options;
  const cluster = new Cluster({ nodes: 2, ...clusterOptions });
  if (start) cluster.start();
  const server = await startKubeHttpServer({ tls: false, ...serverOptions, cluster, token: TOKEN, port: 0 });
  return {
    cluster,
    server,
    request: (method, path, o) => request(server, method, path, o),
    watch: async (path, o = {}) => new WatchStream(await send(server, 'GET', path, o)),
    close: async () => {
      await server.close();
      cluster.stop();
    },
  };
}

export function configMap(
  name: string,
  data: Record<string, string> = { a: '1' },
  labels?: Record<string, string>,
): Typed<ConfigMap> {
  return aConfigMap(name, data, { namespace: null, labels });
}

export function deployment(name: string, replicas = 2): Typed<Deployment> {
  return aDeployment(name, { namespace: null, replicas });
}

export function pod(
  name: string,
  labels: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Typed<Pod> {
  return aPod(name, { namespace: null, labels, spec: extra });
}
