/**
 * ReplicationControllers served (core/v1, short name `rc`, `/status` and `/scale`) and reconciled by the ReplicaSet
 * code, as upstream's replication manager (pkg/controller/replication) runs it; `SetDefaults_ReplicationController`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplicationController } from 'kubernetes-types/core/v1';
import { Cluster } from '../../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../../sandbox/api/types';
import { parseTimestamp } from '../../../../sandbox/clock/clock';
import { formatTable, tableFor } from '../../../../sandbox/printers/index';

function rc(replicas?: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'nginx', namespace: 'default' },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
      },
    },
  };
}

function newCluster(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.start();
  c.runUntilSettled();
  return c;
}

const get = (c: Cluster) =>
  c.api.get('replicationcontrollers', 'default', 'nginx') as ReplicationController & KubeObject;
const livePods = (c: Cluster) =>
  c.api
    .list('pods', { namespace: 'default', labelSelector: 'app=nginx' })
    .items.filter((p) => !p.metadata.deletionTimestamp);

describe('ReplicationController', () => {
  test('defaults the selector, labels and replicas from the template, and keeps that many pods', () => {
    const c = newCluster();
    c.apply(rc());
    const stored = get(c);
    assert.deepEqual(stored.spec?.selector, { app: 'nginx' });
    assert.deepEqual(stored.metadata.labels, { app: 'nginx' });
    assert.equal(stored.spec?.replicas, 1);
    c.scale('replicationcontrollers', 'default', 'nginx', 3);
    const r = c.runUntilSettled();
    assert.deepEqual(r.pending, []);
    const pods = livePods(c);
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.match(p.metadata.name!, /^nginx-[a-z0-9]{5}$/);
      assert.deepEqual(
        p.metadata.ownerReferences?.map((o) => [o.apiVersion, o.kind, o.name, o.controller]),
        [['v1', 'ReplicationController', 'nginx', true]],
      );
    }
    const s = get(c).status!;
    assert.deepEqual([s.replicas, s.readyReplicas, s.availableReplicas, s.observedGeneration], [3, 3, 3, 2]);
    c.killPod('default', pods[0].metadata.name!);
    c.runUntilSettled();
    assert.equal(livePods(c).length, 3);
    c.scale('replicationcontrollers', 'default', 'nginx', 1);
    c.runUntilSettled();
    assert.equal(livePods(c).length, 1);
  });

  test('an RC that cannot create its pods is in the settled report', () => {
    const c = newCluster();
    const body = rc(2);
    (
      body.spec as { template: { spec: { containers: { resources?: object }[] } } }
    ).template.spec.containers[0].resources = { requests: { cpu: '100' } };
    c.apply(body);
    const r = c.runUntilSettled();
    assert.ok(
      r.pending.includes('replicationcontroller default/nginx: 0 of 2 replicas are available'),
      r.pending.join('\n'),
    );
  });

  test('kubectl get rc: NAME DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR', () => {
    const c = newCluster();
    c.apply(rc(2));
    c.runUntilSettled();
    const created = parseTimestamp(get(c).metadata.creationTimestamp!);
    const out = formatTable(tableFor('rc', [get(c)], created + 120_000, { wide: true }));
    assert.equal(
      out,
      'NAME    DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR\n' +
        'nginx   2         2         2       2m    nginx        nginx:1.27   app=nginx\n',
    );
  });

  test('its Scale carries the selector, as upstream scaleFromRC prints the label map', () => {
    const c = newCluster();
    c.apply(rc(2));
    c.runUntilSettled();
    const scale = c.api.getScale('replicationcontrollers', 'default', 'nginx');
    assert.deepEqual(scale.status, { replicas: 2, selector: 'app=nginx' });
    assert.deepEqual(scale.spec, { replicas: 2 });
  });
});
