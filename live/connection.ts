/**
 * A connection to one context of the user's kubeconfig: requests to its API server over HTTPS with the context's
 * credentials (bearer token, client certificate, basic auth or an exec plugin such as `aws`,
 * `gke-gcloud-auth-plugin` or `kubelogin`, all applied by @kubernetes/client-node).
 *
 * Read-only unless opened with `writes: true`: the guard sits in {@link LiveConnection.request}, the one place a
 * request is sent from, and refuses every method but GET and HEAD before a socket is opened. Errors say what went
 * wrong in kubectl's words (unreachable server, 401 with expired credentials, a failing exec plugin) and never
 * carry a credential: every message and log line passes through {@link LiveConnection.redact}.
 */
import { Agent, request as httpsRequest } from 'node:https';
import type { RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../sandbox/api/types';
import { pickContext } from './kubeconfig';
import type { LiveContext, LoadedKubeconfig } from './kubeconfig';

/** Why a request failed, for callers that react (reconnect, ask to log in again). */
export type LiveErrorKind = 'unreachable' | 'unauthorized' | 'forbidden' | 'credentials' | 'read-only' | 'server';

export class LiveError extends Error {
  constructor(
    readonly kind: LiveErrorKind,
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** The server's Status object, when it sent one. */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'LiveError';
  }
}

export interface OpenOptions {
  /** The context (default: the kubeconfig's current context). */
  context?: string;
  /** Allow requests that change the cluster (default false: GET and HEAD only). */
  writes?: boolean;
  /** Receives one line per request: method, path, status, milliseconds — never headers or bodies. */
  log?: (line: string) => void;
  /** Longest wait for an answer to a request that is not a watch (default 30 s). */
  timeoutMs?: number;
}

export interface RequestOptionsLive {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Content type of the body (default application/json). */
  contentType?: string;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject;
}

export interface LiveWatch {
  /** Ends the watch; `onEnd` is not called. */
  stop(): void;
}

const READ_METHODS = new Set(['GET', 'HEAD']);
const DEFAULT_TIMEOUT_MS = 30_000;
const TLS_CODES =
  /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL)/;

interface Transport {
  options: RequestOptions;
  secrets: string[];
}

export class LiveConnection {
  private readonly agent: Agent;
  /**
   * Watches and followed logs stay open for minutes: they get sockets of their own, so that they never take all of
   * the pooled agent's 8 and leave a request queued behind them (the tree watches 11 resources).
   */
  private readonly streamAgent: Agent;
  private readonly timeoutMs: number;
  /** Credentials seen so far (the kubeconfig's and what exec plugins returned): never in a message. */
  private readonly secrets = new Set<string>();

  private constructor(
    private readonly config: KubeConfig,
    readonly context: LiveContext,
    readonly writable: boolean,
    private readonly log: ((line: string) => void) | undefined,
    timeoutMs: number | undefined,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 8 });
    this.streamAgent = new Agent({ keepAlive: false });
    this.timeoutMs = timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const user = config.getCurrentUser();
    for (const s of [user?.token, user?.password, user?.keyData, user?.certData]) if (s) this.secrets.add(s);
  }

  /** A connection to a context of the loaded kubeconfig (nothing is sent until the first request). */
  static async open(loaded: LoadedKubeconfig, options: OpenOptions = {}): Promise<LiveConnection> {
    const ctx = pickContext(loaded, options.context);
    const config = new KubeConfig();
    // A copy that selects the context: the loaded config (and the files) stay as they were.
    config.loadFromOptions({
      clusters: loaded.config.clusters,
      users: loaded.config.users,
      contexts: loaded.config.contexts,
      currentContext: ctx.name,
    });
    return new LiveConnection(config, ctx, options.writes === true, options.log, options.timeoutMs);
  }

  /** The server's host:port, as kubectl names it in connection errors. */
  get host(): string {
    try {
      return new URL(this.context.server).host;
    } catch {
      return this.context.server;
    }
  }

  /** `text` with every credential this connection knows replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
    return out.replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]');
  }

  /** Closes idle sockets; open watches end. */
  close(): void {
    this.agent.destroy();
    this.streamAgent.destroy();
  }

  /** TLS and auth options for one request; an exec plugin runs here (client-node caches its credential). */
  private async transport(): Promise<Transport> {
    const options: RequestOptions = {};
    try {
      await this.config.applyToHTTPSOptions(options);
    } catch (e) {
      const user = this.config.getCurrentUser();
      const exec = user?.exec as { command?: string } | undefined;
      const detail =
        redactTokenLike(this.redact(String((e as Error).message ?? e).trim()).split('\n')[0]) || 'no output';
      throw new LiveError(
        'credentials',
        exec?.command
          ? `getting credentials: exec plugin "${exec.command}" of user "${this.context.user}" failed: ${detail}` +
            ` (context "${this.context.name}"; log in with the plugin's tool and connect again)`
          : `cannot use the credentials of user "${this.context.user}" (context "${this.context.name}"): ${detail}`,
      );
    }
    const headers = (options.headers ?? {}) as Record<string, string>;
    const auth = headers.Authorization ?? headers.authorization;
    if (typeof auth === 'string') {
      const credential = auth.replace(/^\S+\s+/, '');
      if (credential) this.secrets.add(credential);
    }
    return { options, secrets: [...this.secrets] };
  }

  private url(path: string, query?: RequestOptionsLive['query']): URL {
    const base = new URL(this.context.server);
    const url = new URL(base.href.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** Sends one request; the guard refuses a write on a read-only connection before anything is sent. */
  private async send(method: string, path: string, o: RequestOptionsLive, watch: boolean): Promise<IncomingMessage> {
    const m = method.toUpperCase();
    if (!READ_METHODS.has(m) && !this.writable)
      throw new LiveError(
        'read-only',
        `refused ${m} ${path}: the connection to context "${this.context.name}" is read-only (nothing was sent); ` +
          'use Apply to Cluster to change it',
      );
    const { options } = await this.transport();
    const url = this.url(path, o.query);
    const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const headers: Record<string, string> = {
      ...((options.headers ?? {}) as Record<string, string>),
      accept: 'application/json',
      'user-agent': 'kube-reconcile/live',
      ...(body !== undefined ? { 'content-type': o.contentType ?? 'application/json' } : {}),
    };
    if (options.auth) headers.authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    const started = performance.now();
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const attempt = (retried: boolean): Promise<IncomingMessage> =>
      new Promise((resolvePromise, reject) => {
        const req = send(
          url,
          {
            method: m,
            headers,
            ...(url.protocol === 'https:'
              ? {
                  agent: watch ? this.streamAgent : this.agent,
                  ca: options.ca,
                  cert: options.cert,
                  key: options.key,
                  servername: options.servername,
                  rejectUnauthorized: options.rejectUnauthorized ?? true,
                }
              : {}),
          },
          (res) => {
            this.log?.(
              `${m} ${url.pathname}${url.search} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`,
            );
            resolvePromise(res);
          },
        );
        if (!watch)
          req.setTimeout(this.timeoutMs, () =>
            req.destroy(Object.assign(new Error(`timed out after ${this.timeoutMs / 1000}s`), { code: 'ETIMEDOUT' })),
          );
        req.on('error', (e) => {
          const code = (e as NodeJS.ErrnoException).code;
          // A kept-alive socket the server closed as it was reused: a read is sent again once, on a new connection
          // (the retry Node's documentation gives for `request.reusedSocket`).
          if (!retried && code === 'ECONNRESET' && req.reusedSocket && READ_METHODS.has(m))
            return void attempt(true).then(resolvePromise, reject);
          this.log?.(`${m} ${url.pathname}${url.search} failed: ${code ?? 'error'}`);
          reject(this.networkError(e as NodeJS.ErrnoException));
        });
        req.end(body);
      });
    return attempt(false);
  }

  private networkError(e: NodeJS.ErrnoException): LiveError {
    const where = `(context "${this.context.name}")`;
    // upstream (kubectl, staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go: checkErr and the connection-refused text)
    if (e.code === 'ECONNREFUSED')
      return new LiveError(
        'unreachable',
        `The connection to the server ${this.host} was refused - did you specify the right host or port? ${where}`,
      );
    if (e.code && TLS_CODES.test(e.code))
      return new LiveError(
        'unreachable',
        `Unable to connect to the server ${this.host}: its certificate is not trusted (${e.code}); check ` +
          `certificate-authority of cluster "${this.context.cluster}" ${where}`,
      );
    return new LiveError(
      'unreachable',
      `Unable to connect to the server ${this.host}: ${this.redact(e.code ?? e.message)} ${where}`,
    );
  }

  private async statusError(res: IncomingMessage): Promise<LiveError> {
    const text = await readBody(res);
    let status: { message?: string; reason?: string } | undefined;
    try {
      status = JSON.parse(text) as typeof status;
    } catch {
      status = undefined;
    }
    const code = res.statusCode ?? 0;
    if (code === 401)
      // upstream (kubectl): error: You must be logged in to the server (Unauthorized)
      return new LiveError(
        'unauthorized',
        `You must be logged in to the server (Unauthorized): the credentials of user "${this.context.user}" ` +
          `(context "${this.context.name}") were refused; they may have expired — log in again and reconnect`,
        401,
        status,
      );
    const reason = status?.reason || res.statusMessage || String(code);
    const message = this.redact(status?.message || text.slice(0, 200) || `HTTP ${code}`);
    // upstream (kubectl): Error from server (Reason): message
    return new LiveError(
      code === 403 ? 'forbidden' : 'server',
      `Error from server (${reason}): ${message}`,
      code,
      status,
    );
  }

  /**
   * One request, answered with its parsed JSON body (2xx) or rejected with a LiveError. On a read-only connection
   * any method but GET and HEAD is refused before it is sent.
   */
  async request<T = unknown>(method: string, path: string, o: RequestOptionsLive = {}): Promise<T> {
    const res = await this.send(method, path, o, false);
    if ((res.statusCode ?? 0) >= 300) throw await this.statusError(res);
    const text = await readBody(res);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** Every item of a list, fetched in pages of 500 (`limit` and `continue`), with the list's resourceVersion. */
  async list(
    path: string,
    query: RequestOptionsLive['query'] = {},
  ): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.request<{
        items?: KubeObject[];
        metadata?: { continue?: string; resourceVersion?: string };
      }>('GET', path, { query: { ...query, limit: 500, continue: cont } });
      items.push(...(page.items ?? []));
      cont = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
    } while (cont);
    return { items, resourceVersion };
  }

  /**
   * A text response read as it arrives (the pod log API with `follow=true`: `kubectl logs -f`). `onText` gets each
   * chunk; `onEnd` gets undefined when the server ended the response (the container stopped), else the error (a
   * 400 "container … is waiting to start" arrives here in the server's words). `stop()` closes it.
   */
  stream(
    path: string,
    query: RequestOptionsLive['query'],
    onText: (text: string) => void,
    onEnd: (error?: LiveError) => void,
  ): LiveWatch {
    let stopped = false;
    let response: IncomingMessage | undefined;
    const end = (error?: LiveError): void => {
      if (stopped) return;
      stopped = true;
      onEnd(error);
    };
    this.send('GET', path, { query }, true).then(
      async (res) => {
        if (stopped) return void res.destroy();
        if ((res.statusCode ?? 0) >= 300) return end(await this.statusError(res));
        response = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (!stopped) onText(chunk);
        });
        res.on('end', () => end());
        res.on('error', () => end());
        res.on('close', () => end());
      },
      (e: unknown) => end(e instanceof LiveError ? e : new LiveError('unreachable', this.redact(String(e)))),
    );
    return {
      stop: () => {
        stopped = true;
        response?.destroy();
      },
    };
  }

  /**
   * Watches a collection from `resourceVersion` (newline-delimited JSON events, bookmarks asked for). `onEnd` gets
   * undefined when the server closed the watch normally, else the error; a 410 Gone arrives as an ERROR event.
   */
  watch(
    path: string,
    resourceVersion: string,
    onEvent: (e: WatchEvent) => void,
    onEnd: (error?: LiveError) => void,
    query: RequestOptionsLive['query'] = {},
  ): LiveWatch {
    // A stream cut once established (the server restarting, a proxy's idle timeout) ends like the server's own
    // timeout: the caller watches again from the last resourceVersion, and only then learns if the server is gone.
    let stopped = false;
    let buffered = '';
    const stream = this.stream(
      path,
      { ...query, watch: 1, resourceVersion, allowWatchBookmarks: true },
      (chunk) => {
        buffered += chunk;
        let nl: number;
        while (!stopped && (nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line) onEvent(JSON.parse(line) as WatchEvent);
        }
      },
      (error) => {
        stopped = true;
        onEnd(error);
      },
    );
    return {
      stop: () => {
        stopped = true;
        stream.stop();
      },
    };
  }
}

/**
 * An exec plugin's output may quote a credential this connection never saw (an expired token, a refresh token):
 * every run of 20 or more token characters with both letters and digits is taken for one.
 */
function redactTokenLike(text: string): string {
  return text.replace(/[A-Za-z0-9._~+/=-]{20,}/g, (w) => (/[A-Za-z]/.test(w) && /\d/.test(w) ? '[redacted]' : w));
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(text));
    res.on('error', fail);
  });
}
