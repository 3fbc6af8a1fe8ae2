import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DrainError, cordon, drain, uncordon } from '../../../../sandbox/controllers/nodelifecycle/drain';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { addNode, addPod } from './fixtures';

const owner = (kind: string, name: string) => [
  { apiVersion: 'apps/v1', kind, name, uid: `uid-${name}`, controller: true },
];

function setup(): Harness {
  const h = newHarness('drain');
  addNode(h, 'node-1');
  addNode(h, 'node-2');
  h.api.create({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent' }] } },
    },
  });
  addPod(h, 'web-1', 'node-1', { ownerReferences: owner('ReplicaSet', 'web') });
  addPod(h, 'agent-x', 'node-1', { ownerReferences: owner('DaemonSet', 'agent') });
  addPod(h, 'static', 'node-1', { annotations: { 'kubernetes.io/config.mirror': 'abc' } });
  addPod(h, 'web-2', 'node-2', { ownerReferences: owner('ReplicaSet', 'web') });
  return h;
}

const unschedulable = (h: Harness, n: string) =>
  (h.api.get('nodes', undefined, n).spec as { unschedulable?: boolean }).unschedulable;

describe('cordon, uncordon, drain', () => {
  test('cordon and uncordon toggle spec.unschedulable and are idempotent', () => {
    const h = setup();
    const rv = cordon(h.api, 'node-1').metadata.resourceVersion;
    assert.equal(unschedulable(h, 'node-1'), true);
    assert.equal(cordon(h.api, 'node-1').metadata.resourceVersion, rv);
    uncordon(h.api, 'node-1');
    assert.equal(unschedulable(h, 'node-1'), undefined);
    assert.throws(() => cordon(h.api, 'nope'), /nodes "nope" not found/);
  });

  test('drain deletes controlled pods, skips mirror and (ignored) DaemonSet pods, and leaves other nodes alone', () => {
    const h = setup();
    h.record(['pods']);
    const result = drain(h.api, 'node-1', { ignoreDaemonSets: true });
    assert.deepEqual(
      { evicted: result.evicted, warnings: result.warnings, unschedulable: unschedulable(h, 'node-1') },
      {
        evicted: ['default/web-1'],
        warnings: ['ignoring DaemonSet-managed Pods: default/agent-x'],
        unschedulable: true,
      },
    );
    assert.deepEqual(h.actions(), ['MODIFIED pods default/web-1']);
    assert.ok(h.api.get('pods', 'default', 'web-1').metadata.deletionTimestamp);
  });

  test('pods kubectl refuses stop the whole drain, with its messages; the node stays cordoned', () => {
    const h = setup();
    addPod(h, 'bare', 'node-1');
    addPod(h, 'cache', 'node-1', {
      ownerReferences: owner('ReplicaSet', 'cache'),
      volumes: [{ name: 'tmp', emptyDir: {} }],
    });
    h.record(['pods']);
    assert.throws(
      () => drain(h.api, 'node-1'),
      (e: unknown) => {
        assert.ok(e instanceof DrainError);
        assert.deepEqual(e.reasons, [
          'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/agent-x',
          'cannot delete Pods that declare no controller (use --force to override): default/bare',
          'cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache',
        ]);
        return true;
      },
    );
    assert.deepEqual(h.actions(), []);
    assert.equal(unschedulable(h, 'node-1'), true);
    const forced = drain(h.api, 'node-1', {
      ignoreDaemonSets: true,
      deleteEmptyDirData: true,
      force: true,
      gracePeriodSeconds: 0,
    });
    assert.deepEqual(forced.evicted, ['default/bare', 'default/cache', 'default/web-1']);
    assert.deepEqual(forced.warnings, [
      'ignoring DaemonSet-managed Pods: default/agent-x',
      'deleting Pods that declare no controller: default/bare',
      'deleting Pods with local storage: default/cache',
    ]);
    assert.deepEqual(h.actions(), [
      'DELETED pods default/bare',
      'DELETED pods default/cache',
      'DELETED pods default/web-1',
    ]);
  });
});
