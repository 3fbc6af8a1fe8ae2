// The scheduler plugins in a whole cluster (controllers, kubelets): a Deployment's replicas spread over zones
// (PodTopologySpread, upstream podtopologyspread/filtering.go) and kept one per node by required anti-affinity
// (interpodaffinity/filtering.go); the zone labels come from the cluster's `zones` option.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster, ZONE_LABEL } from '../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../sandbox/api/types';

function deployment(name: string, replicas: number, podSpec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...podSpec },
      },
    },
  };
}

function started(options: ConstructorParameters<typeof Cluster>[0]): Cluster {
  const c = new Cluster(options);
  c.start();
  c.runUntilSettled();
  return c;
}

describe('scheduler plugins in a cluster', () => {
  test('zones: nodes are labelled round-robin; none by default, as kind', () => {
    const c = started({ nodes: 4, zones: 3 });
    const zones = c.api.list('nodes').items.map((n) => n.metadata.labels?.[ZONE_LABEL]);
    assert.deepEqual(zones, ['zone-a', 'zone-b', 'zone-c', 'zone-a']);
    const plain = started({ nodes: 1 });
    assert.equal(plain.api.list('nodes').items[0].metadata.labels?.[ZONE_LABEL], undefined);
    assert.throws(() => new Cluster({ zones: 1.5 }), /zone count must be an integer/);
  });

  test('a Deployment spread over zones with maxSkew 1 puts 2 replicas in each of 3 zones', () => {
    const c = started({ nodes: 6, zones: 3, seed: 7 });
    c.apply(
      deployment('web', 6, {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: ZONE_LABEL,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 'web' } },
          },
        ],
      }),
    );
    c.runUntilSettled();
    const zoneOf = new Map(c.api.list('nodes').items.map((n) => [n.metadata.name, n.metadata.labels?.[ZONE_LABEL]]));
    const perZone = new Map<string, number>();
    for (const p of c.api.list('pods', { namespace: 'default' }).items) {
      const z = zoneOf.get(p.spec?.nodeName)!;
      perZone.set(z, (perZone.get(z) ?? 0) + 1);
    }
    assert.deepEqual([...perZone.entries()].sort(), [
      ['zone-a', 2],
      ['zone-b', 2],
      ['zone-c', 2],
    ]);
  });

  test('5 replicas with required anti-affinity on 3 nodes: 3 run, 2 stay Pending and the run says why', () => {
    const c = started({ nodes: 3 });
    c.apply(
      deployment('zk', 5, {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'zk' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      }),
    );
    const r = c.runUntilSettled();
    const pods = c.api.list('pods', { namespace: 'default' }).items;
    assert.equal(pods.filter((p) => p.spec?.nodeName).length, 3);
    assert.equal(new Set(pods.map((p) => p.spec?.nodeName).filter(Boolean)).size, 3);
    const pending = pods.filter((p) => !p.spec?.nodeName);
    assert.equal(pending.length, 2);
    for (const p of pending)
      assert.equal(
        p.status?.conditions?.find((x) => x.type === 'PodScheduled')?.message,
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
      );
    assert.ok(
      r.pending.some((line) => line.includes('zk')),
      r.pending.join('\n'),
    );
  });
});
