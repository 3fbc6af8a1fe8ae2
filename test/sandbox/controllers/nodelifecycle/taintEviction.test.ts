import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { NodeLifecycleController } from '../../../../sandbox/controllers/nodelifecycle/nodeLifecycleController';
import { TaintEvictionController } from '../../../../sandbox/controllers/nodelifecycle/taintEvictionController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { Heartbeats, addNode, addPod, events } from './fixtures';

const S = 1000;
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const NOT_READY = 'node.kubernetes.io/not-ready';

function setup(): { h: Harness; start: number } {
  const h = newHarness('eviction');
  addNode(h, 'node-1');
  addNode(h, 'node-2');
  new TaintEvictionController(h.ctx).start();
  return { h, start: h.clock.now() };
}

function taint(h: Harness, node: string, taints: { key: string; effect: string }[]): void {
  const n = h.api.get('nodes', undefined, node);
  h.api.update({
    ...n,
    spec: { ...(n.spec as object), taints: taints.map((t) => ({ ...t, timeAdded: formatTimestamp(h.clock.now()) })) },
  });
}

const deleting = (h: Harness, name: string) => h.api.tryGet('pods', 'default', name)?.metadata.deletionTimestamp;

describe('TaintEvictionController', () => {
  test('a pod that does not tolerate a NoExecute taint is marked a disruption target and deleted at once', () => {
    const { h, start } = setup();
    addPod(h, 'a', 'node-1');
    h.record(['pods']);
    taint(h, 'node-1', [{ key: 'maintenance', effect: 'NoExecute' }]);
    h.advance(0);
    assert.deepEqual(h.actions(), ['MODIFIED pods default/a', 'MODIFIED pods default/a']);
    const pod = h.api.get('pods', 'default', 'a');
    assert.deepEqual((pod.status as { conditions: unknown[] }).conditions, [
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: formatTimestamp(start) },
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
        lastTransitionTime: formatTimestamp(start),
      },
    ]);
    assert.equal(pod.metadata.deletionTimestamp, formatTimestamp(start + 30 * S)); // default grace period: Terminating
    assert.deepEqual(events(h), [
      {
        type: 'Normal',
        reason: 'TaintManagerEviction',
        object: 'pod/a',
        message: 'Marking for deletion Pod default/a',
      },
    ]);
  });

  test('default tolerations (300 s) delete the pod exactly 300 s after the taint; tolerating forever never; other nodes untouched', () => {
    const { h, start } = setup();
    addPod(h, 'default-tol', 'node-1');
    addPod(h, 'forever', 'node-1', { tolerations: [{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute' }] });
    addPod(h, 'short', 'node-1', {
      tolerations: [{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
    });
    addPod(h, 'elsewhere', 'node-2');
    h.advance(10 * S);
    taint(h, 'node-1', [{ key: UNREACHABLE, effect: 'NoExecute' }]);
    h.advance(30 * S - 1);
    assert.equal(deleting(h, 'short'), undefined);
    h.advance(1);
    assert.ok(deleting(h, 'short'));
    h.advance(270 * S - 1);
    assert.equal(deleting(h, 'default-tol'), undefined);
    h.advance(1);
    assert.equal(deleting(h, 'default-tol'), formatTimestamp(start + 340 * S));
    assert.deepEqual(
      events(h).map((e) => e.message),
      ['Marking for deletion Pod default/short', 'Marking for deletion Pod default/default-tol'],
    );
    h.advance(3600 * S);
    assert.equal(deleting(h, 'forever'), undefined);
    assert.equal(deleting(h, 'elsewhere'), undefined);
    // An hour on, those Events have expired (kube-apiserver's --event-ttl) and no other eviction was recorded.
    assert.deepEqual(events(h), []);
  });

  test('the eviction is cancelled when the taint goes, and when the pod goes', () => {
    const { h } = setup();
    addPod(h, 'a', 'node-1');
    addPod(h, 'b', 'node-1');
    taint(h, 'node-1', [{ key: UNREACHABLE, effect: 'NoExecute' }]);
    h.advance(100 * S);
    h.api.delete('pods', 'default', 'b', { gracePeriodSeconds: 0 });
    h.advance(0);
    taint(h, 'node-1', []);
    h.advance(600 * S);
    assert.equal(deleting(h, 'a'), undefined);
    assert.deepEqual(
      events(h).map((e) => e.message),
      ['Cancelling deletion of Pod default/b', 'Cancelling deletion of Pod default/a'],
    );
    assert.equal(h.clock.pendingForegroundTimers, 0);
  });

  test('a taint swapping from unreachable to not-ready keeps the original deadline', () => {
    const { h, start } = setup();
    addPod(h, 'a', 'node-1');
    taint(h, 'node-1', [{ key: UNREACHABLE, effect: 'NoExecute' }]);
    h.advance(100 * S);
    taint(h, 'node-1', [{ key: NOT_READY, effect: 'NoExecute' }]);
    h.advance(200 * S - 1);
    assert.equal(deleting(h, 'a'), undefined);
    h.advance(1);
    assert.equal(deleting(h, 'a'), formatTimestamp(start + 330 * S));
  });

  test("with the node lifecycle controller: a failed node's pods are deleted 300 s after it goes Unknown, reached through foreground timers alone", () => {
    const h = newHarness('e2e');
    addNode(h, 'node-1');
    addNode(h, 'node-2');
    const beats = new Heartbeats(h, ['node-1', 'node-2']);
    const start = h.clock.now();
    new NodeLifecycleController(h.ctx).start();
    new TaintEvictionController(h.ctx).start();
    addPod(h, 'web-1', 'node-1');
    addPod(h, 'db-0', 'node-1', { tolerations: [{ operator: 'Exists' }] });
    h.advance(25 * S); // heartbeats at +10, +20
    beats.stop('node-1');
    h.advance(25 * S); // +50: the monitor has seen the heartbeat (+20) late
    let next: number | undefined;
    while ((next = h.clock.nextForegroundTimerAt()) !== undefined) h.clock.advanceTo(next);
    // Unknown at +70, evicted at +370, then nothing left to do.
    assert.equal(h.clock.now(), start + 370 * S);
    assert.equal(deleting(h, 'web-1'), formatTimestamp(start + 400 * S));
    assert.equal(deleting(h, 'db-0'), undefined);
    assert.deepEqual(
      events(h).map((e) => `${e.reason} ${e.object}`),
      [
        'RegisteredNode node/node-1',
        'RegisteredNode node/node-2',
        'NodeNotReady node/node-1',
        'NodeNotReady pod/db-0',
        'NodeNotReady pod/web-1',
        'TaintManagerEviction pod/web-1',
      ],
    );
  });
});
