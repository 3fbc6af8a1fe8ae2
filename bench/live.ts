/**
 * bench/live: a large real cluster, stood in for by the sandbox's HTTPS API — 500 nodes and 5,000 pods.
 *  1. Time to first tree paint: open the kubeconfig context, list every resource the tree shows (informers), fill
 *     the host's mirror cache and build the Cluster tree's rows (roots, the Nodes group, a namespace) — target ≤ 2 s.
 *  2. Updates batched: 1,000 pod changes made at once reach the cache in how many batches, and how fast.
 *  3. The snapshot `plan --kubeconfig` takes of the same cluster (GET only).
 * Prints figures; never fails on them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Cluster } from '../sandbox/cluster/cluster';
import type { KubeObject } from '../sandbox/api/types';
import { generateToken, startKubeHttpServer } from '../sandbox/http/server';
import { renderKubeconfig } from '../sandbox/http/kubeconfig';
import { MirrorCache } from '../client/src/sandbox/mirror';
import { ClusterTree } from '../client/src/model/clusterTree';
import { LiveConnection } from '../live/connection';
import { loadKubeconfig } from '../live/kubeconfig';
import { LiveInformers } from '../live/informers';
import type { LiveFeed } from '../live/informers';
import { takeLiveSnapshot } from '../live/snapshot';
import { fmt, machine } from './stats';

const NODES = 500;
const PODS = 5000;

function pod(i: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `load-${i}`, namespace: `team-${i % 10}`, labels: { app: 'load' } },
    spec: {
      nodeName: `node-${(i % NODES) + 1}`,
      containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '10m' } } }],
    },
  };
}

async function main(): Promise<void> {
  console.log(`bench/live — ${machine()}`);
  const cluster = new Cluster({ nodes: NODES });
  cluster.start();
  for (let t = 0; t < 10; t++)
    cluster.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `team-${t}` } });
  for (let i = 0; i < PODS; i++) cluster.api.create(pod(i));
  const token = generateToken();
  const server = await startKubeHttpServer({ cluster, token, port: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'kube-reconcile-bench-live-'));
  const file = join(dir, 'config');
  await writeFile(
    file,
    renderKubeconfig({ server: server.url, token, certificateAuthority: server.certificateAuthority }),
  );
  try {
    for (let run = 1; run <= 3; run++) {
      const t0 = performance.now();
      const conn = await LiveConnection.open(await loadKubeconfig({ file }));
      const cache = new MirrorCache();
      let listed = 0;
      const informers = new LiveInformers(conn, (f: LiveFeed) => {
        cache.apply(f);
        if (f.kind === 'list') listed = performance.now();
      });
      await informers.start();
      const tree = new ClusterTree(cache, () => cluster.clock.now());
      const roots = tree.roots();
      const rows = roots.flatMap((r) => tree.children(r));
      const nodesGroup = roots.find((r) => r.label === 'Nodes');
      const nodeRows = nodesGroup ? tree.children(nodesGroup).length : 0;
      const painted = performance.now();
      console.log(
        `first paint #${run}: ${fmt(painted - t0)} ms (list ${fmt(listed - t0)} ms, model ${fmt(painted - listed)} ms); ` +
          `${cache.list('nodes').length} nodes, ${cache.list('pods').length} pods, ${rows.length} second-level rows, ` +
          `${nodeRows} node rows (target ≤ 2000 ms)`,
      );
      if (run === 3) {
        const batches: number[] = [];
        const done = new Promise<number>((resolve) => {
          let seen = 0;
          const inner = informers as unknown as { onFeed: (f: LiveFeed) => void };
          const original = inner.onFeed;
          inner.onFeed = (f: LiveFeed) => {
            original(f);
            if (f.kind !== 'changes') return;
            batches.push(f.changes.length);
            seen += f.changes.length;
            if (seen >= 1000) resolve(performance.now());
          };
        });
        const t1 = performance.now();
        for (let i = 0; i < 1000; i++) {
          const p = cluster.api.get('pods', `team-${i % 10}`, `load-${i}`);
          cluster.api.update({ ...p, metadata: { ...p.metadata, labels: { app: 'load', touched: 'yes' } } });
        }
        const made = performance.now();
        const end = await done;
        console.log(
          `updates: 1,000 pod changes arrived in ${batches.length} batch(es) of ${batches.join(', ')} ${fmt(end - t1)} ms after the first change (${fmt(made - t1)} ms of it making them in-process; ≤ 10 batches a second)`,
        );
      }
      informers.stop();
      conn.close();
    }
    const t2 = performance.now();
    const conn = await LiveConnection.open(await loadKubeconfig({ file }));
    const snap = await takeLiveSnapshot(conn, { time: cluster.clock.now() });
    conn.close();
    console.log(
      `snapshot for plan --kubeconfig: ${fmt(performance.now() - t2)} ms, ${snap.snapshot.objects.length} objects, ${snap.nodes.length} nodes`,
    );
  } finally {
    await server.close();
    cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
