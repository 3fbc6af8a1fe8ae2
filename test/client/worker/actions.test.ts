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
