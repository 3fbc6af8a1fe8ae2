/**
 * `kubectl rollout history` and `rollout undo` of StatefulSets and DaemonSets through their ControllerRevisions
 * (kubectl pkg/polymorphichelpers/history.go `printHistory`, rollback.go `StatefulSetRollbacker`,
 * `DaemonSetRollbacker`, `findHistory`), on a whole cluster.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../sandbox/api/types';
import { rolloutUndo } from '../../../sandbox/operations/rollout';
import { rolloutHistory } from '../../../sandbox/operations/rolloutHistory';
import { rolloutStatus } from '../../../sandbox/operations/rolloutStatus';

function workload(kind: 'StatefulSet' | 'DaemonSet', name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace: 'default', annotations: { 'kubernetes.io/change-cause': 'first' } },
    spec: {
      ...(kind === 'StatefulSet' ? { replicas: 2, serviceName: name } : {}),
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    },
  };
}

function cluster(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.start();
  c.apply(workload('StatefulSet', 'web'));
  c.apply(workload('DaemonSet', 'agent'));
  c.runUntilSettled();
  return c;
}

function setImage(c: Cluster, resource: string, name: string, image: string, cause?: string): void {
  c.api.patch(resource, 'default', name, 'merge', {
    ...(cause ? { metadata: { annotations: { 'kubernetes.io/change-cause': cause } } } : {}),
    spec: { template: { spec: { containers: [{ name: 'c', image }] } } },
  });
  c.runUntilSettled();
}

const images = (c: Cluster, app: string) =>
  c.api
    .list('pods', { namespace: 'default', labelSelector: `app=${app}` })
    .items.map((p) => (p.spec as { containers: { image: string }[] }).containers[0].image);

describe('rollout history and undo: StatefulSet and DaemonSet', () => {
  for (const [resource, name, ref] of [
    ['statefulsets', 'web', 'statefulset.apps/web'],
    ['daemonsets', 'agent', 'daemonset.apps/agent'],
  ] as const) {
    test(`${resource}: history lists the revisions with their change-cause; undo rolls back to the previous one`, () => {
      const c = cluster();
      assert.throws(() => rolloutUndo(c.api, resource, 'default', name), {
        message: 'no last revision to roll back to',
      });
      setImage(c, resource, name, 'nginx:1.28', 'bump to 1.28');
      assert.equal(
        rolloutHistory(c.api, resource, 'default', name),
        `${ref} \nREVISION  CHANGE-CAUSE\n1         first\n2         bump to 1.28\n`,
      );
      assert.ok(images(c, name).every((i) => i === 'nginx:1.28'));
      assert.equal(rolloutUndo(c.api, resource, 'default', name).message, `${ref} rolled back`);
      c.runUntilSettled();
      assert.ok(images(c, name).every((i) => i === 'nginx:1.27'));
      assert.equal(rolloutStatus(c.api, resource, 'default', name).done, true);
      // The old revision is renumbered past the newest (a rollback), as the controllers' history does.
      assert.match(rolloutHistory(c.api, resource, 'default', name), /\n2 {9}bump to 1\.28\n3 {9}first\n$/);
      assert.equal(
        rolloutUndo(c.api, resource, 'default', name, 3).message,
        `${ref} skipped rollback (current template already matches revision 3)`,
      );
      assert.throws(() => rolloutUndo(c.api, resource, 'default', name, 7), {
        message: 'unable to find specified revision 7 in history',
      });
      assert.throws(() => rolloutHistory(c.api, resource, 'default', name, 7), {
        message: 'unable to find the specified revision',
      });
    });
  }

  test('rollout status of the StatefulSet after the rollout', () => {
    const c = cluster();
    assert.deepEqual(rolloutStatus(c.api, 'statefulsets', 'default', 'web'), {
      message: 'partitioned roll out complete: 2 new pods have been updated...',
      done: true,
    });
    assert.deepEqual(rolloutStatus(c.api, 'daemonsets', 'default', 'agent'), {
      message: 'daemon set "agent" successfully rolled out',
      done: true,
    });
  });
});
