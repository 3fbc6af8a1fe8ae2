import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newHarness } from '../controllers/harness';
import type { Harness } from '../controllers/harness';
import { Scheduler } from '../../../sandbox/scheduler/scheduler';
import type { KubeObject } from '../../../sandbox/api/types';
import { node, pod } from './fixtures';

function setup(
  seed: number | string = 1,
  nodes: KubeObject[] = [node('n1'), node('n2'), node('n3')],
): { h: Harness; s: Scheduler } {
  const h = newHarness(seed);
  for (const n of nodes) h.api.create(n);
  const s = new Scheduler(h.ctx);
  s.start();
  return { h, s };
}

const nodeOf = (h: Harness, name: string) => h.api.get('pods', 'default', name).spec?.nodeName;
const conditions = (h: Harness, name: string) => h.api.get('pods', 'default', name).status?.conditions;
const events = (h: Harness) =>
  h.api
    .list('events', { namespace: 'default' })
    .items.map((ev) => `${ev.involvedObject.name} ${ev.type} ${ev.reason} x${ev.count}: ${ev.message}`);

const CPU_FULL =
  '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';

/** A control plane and two workers whose cpu is taken by bound pods. */
function fullCluster(seed = 1): { h: Harness; s: Scheduler } {
  const r = setup(seed, [
    node('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
    node('w1', { cpu: '1' }),
    node('w2', { cpu: '1' }),
  ]);
  r.h.api.create(pod('hog-1', { cpu: '900m', spec: { nodeName: 'w1' } }));
  r.h.api.create(pod('hog-2', { cpu: '900m', spec: { nodeName: 'w2' } }));
  return r;
}

describe('Scheduler', () => {
  test('binds a pending pod in one write (spec.nodeName and PodScheduled=True), then the Scheduled event', () => {
    const { h, s } = setup();
    h.record(['pods', 'events']);
    h.api.create(pod('web', { cpu: '100m' }));
    h.clearActions();
    h.settle();
    const chosen = nodeOf(h, 'web')!;
    assert.ok(['n1', 'n2', 'n3'].includes(chosen));
    assert.deepEqual(
      h.actions().map((a) => a.replace(/web\.[0-9a-f]+$/, 'web.<id>')),
      ['MODIFIED pods default/web', 'ADDED events default/web.<id>'],
    );
    assert.deepEqual(conditions(h, 'web'), [
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' },
    ]);
    assert.deepEqual(events(h), [`web Normal Scheduled x1: Successfully assigned default/web to ${chosen}`]);
    assert.deepEqual(h.logLines(), [
      `00:00:00.000 default-scheduler Normal Scheduled default/web: Successfully assigned default/web to ${chosen}`,
    ]);
    assert.equal(s.explain('default', 'web')?.outcome, 'Scheduled');
  });

  test('ignores pods for other schedulers, bound pods and pods being gated', () => {
    const { h } = setup();
    h.api.create(pod('other', { spec: { schedulerName: 'my-scheduler' } }));
    h.api.create(pod('gated', { spec: { schedulingGates: [{ name: 'wait' }] } }));
    h.settle();
    assert.deepEqual([nodeOf(h, 'other'), nodeOf(h, 'gated')], [undefined, undefined]);
  });

  test('a pod that fits nowhere gets the exact upstream message, once as a condition, as an aggregated event', () => {
    const { h } = fullCluster();
    h.record(['pods', 'events']);
    h.api.create(pod('big', { cpu: '500m' }));
    h.clearActions();
    h.settle();
    assert.deepEqual(conditions(h, 'big'), [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: '2026-01-01T00:00:00Z',
        reason: 'Unschedulable',
        message: CPU_FULL,
      },
    ]);
    assert.deepEqual(events(h), [`big Warning FailedScheduling x1: ${CPU_FULL}`]);
    assert.equal(h.clock.pendingForegroundTimers, 0, 'waiting for a cluster event is not pending work');
    // A label change on a node is an event NodeResourcesFit does not care about: no retry.
    h.clearActions();
    h.api.update({
      ...h.api.get('nodes', undefined, 'w1'),
      metadata: { ...h.api.get('nodes', undefined, 'w1').metadata, labels: { extra: 'x' } },
    });
    h.settle();
    assert.deepEqual(h.actions(), []);
    // A new node that is also too small: retried, a new message, so a new event and a status write.
    h.advance(1000);
    h.api.create(node('w3', { cpu: '100m' }));
    h.clearActions();
    h.settle();
    const again =
      '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.';
    assert.equal(conditions(h, 'big')?.[0].message, again);
    assert.deepEqual(
      h.actions().map((a) => a.split(' ').slice(0, 2).join(' ')),
      ['ADDED events', 'MODIFIED pods'],
    );
    // w3 grows a little (still too small): retried after back-off with the same message: the event's count goes up, the
    // status is not rewritten.
    h.advance(2000);
    const w3 = h.api.get('nodes', undefined, 'w3');
    h.api.updateStatus({
      ...w3,
      status: { capacity: { cpu: '200m', memory: '8Gi' }, allocatable: { cpu: '200m', memory: '8Gi' } },
    });
    h.clearActions();
    h.settle();
    assert.deepEqual(
      h.actions().map((a) => a.split(' ').slice(0, 2).join(' ')),
      ['MODIFIED events'],
    );
    assert.deepEqual(events(h), [
      `big Warning FailedScheduling x1: ${CPU_FULL}`,
      `big Warning FailedScheduling x2: ${again}`,
    ]);
  });

  test('the pending pod is scheduled when a node with room is added (after its 1 s back-off)', () => {
    const { h } = fullCluster();
    h.api.create(pod('big', { cpu: '500m' }));
    h.settle();
    h.advance(200);
    h.api.create(node('w3', { cpu: '2' }));
    h.settle();
    assert.equal(nodeOf(h, 'big'), 'w3');
    assert.equal(h.clock.now() - Date.UTC(2026, 0, 1), 1000, 'retried when the first back-off (1 s) expired');
    assert.equal(conditions(h, 'big')?.[0].status, 'True');
  });

  test('deleting a bound pod frees its node for a waiting pod', () => {
    const { h } = fullCluster();
    h.api.create(pod('big', { cpu: '500m' }));
    h.settle();
    h.advance(5000);
    h.api.delete('pods', 'default', 'hog-2', { gracePeriodSeconds: 0 });
    h.settle();
    assert.equal(nodeOf(h, 'big'), 'w2');
  });

  test('a pod that finished frees its node too', () => {
    const { h } = fullCluster();
    h.api.create(pod('big', { cpu: '500m' }));
    h.settle();
    h.advance(5000);
    const hog = h.api.get('pods', 'default', 'hog-1');
    h.api.updateStatus({ ...hog, status: { ...(hog.status as object), phase: 'Succeeded' } });
    h.settle();
    assert.equal(nodeOf(h, 'big'), 'w1');
  });

  test('an unschedulable pod is retried at least every 5 minutes, on a background timer', () => {
    const { h, s } = fullCluster();
    h.api.create(pod('big', { cpu: '500m' }));
    h.settle();
    assert.equal(s.explain('default', 'big')?.attempts, 1);
    h.advance(5 * 60_000 - 1);
    assert.equal(s.explain('default', 'big')?.attempts, 1);
    h.advance(1);
    h.settle();
    assert.equal(s.explain('default', 'big')?.attempts, 2);
  });

  test('pods are placed in priority order, then in arrival order', () => {
    const { h } = setup(1, [node('only', { cpu: '1' })]);
    h.api.create({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000,
    });
    h.api.create(pod('low', { cpu: '600m' }));
    h.api.create(pod('high', { cpu: '600m', spec: { priorityClassName: 'high' } }));
    h.settle();
    assert.deepEqual([nodeOf(h, 'high'), nodeOf(h, 'low')], ['only', undefined]);
  });

  test('spreads request-less pods by LeastAllocated and is deterministic for a seed', () => {
    const run = (seed: string) => {
      const { h } = setup(seed, [node('a'), node('b'), node('c')]);
      for (let i = 0; i < 9; i++) h.api.create(pod(`p${i}`));
      h.settle();
      return Array.from({ length: 9 }, (_, i) => nodeOf(h, `p${i}`));
    };
    const first = run('seed-a');
    assert.deepEqual(run('seed-a'), first);
    const perNode = ['a', 'b', 'c'].map((n) => first.filter((x) => x === n).length);
    assert.deepEqual(perNode, [3, 3, 3]);
  });

  test('no nodes at all', () => {
    const { h } = setup(1, []);
    h.api.create(pod('p'));
    h.settle();
    assert.equal(conditions(h, 'p')?.[0].message, 'no nodes available to schedule pods');
    h.api.create(node('n'));
    h.advance(1000);
    h.settle();
    assert.equal(nodeOf(h, 'p'), 'n');
  });
});
