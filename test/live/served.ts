/**
 * The stand-in real cluster for the live tests: the sandbox's HTTPS API (as `kube-reconcile serve` runs it) with a
 * kubeconfig of its own in a temporary folder, and every request the server answered, as its log lines.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from '../../sandbox/cluster/cluster';
import type { ClusterOptions } from '../../sandbox/cluster/cluster';
import { renderKubeconfig } from '../../sandbox/http/kubeconfig';
import { WEB_DEPLOYMENT } from '../cli/cliFixture';
import { startKubeHttpServer } from '../../sandbox/http/server';
import type { KubeHttpServer } from '../../sandbox/http/server';

/** The CLI tests' `web` Deployment, in namespace `default` (as a workspace manifest for a real cluster names it). */
export const WEB = WEB_DEPLOYMENT.replace('  name: web\n', '  name: web\n  namespace: default\n');

export const SERVED_TOKEN = 'live-test-token-3f9c1b7a5e2d4c6b8a0f';

export interface ServedCluster {
  cluster: Cluster;
  server: KubeHttpServer;
  /** A folder of its own, removed by `close`. */
  dir: string;
  /** The kubeconfig pointing at the server (context `kube-reconcile`, the server's certificate trusted). */
  kubeconfig: string;
  /** One line per answered request: `METHOD /path?query STATUS 1.2ms`. */
  requests: string[];
  /** Requests other than GET and HEAD that reached the server. */
  writes(): string[];
  close(): Promise<void>;
}

export async function serveCluster(options: ClusterOptions & { token?: string } = {}): Promise<ServedCluster> {
  const { token, ...clusterOptions } = options;
  const cluster = new Cluster({ nodes: 2, ...clusterOptions });
  cluster.start();
  const requests: string[] = [];
  const server = await startKubeHttpServer({
    cluster,
    token: token ?? SERVED_TOKEN,
    port: 0,
    log: (line) => requests.push(line),
  });
  const dir = await mkdtemp(join(tmpdir(), 'kube-reconcile-live-'));
  const kubeconfig = join(dir, 'config');
  await writeFile(
    kubeconfig,
    renderKubeconfig({ server: server.url, token: SERVED_TOKEN, certificateAuthority: server.certificateAuthority }),
  );
  return {
    cluster,
    server,
    dir,
    kubeconfig,
    requests,
    writes: () => requests.filter((l) => !/^(GET|HEAD) /.test(l)),
    close: async () => {
      await server.close();
      cluster.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
