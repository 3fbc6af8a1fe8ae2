import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { NodeLifecycleController } from '../../../../sandbox/controllers/nodelifecycle/nodeLifecycleController';
import { cordon, uncordon } from '../../../../sandbox/operations/cordon';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { Heartbeats, addNode, addPod, events, postReady, pressureConditions, readyCondition } from './fixtures';

const S = 1000;

function setup(nodes = ['node-1', 'node-2']): { h: Harness; beats: Heartbeats; start: number } {
  const h = newHarness('nodes');
  // Heartbeats at 3 s, 13 s, 23 s… so that the grace period never ends on a 5 s monitor tick.
  h.advance(3 * S);
  for (const n of nodes) addNode(h, n);
  const beats = new Heartbeats(h, nodes);
  const start = h.clock.now();
  new NodeLifecycleController(h.ctx).start();
  return { h, beats, start };
}

const node = (h: Harness, name: string) => h.api.get('nodes', undefined, name);
const podConditions = (h: Harness, name: string) => h.api.get('pods', 'default', name).status?.conditions;
const at = (start: number, seconds: number) => formatTimestamp(start + seconds * S);

function unknownConditions(start: number, silentAt: number): unknown[] {
  // Kubelet-posted conditions keep their heartbeat (registration) and get status Unknown at `silentAt`.
  return [...pressureConditions(start), readyCondition(start)].map((c) => ({
    ...c,
    status: 'Unknown',
    reason: 'NodeStatusUnknown',
    message: 'Kubelet stopped posting node status.',
    lastTransitionTime: at(start, silentAt),
  }));
}

describe('NodeLifecycleController', () => {
  test('a node whose kubelet stops goes Unknown exactly 50 s after its last heartbeat, gets the unreachable taints, and its pods go not ready', () => {
    const { h, beats, start } = setup();
    addPod(h, 'a', 'node-1');
    addPod(h, 'b', 'node-2');
    h.advance(32 * S); // heartbeats at +10, +20, +30
    beats.stop('node-1');
    h.advance(47 * S); // +79: 49 s after the last heartbeat (+30)
    assert.deepEqual(node(h, 'node-1').status?.conditions, [...pressureConditions(start), readyCondition(start)]);
    assert.equal(node(h, 'node-1').spec?.taints, undefined);
    h.advance(1 * S - 1);
    assert.equal(node(h, 'node-1').status?.conditions?.[3].status, 'True');
    h.advance(1); // +80: exactly 50 s after the last heartbeat
    assert.deepEqual(node(h, 'node-1').status?.conditions, unknownConditions(start, 80));
    assert.deepEqual(node(h, 'node-1').spec?.taints, [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at(start, 80) },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(start, 80) },
    ]);
    assert.deepEqual(podConditions(h, 'a'), [
      { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: at(start, 80) },
    ]);
    assert.deepEqual(podConditions(h, 'b'), [
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: at(start, 0) },
    ]);
    assert.equal(node(h, 'node-2').spec?.taints, undefined);
    assert.deepEqual(events(h), [
      {
        type: 'Normal',
        reason: 'RegisteredNode',
        object: 'node/node-1',
        message: 'Node node-1 event: Registered Node node-1 in Controller',
      },
      {
        type: 'Normal',
        reason: 'RegisteredNode',
        object: 'node/node-2',
        message: 'Node node-2 event: Registered Node node-2 in Controller',
      },
      {
        type: 'Normal',
        reason: 'NodeNotReady',
        object: 'node/node-1',
        message: 'Node node-1 status is now: NodeNotReady',
      },
      { type: 'Warning', reason: 'NodeNotReady', object: 'pod/a', message: 'Node is not ready' },
    ]);
  });

  test('a node that recovers loses its taints; a kubelet reporting NotReady swaps unreachable for not-ready', () => {
    const { h, beats, start } = setup();
    h.advance(32 * S);
    beats.stop('node-1');
    h.advance(50 * S);
    assert.equal(node(h, 'node-1').spec?.taints?.length, 2);
    // The kubelet comes back but reports the runtime down: Ready=False.
    beats.resume('node-1');
    postReady(h, 'node-1', 'False');
    h.advance(0);
    assert.deepEqual(node(h, 'node-1').spec?.taints, [
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: at(start, 82) },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: at(start, 82) },
    ]);
    h.advance(5 * S);
    postReady(h, 'node-1', 'True');
    h.advance(0);
    assert.equal(node(h, 'node-1').spec?.taints, undefined);
    // Heartbeating again, it stays Ready through many monitor passes.
    h.advance(120 * S);
    assert.equal(node(h, 'node-1').status?.conditions?.[3].status, 'True');
  });

  test('heartbeats never hold the simulation: no foreground timer until a heartbeat is late; then one, for the end of the grace period', () => {
    const { h, beats, start } = setup();
    h.advance(32 * S);
    assert.equal(h.clock.pendingForegroundTimers, 0);
    beats.stop('node-1');
    h.advance(15 * S); // +47: the heartbeat (+30) is 17 s old, not yet late
    assert.equal(h.clock.pendingForegroundTimers, 0);
    h.advance(5 * S); // +52: 22 s old — late
    assert.equal(h.clock.nextForegroundTimerAt(), start + 80 * S);
    // A renewal cancels the wait.
    beats.resume('node-1');
    h.advance(10 * S);
    assert.equal(h.clock.pendingForegroundTimers, 0);
  });

  test('advancing only through foreground timers reaches the Unknown conditions', () => {
    const { h, beats, start } = setup();
    h.advance(32 * S);
    beats.stop('node-1');
    h.advance(25 * S); // long enough for one monitor pass to see the heartbeat late
    let next: number | undefined;
    while ((next = h.clock.nextForegroundTimerAt()) !== undefined) h.clock.advanceTo(next);
    assert.equal(h.clock.now(), start + 80 * S);
    assert.deepEqual(node(h, 'node-1').status?.conditions, unknownConditions(start, 80));
  });

  test('a node that never posted status gets NodeStatusNeverUpdated after the startup grace period (60 s from creation)', () => {
    const h = newHarness('never');
    h.api.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'ghost' }, spec: {} });
    // A healthy node too: with every node down the controller would not add NoExecute taints (full disruption).
    addNode(h, 'node-1');
    new Heartbeats(h, ['node-1']);
    const start = h.clock.now();
    new NodeLifecycleController(h.ctx).start();
    h.advance(55 * S);
    assert.equal(h.api.get('nodes', undefined, 'ghost').status, undefined);
    h.advance(5 * S);
    const created = at(start, 0);
    const never = (type: string) => ({
      type,
      status: 'Unknown',
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
      lastHeartbeatTime: created,
      lastTransitionTime: at(start, 60),
    });
    assert.deepEqual(node(h, 'ghost').status?.conditions, [
      never('Ready'),
      never('MemoryPressure'),
      never('DiskPressure'),
      never('PIDPressure'),
    ]);
    assert.deepEqual(node(h, 'ghost').spec?.taints, [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at(start, 60) },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(start, 60) },
    ]);
    // Never Ready, so no NodeNotReady transition event.
    assert.deepEqual(
      events(h).map((e) => `${e.reason} ${e.object}`),
      ['RegisteredNode node/ghost', 'RegisteredNode node/node-1'],
    );
  });

  test('cordon adds the unschedulable taint, uncordon removes it; other taints are left alone', () => {
    const { h, start } = setup(['node-1']);
    const n = h.api.get('nodes', undefined, 'node-1');
    h.api.update({ ...n, spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } });
    cordon(h.api, 'node-1');
    h.advance(0);
    assert.deepEqual(node(h, 'node-1').spec, {
      unschedulable: true,
      taints: [
        { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(start, 0) },
      ],
    });
    uncordon(h.api, 'node-1');
    h.advance(0);
    assert.deepEqual(node(h, 'node-1').spec, { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
  });

  test('a pod bound to a node that is not ready is marked not ready at once', () => {
    const { h, beats, start } = setup();
    h.advance(32 * S);
    beats.stop('node-1');
    h.advance(50 * S);
    addPod(h, 'late', 'node-1');
    h.advance(0);
    assert.deepEqual(podConditions(h, 'late'), [
      { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: at(start, 82) },
    ]);
  });

  test('when every node is down (full disruption) nodes get NoSchedule taints only, so nothing is evicted', () => {
    const { h, beats, start } = setup();
    h.advance(32 * S);
    beats.stop('node-1');
    beats.stop('node-2');
    h.advance(50 * S);
    for (const name of ['node-1', 'node-2']) {
      assert.deepEqual(
        node(h, name).spec?.taints,
        [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at(start, 80) }],
        name,
      );
    }
    assert.ok(h.logLines().some((l) => l.includes('Entering master disruption mode')));
    // One node back: the other gets its NoExecute taint.
    beats.resume('node-2');
    postReady(h, 'node-2', 'True');
    h.advance(0);
    assert.deepEqual(node(h, 'node-1').spec?.taints, [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at(start, 80) },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(start, 82) },
    ]);
  });
});
