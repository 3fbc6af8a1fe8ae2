/**
 * The sandbox's Kubernetes HTTP API inside the worker: one server for the
 * current cluster, started, moved or stopped as the host configures it, and
 * moved to the new cluster when the session is replaced (reset, init). The
 * kubeconfig it writes always names the server that is listening; it is
 * removed when the API stops, so kubectl never talks to a stale port.
 */
import { rm } from 'node:fs/promises';
import type { Cluster } from '../../../sandbox/cluster/cluster';
import { renderKubeconfig, writePrivateFile } from '../../../sandbox/http/kubeconfig';
import { generateToken, startKubeHttpServer } from '../../../sandbox/http/server';
import type { KubeHttpServer, KubeHttpServerOptions } from '../../../sandbox/http/server';
import type { ApiSettings, ApiStatus } from '../sandbox/protocol';

/** What the API needs from the outside world; tests replace the file system and the server. */
export interface ApiServingDeps {
  start: (options: KubeHttpServerOptions) => Promise<KubeHttpServer>;
  writeKubeconfig: (path: string, text: string) => Promise<void>;
  removeKubeconfig: (path: string) => Promise<void>;
  /** The bearer token, one per worker: kept across resets so the kubeconfig's user stays the same. */
  token: string;
}

const DEFAULT_DEPS = (): ApiServingDeps => ({
  start: startKubeHttpServer,
  writeKubeconfig: writePrivateFile,
  removeKubeconfig: (path) => rm(path, { force: true }),
  token: generateToken(),
});

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class ApiServing {
  private settings: ApiSettings | undefined;
  private cluster: Cluster | undefined;
  private server: { http: KubeHttpServer; cluster: Cluster } | undefined;
  /** The kubeconfig on disk naming `server`. */
  private written: string | undefined;
  /** The port last served, tried first when any port will do, so the URL survives a reset. */
  private lastPort: number | undefined;
  private current: ApiStatus | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly deps: ApiServingDeps;

  constructor(
    private readonly onStatus: (status: ApiStatus) => void,
    deps: Partial<ApiServingDeps> = {},
  ) {
    this.deps = { ...DEFAULT_DEPS(), ...deps };
  }

  /** `undefined` until the host configured the API (init with `api`, or setApi). */
  get status(): ApiStatus | undefined {
    return this.current;
  }

  /** Applies the host's settings; resolves with the status once the server is up, stopped or failed. */
  async configure(settings: ApiSettings): Promise<ApiStatus> {
    this.settings = settings;
    return (await this.reconcile()) ?? { state: 'off' };
  }

  /** Serves `cluster` from now on (a new session); the previous cluster's server closes. */
  attach(cluster: Cluster | undefined): Promise<ApiStatus | undefined> {
    this.cluster = cluster;
    return this.reconcile();
  }

  /** Stops serving and removes the kubeconfig. */
  async dispose(): Promise<void> {
    this.settings = undefined;
    this.cluster = undefined;
    await this.reconcile();
  }

  /** Runs one `converge` after those already queued; each reads the latest settings, so bursts coalesce. */
  private reconcile(): Promise<ApiStatus | undefined> {
    const s = this.settings;
    if (s?.enabled && !(this.serverFits() && this.written === s.kubeconfig)) this.setStatus({ state: 'starting' });
    const run = this.queue.then(() => this.converge());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Whether the running server serves the current cluster on an acceptable port. */
  private serverFits(): boolean {
    const s = this.settings;
    return (
      !!s && !!this.server && this.server.cluster === this.cluster && (s.port === 0 || s.port === this.server.http.port)
    );
  }

  private async converge(): Promise<ApiStatus | undefined> {
    const s = this.settings;
    if (!s?.enabled || !this.cluster) {
      await this.closeServer();
      await this.removeKubeconfig();
      return this.setStatus(s === undefined ? undefined : s.enabled ? { state: 'starting' } : { state: 'off' });
    }
    if (!this.serverFits()) await this.closeServer();
    const unchanged = !!this.server && this.written === s.kubeconfig;
    if (!this.server) {
      try {
        this.server = { http: await this.listen(this.cluster, s.port), cluster: this.cluster };
        this.lastPort = this.server.http.port;
      } catch (e) {
        await this.removeKubeconfig();
        return this.setStatus({ state: 'failed', error: this.listenError(e, s.port) });
      }
    }
    const url = this.server.http.url;
    if (unchanged) return this.setStatus({ state: 'serving', url, kubeconfig: s.kubeconfig });
    try {
      if (this.written !== s.kubeconfig) await this.removeKubeconfig();
      await this.deps.writeKubeconfig(
        s.kubeconfig,
        renderKubeconfig({
          server: url,
          token: this.deps.token,
          certificateAuthority: this.server.http.certificateAuthority,
        }),
      );
      this.written = s.kubeconfig;
    } catch (e) {
      await this.closeServer();
      return this.setStatus({ state: 'failed', error: `cannot write the kubeconfig ${s.kubeconfig}: ${errorText(e)}` });
    }
    return this.setStatus({ state: 'serving', url, kubeconfig: s.kubeconfig });
  }

  /** Listens on `port`; with port 0 the previous port is tried first, then any free one. */
  private async listen(cluster: Cluster, port: number): Promise<KubeHttpServer> {
    if (port === 0 && this.lastPort !== undefined) {
      try {
        return await this.deps.start({ cluster, port: this.lastPort, token: this.deps.token });
      } catch {
        // Taken meanwhile: any free port will do.
      }
    }
    return this.deps.start({ cluster, port, token: this.deps.token });
  }

  private listenError(e: unknown, port: number): string {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return `port ${port} on 127.0.0.1 is already in use: set kubeReconcile.api.port to another port, or to 0 for any free port`;
    if (code === 'EACCES')
      return `not allowed to listen on port ${port} of 127.0.0.1: choose a port above 1023, or 0 for any free port`;
    return `cannot listen on 127.0.0.1:${port}: ${errorText(e)}`;
  }

  private async closeServer(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.http.close().catch(() => undefined);
  }

  private async removeKubeconfig(): Promise<void> {
    const path = this.written;
    this.written = undefined;
    if (path !== undefined) await this.deps.removeKubeconfig(path).catch(() => undefined);
  }

  private setStatus(status: ApiStatus | undefined): ApiStatus | undefined {
    const changed = JSON.stringify(status) !== JSON.stringify(this.current);
    this.current = status;
    if (changed && status) this.onStatus(status);
    return status;
  }
}
