/** The tree's fault actions on a cluster: Roll Back for every kind `kubectl rollout undo` knows. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../sandbox/api/types';
import { Operations } from '../../../client/src/worker/operations';
import { runAction } from '../../../client/src/worker/actions';

function workload(kind: 'Deployment' | 'StatefulSet' | 'DaemonSet', image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      ...(kind === 'DaemonSet' ? {} : { replicas: 2 }),
      ...(kind === 'StatefulSet' ? { serviceName: 'web' } : {}),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
    },
  } as KubeObject;
}

const RESOURCES = { Deployment: 'deployments', StatefulSet: 'statefulsets', DaemonSet: 'daemonsets' } as const;

function imageOf(c: Cluster, resource: string): string | undefined {
  const o = c.api.get(resource, 'default', 'web') as {
    spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
  };
  return o.spec?.template?.spec?.containers?.[0]?.image;
}

describe('runAction rollBack', () => {
  for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet'] as const) {
    test(`rolls a ${kind} back to its previous revision, and its pods follow`, () => {
      const resource = RESOURCES[kind];
      const c = new Cluster({ seed: 1 });
      c.start();
      c.apply(workload(kind, 'nginx:1.26'));
      c.runUntilSettled();
      c.apply(workload(kind, 'nginx:1.27'));
      c.runUntilSettled();
      assert.equal(imageOf(c, resource), 'nginx:1.27');
      const ops = new Operations(() => undefined);
      const { message } = runAction(c, { type: 'rollBack', resource, namespace: 'default', name: 'web' }, ops);
      assert.match(message, /^(deployment|statefulset|daemonset)\.apps\/web rolled back$/);
      assert.equal(imageOf(c, resource), 'nginx:1.26');
      c.runUntilSettled();
      const pods = c.api.list('pods', { namespace: 'default' }).items as {
        spec?: { containers?: { image?: string }[] };
      }[];
      assert.ok(pods.length > 0);
      assert.deepEqual([...new Set(pods.map((p) => p.spec?.containers?.[0]?.image))], ['nginx:1.26']);
    });
  }

  test('a kind kubectl cannot roll back is refused with its message', () => {
    const c = new Cluster({ seed: 1 });
    c.start();
    c.apply({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    } as KubeObject);
    assert.throws(
      () =>
        runAction(
          c,
          { type: 'rollBack', resource: 'replicasets', namespace: 'default', name: 'web' },
          new Operations(() => undefined),
        ),
      /no rollbacker has been implemented for "ReplicaSet.apps"/,
    );
  });
});

describe('runAction setLoad', () => {
  function autoscaled(kind: 'Deployment' | 'ReplicationController'): Cluster {
    const c = new Cluster({ seed: 1 });
    c.start();
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    };
    c.apply({
      apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1',
      kind,
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: kind === 'Deployment' ? { matchLabels: { app: 'web' } } : { app: 'web' },
        template,
      },
    } as KubeObject);
    c.apply({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1', kind, name: 'web' },
        minReplicas: 1,
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
        ],
      },
    } as KubeObject);
    c.runUntilSettled();
    return c;
  }
  const replicas = (c: Cluster, resource: string) =>
    (c.api.get(resource, 'default', 'web') as { spec?: { replicas?: number } }).spec?.replicas;

  for (const [kind, resource] of [
    ['Deployment', 'deployments'],
    ['ReplicationController', 'replicationcontrollers'],
  ] as const) {
    test(`puts load on a ${kind}'s pods by its selector, as load=app=web:cpu=… does, and the HPA scales it`, () => {
      const c = autoscaled(kind);
      assert.equal(replicas(c, resource), 1);
      const { message } = runAction(
        c,
        { type: 'setLoad', resource, namespace: 'default', name: 'web', cpu: '400m' },
        new Operations(() => undefined),
      );
      assert.equal(message, 'load on pods default/app=web set to cpu=400m');
      // The HPA reads the load through the metrics. (An RC's /scale has no selector in the sandbox yet, so its HPA
      // answers InvalidSelector: the Deployment shows the scale-up.)
      if (kind !== 'Deployment') return;
      c.runUntilSettled();
      // 400m + idle over one 100m request is above 400% of a 50% target: ceil(402 / 50) = 9 replicas.
      assert.equal(replicas(c, resource), 9);
    });
  }

  test('a CPU that is not a quantity is refused with a clear message, and no load is set', () => {
    const c = autoscaled('Deployment');
    assert.throws(
      () =>
        runAction(
          c,
          { type: 'setLoad', resource: 'deployments', namespace: 'default', name: 'web', cpu: 'lots' },
          new Operations(() => undefined),
        ),
      /^Error: Set Load: invalid quantity "lots" for cpu/,
    );
    c.runUntilSettled();
    assert.equal(replicas(c, 'deployments'), 1);
  });
});
