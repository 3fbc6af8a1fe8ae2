/**
 * live/informers.ts against the sandbox's API as the stand-in real cluster: list + watch feeds the host's mirror
 * cache and the Cluster tree exactly as the sandbox worker does; a `kubectl scale` (a PATCH of the scale subresource
 * by another client) shows as drift against the workspace manifest; the feed sends no write; a server that goes away
 * is retried with back-off and resynced when it is back.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../sandbox/api/types';
import { renderKubeconfig } from '../../sandbox/http/kubeconfig';
import { startKubeHttpServer } from '../../sandbox/http/server';
import { MirrorCache } from '../../client/src/sandbox/mirror';
import { DesiredIndex } from '../../client/src/sandbox/desiredIndex';
import { SyncStatuses } from '../../client/src/model/syncStatuses';
import { ClusterTree } from '../../client/src/model/clusterTree';
import { LiveConnection } from '../../live/connection';
import { loadKubeconfig } from '../../live/kubeconfig';
import { LiveInformers, backoffMs, jitteredBackoffMs } from '../../live/informers';
import { SeededRandom } from '../../sandbox/clock/random';
import type { FeedTimers, LiveFeed, LiveFeedStatus } from '../../live/informers';
import { SERVED_TOKEN, serveCluster, WEB } from './served';
import type { ServedCluster } from './served';

/** Batches flush on the next turn of the event loop; back-off waits are recorded and run only when the test says. */
class Timers implements FeedTimers {
  readonly waits: { ms: number; fn: () => void }[] = [];
  setTimeout(fn: () => void, ms: number): unknown {
    if (ms === 100) return setImmediate(fn);
    const w = { ms, fn };
    this.waits.push(w);
    return w;
  }
  clearTimeout(handle: unknown): void {
    if (typeof handle === 'object' && handle !== null && 'ms' in handle) {
      const i = this.waits.indexOf(handle as { ms: number; fn: () => void });
      if (i >= 0) this.waits.splice(i, 1);
    } else clearImmediate(handle as NodeJS.Immediate);
  }
  /** Runs the back-off waits set so far. */
  runWaits(): number[] {
    const due = this.waits.splice(0);
    for (const w of due) w.fn();
    return due.map((w) => w.ms);
  }
}

/** Resolves when `predicate` holds after a feed or status arrives. */
function until(subscribe: (fn: () => void) => void, predicate: () => boolean): Promise<void> {
  return new Promise((done) => {
    if (predicate()) return done();
    subscribe(() => {
      if (predicate()) done();
    });
  });
}

describe('live informers feed the same views as the sandbox', () => {
  let served: ServedCluster;
  before(async () => {
    served = await serveCluster();
    served.cluster.apply(parseYaml(WEB) as KubeObject);
    served.cluster.runUntilSettled();
  });
  after(() => served.close());

  test('list + watch fill the mirror cache and the Cluster tree; kubectl scale shows as OutOfSync; no write is sent', async () => {
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }));
    const writer = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }), { writes: true });
    const cache = new MirrorCache();
    const listeners: (() => void)[] = [];
    const timers = new Timers();
    const writesBefore = served.writes().length;
    const informers = new LiveInformers(
      conn,
      (feed: LiveFeed) => {
        cache.apply(feed);
        for (const l of listeners) l();
      },
      undefined,
      { timers },
    );
    try {
      await informers.start();
      assert.deepEqual(
        cache.list('nodes').map((n) => n.metadata.name),
        ['node-1', 'node-2'],
      );
      assert.equal(cache.list('pods', 'default').length, 2);
      assert.equal(cache.get('deployments', 'default', 'web')?.kind, 'Deployment');
      const tree = new ClusterTree(cache, () => served.cluster.clock.now());
      assert.ok(tree.hasUserObjects());
      assert.deepEqual(
        tree.roots().map((r) => r.label),
        ['Nodes', 'Namespaces'],
      );

      const desired = new DesiredIndex();
      desired.replace([
        {
          resource: 'deployments',
          namespace: 'default',
          name: 'web',
          source: 'app/web.yaml',
          line: 0,
          manifest: parseYaml(WEB) as KubeObject,
          shadowed: [],
        },
      ]);
      const sync = new SyncStatuses(desired);
      assert.equal(sync.of('deployments', cache.get('deployments', 'default', 'web')!)?.status, 'Synced');

      // kubectl scale deployment web --replicas=5: a merge patch of the scale subresource
      await writer.request('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', {
        body: { spec: { replicas: 5 } },
        contentType: 'application/merge-patch+json',
      });
      await until(
        (fn) => listeners.push(fn),
        () => (cache.get('deployments', 'default', 'web')?.spec as { replicas?: number }).replicas === 5,
      );
      const status = sync.of('deployments', cache.get('deployments', 'default', 'web')!);
      assert.equal(status?.status, 'OutOfSync');
      assert.equal(status?.message, 'OutOfSync: spec.replicas differs from app/web.yaml:1');
      tree.invalidate();
      assert.deepEqual(
        served
          .writes()
          .slice(writesBefore)
          .map((l) => l.split(' ').slice(0, 2).join(' ')),
        ['PATCH /apis/apps/v1/namespaces/default/deployments/web/scale'],
        'the only write is the test’s own kubectl scale',
      );
    } finally {
      informers.stop();
      conn.close();
      writer.close();
    }
  });

  test('only the chosen namespaces are watched (large clusters); nodes and namespaces stay cluster-wide', async () => {
    served.cluster.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    served.cluster.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'team-a' } });
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }));
    const cache = new MirrorCache();
    const requests = served.requests.length;
    const informers = new LiveInformers(conn, (f) => cache.apply(f), undefined, {
      namespaces: ['team-a'],
      timers: new Timers(),
    });
    try {
      await informers.start();
      assert.deepEqual(
        cache.list('configmaps').map((c) => `${c.metadata.namespace}/${c.metadata.name}`),
        ['team-a/a'],
      );
      assert.equal(cache.list('pods').length, 0);
      assert.equal(cache.list('nodes').length, 2);
      const paths = served.requests.slice(requests).map((l) => l.split(' ')[1].split('?')[0]);
      assert.ok(paths.includes('/api/v1/namespaces/team-a/pods'));
      assert.ok(!paths.includes('/api/v1/pods'));
    } finally {
      informers.stop();
      conn.close();
    }
  });
});

describe('reconnecting', () => {
  test('back-off jitter as client-go’s reflector: the capped wait d, then d + rand·d (factor 1.0), seeded', () => {
    assert.deepEqual(
      [0, 1, 5, 10].map((a) => jitteredBackoffMs(a, () => 0)),
      [800, 1600, 25_600, 30_000],
    );
    assert.deepEqual(
      [0, 1, 5, 10].map((a) => jitteredBackoffMs(a, () => 0.5)),
      [1200, 2400, 38_400, 45_000],
    );
    const waits = (seed: string) => {
      const r = new SeededRandom(seed);
      return [0, 1, 2, 3, 4, 5, 6, 7].map((a) => jitteredBackoffMs(a, () => r.next()));
    };
    const a = waits('a');
    assert.deepEqual(waits('a'), a, 'the same seed, the same waits');
    assert.notDeepEqual(waits('b'), a, 'another seed spreads the reconnects');
    a.forEach((w, i) => {
      const d = backoffMs(i);
      assert.ok(w >= d && w < 2 * d, `attempt ${i}: ${w} in [${d}, ${2 * d})`);
    });
  });

  test('a server that goes away: reconnecting with back-off and kubectl’s message; back: relisted, changes sent', async () => {
    assert.deepEqual([0, 1, 2, 5, 6, 10].map(backoffMs), [800, 1600, 3200, 25_600, 30_000, 30_000]);
    // plain http, so the server can come back on the same port with the same address
    const served = await serveCluster();
    const first = await startKubeHttpServer({ cluster: served.cluster, token: SERVED_TOKEN, port: 0, tls: false });
    const port = first.port;
    const file = join(served.dir, 'http.yaml');
    // client-node sends credentials over http only with insecure-skip-tls-verify set
    await writeFile(
      file,
      renderKubeconfig({ server: first.url, token: SERVED_TOKEN }).replace(
        `    server: "${first.url}"`,
        `    server: "${first.url}"\n    insecure-skip-tls-verify: true`,
      ),
    );
    const conn = await LiveConnection.open(await loadKubeconfig({ file }));
    const cache = new MirrorCache();
    const statuses: LiveFeedStatus[] = [];
    const listeners: (() => void)[] = [];
    const notify = (): void => listeners.forEach((l) => l());
    const timers = new Timers();
    const informers = new LiveInformers(
      conn,
      (f) => {
        cache.apply(f);
        notify();
      },
      (s) => {
        statuses.push(s);
        notify();
      },
      {
        timers,
        random: () => 0.25,
        resources: [
          { resource: 'configmaps', groupVersion: '/api/v1', namespaced: true, apiVersion: 'v1', kind: 'ConfigMap' },
        ],
      },
    );
    let second: Awaited<ReturnType<typeof startKubeHttpServer>> | undefined;
    try {
      await informers.start();
      assert.equal(informers.current.state, 'synced');
      await first.close();
      await until(
        (fn) => listeners.push(fn),
        () => informers.current.state === 'reconnecting',
      );
      assert.equal(
        informers.current.message,
        `The connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port? (context "kube-reconcile")`,
      );
      assert.equal(informers.current.retryInMs, 1000, '800 ms with a quarter of jitter');
      // while it was away: a ConfigMap appeared
      served.cluster.api.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'later', namespace: 'default' },
      });
      second = await startKubeHttpServer({ cluster: served.cluster, token: SERVED_TOKEN, port, tls: false });
      assert.deepEqual(timers.runWaits(), [1000]);
      await until(
        (fn) => listeners.push(fn),
        () => cache.get('configmaps', 'default', 'later') !== undefined && informers.current.state === 'synced',
      );
      assert.deepEqual(
        statuses.map((s) => s.state),
        ['connecting', 'synced', 'reconnecting', 'synced'],
      );
    } finally {
      informers.stop();
      conn.close();
      await second?.close();
      await served.close();
    }
  });
});
