/**
 * PodGC's orphan sweep (sandbox/controllers/podgc, upstream pkg/controller/podgc `gcOrphaned`): pods bound to a
 * deleted node are marked Failed (DisruptionTarget, DeletionByPodGC) and force-deleted after the 40 s quarantine;
 * pods of a node that exists, or comes back within the quarantine, stay.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed, WatchEvent } from '../../../../sandbox/api/types';
import { Cluster } from '../../../../sandbox/cluster/cluster';
import { PODGC_MESSAGE, PODGC_REASON, QUARANTINE_MS } from '../../../../sandbox/controllers/podgc/podGcController';

function clusterWithPod(): Cluster {
  const c = new Cluster({ seed: 1, nodes: 2 });
  c.start();
  c.apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
  });
  c.runUntilSettled();
  assert.equal(c.api.get('pods', 'default', 'p').status?.phase, 'Running');
  return c;
}

describe('PodGC: pods of a deleted node', () => {
  test('are marked Failed with DeletionByPodGC and force-deleted after the quarantine', () => {
    const c = clusterWithPod();
    const seen: WatchEvent<Typed<Pod>>[] = [];
    c.api.watch('pods', { resourceVersion: c.api.resourceVersion }, (e) => seen.push(e as WatchEvent<Typed<Pod>>));
    c.failNode('node-1');
    c.api.delete('nodes', undefined, 'node-1');
    c.runFor(QUARANTINE_MS - 5_000);
    assert.ok(c.api.tryGet('pods', 'default', 'p'), 'deleted before the quarantine ended');
    c.runFor(10_000);
    assert.equal(c.api.tryGet('pods', 'default', 'p'), undefined);
    const failed = seen.find((e) => e.type === 'MODIFIED' && e.object.status?.phase === 'Failed');
    assert.ok(failed, 'the pod was not marked Failed before its delete');
    const condition = failed.object.status?.conditions?.find((x) => x.type === 'DisruptionTarget');
    assert.deepEqual([condition?.reason, condition?.message], [PODGC_REASON, PODGC_MESSAGE]);
    assert.equal(seen.at(-1)?.type, 'DELETED');
  });

  test('a node that exists keeps its pods, even with its kubelet down', () => {
    const c = clusterWithPod();
    c.failNode('node-1');
    c.runFor(2 * QUARANTINE_MS);
    assert.ok(c.api.tryGet('pods', 'default', 'p'));
  });

  test('a node registered again within the quarantine keeps its pods', () => {
    const c = clusterWithPod();
    c.failNode('node-1');
    c.api.delete('nodes', undefined, 'node-1');
    c.runFor(10_000);
    c.recoverNode('node-1');
    c.runFor(2 * QUARANTINE_MS);
    assert.ok(c.api.tryGet('nodes', undefined, 'node-1'), 'the kubelet did not register its node again');
    assert.ok(c.api.tryGet('pods', 'default', 'p'));
  });
});
