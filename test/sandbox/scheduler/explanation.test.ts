import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newHarness } from '../controllers/harness';
import { Scheduler } from '../../../sandbox/scheduler/scheduler';
import { ExplanationStore } from '../../../sandbox/scheduler/explanation';
import type { CycleRecord } from '../../../sandbox/scheduler/schedulePod';
import { node, pod } from './fixtures';

const WEIGHTS = {
  TaintToleration: 3,
  NodeAffinity: 2,
  NodeResourcesFit: 1,
  NodeResourcesBalancedAllocation: 1,
  PodTopologySpread: 2,
  InterPodAffinity: 2,
};

describe('explanations', () => {
  test('every node: the rejecting plugin and reasons, or the plugin scores and total; and the choice', () => {
    const h = newHarness();
    h.api.create(node('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }));
    h.api.create(node('w1', { cpu: '2' }));
    h.api.create(node('w2', { cpu: '4' }));
    const s = new Scheduler(h.ctx);
    s.start();
    const created = h.api.create(pod('web', { cpu: '1', memory: '1Gi' }));
    h.settle();
    // w1: LeastAllocated (50 + 87) / 2 = 68, Balanced |0.5 − 0.125| / 2 → 81; w2: (75 + 87) / 2 = 81, |0.25 − 0.125| /
    // 2 → 93.
    assert.deepEqual(s.explain('default', 'web'), {
      pod: 'default/web',
      uid: created.metadata.uid,
      time: '2026-01-01T00:00:00Z',
      attempts: 1,
      outcome: 'Scheduled',
      node: 'w2',
      totalNodes: 3,
      evaluatedNodes: 3,
      feasibleNodes: 2,
      scored: true,
      weights: WEIGHTS,
      nodes: [
        {
          node: 'cp',
          rejectedBy: 'TaintToleration',
          reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
        },
        {
          node: 'w1',
          scores: {
            TaintToleration: 100,
            NodeAffinity: 0,
            NodeResourcesFit: 68,
            NodeResourcesBalancedAllocation: 81,
            PodTopologySpread: 0,
            InterPodAffinity: 0,
          },
          total: 449,
        },
        {
          node: 'w2',
          scores: {
            TaintToleration: 100,
            NodeAffinity: 0,
            NodeResourcesFit: 81,
            NodeResourcesBalancedAllocation: 93,
            PodTopologySpread: 0,
            InterPodAffinity: 0,
          },
          total: 474,
          chosen: true,
        },
      ],
    });
    h.api.delete('pods', 'default', 'web', { gracePeriodSeconds: 0 });
    assert.equal(s.explain('default', 'web'), undefined, 'dropped with the pod');
  });

  test('an unschedulable pod: every node rejected, with the message', () => {
    const h = newHarness();
    h.api.create(node('a', { cpu: '1', unschedulable: true }));
    h.api.create(node('b', { cpu: '1', memory: '1Gi' }));
    const s = new Scheduler(h.ctx);
    s.start();
    h.api.create(pod('big', { cpu: '2', memory: '2Gi' }));
    h.settle();
    const e = s.explain('default', 'big')!;
    assert.deepEqual(
      { outcome: e.outcome, message: e.message, node: e.node, scored: e.scored, nodes: e.nodes },
      {
        outcome: 'Unschedulable',
        message:
          '0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
        node: undefined,
        scored: false,
        nodes: [
          { node: 'a', rejectedBy: 'NodeUnschedulable', reasons: ['node(s) were unschedulable'] },
          { node: 'b', rejectedBy: 'NodeResourcesFit', reasons: ['Insufficient cpu', 'Insufficient memory'] },
        ],
      },
    );
  });

  test('one feasible node is chosen without scoring, as upstream', () => {
    const h = newHarness();
    h.api.create(node('a', { unschedulable: true }));
    h.api.create(node('b'));
    const s = new Scheduler(h.ctx);
    s.start();
    h.api.create(pod('p'));
    h.settle();
    assert.deepEqual(s.explain('default', 'p')?.nodes, [
      { node: 'a', rejectedBy: 'NodeUnschedulable', reasons: ['node(s) were unschedulable'] },
      { node: 'b', chosen: true },
    ]);
  });

  test('memory is bounded: past the budget the oldest keep only their summary', () => {
    const store = new ExplanationStore(5);
    const rec: CycleRecord = {
      totalNodes: 3,
      names: ['a', 'b', 'c'],
      verdicts: Int32Array.from([0, 0, 0]),
      taintReasons: undefined,
      feasible: Int32Array.from([0, 1, 2]),
      scores: undefined,
      chosen: 1,
    };
    for (const k of ['ns/p1', 'ns/p2'])
      store.record(k, { uid: k, time: 't', attempts: 1, outcome: 'Scheduled', record: rec });
    assert.equal(store.explain('ns/p1')?.nodes, undefined);
    assert.equal(store.explain('ns/p1')?.node, 'b');
    assert.equal(store.explain('ns/p2')?.nodes?.length, 3);
    store.delete('ns/p1');
    assert.equal(store.size, 1);
  });
  test('a kept record answers as the cycle did: all feasible (no verdicts kept), some not, a score past a byte', () => {
    const store = new ExplanationStore();
    const scores = Int32Array.from([0, 0, 90, 80, 100, 0, 3, 0, 70, 60, 100, 0]);
    const allFeasible: CycleRecord = {
      totalNodes: 2,
      names: ['a', 'b'],
      verdicts: Int32Array.from([0, 0]),
      taintReasons: undefined,
      feasible: Int32Array.from([0, 1]),
      scores,
      chosen: 0,
    };
    store.record('ns/all', { uid: 'u1', time: 't', attempts: 1, outcome: 'Scheduled', record: allFeasible });
    assert.deepEqual(store.explain('ns/all')?.nodes, [
      {
        node: 'a',
        scores: {
          TaintToleration: 0,
          NodeAffinity: 0,
          NodeResourcesFit: 90,
          NodeResourcesBalancedAllocation: 80,
          PodTopologySpread: 100,
          InterPodAffinity: 0,
        },
        total: 370,
        chosen: true,
      },
      {
        node: 'b',
        scores: {
          TaintToleration: 3,
          NodeAffinity: 0,
          NodeResourcesFit: 70,
          NodeResourcesBalancedAllocation: 60,
          PodTopologySpread: 100,
          InterPodAffinity: 0,
        },
        total: 339,
      },
    ]);
    // Not every evaluated node feasible: the verdicts and indices are kept; a score past 255 stays exact.
    const mixed: CycleRecord = {
      ...allFeasible,
      totalNodes: 3,
      names: ['a', 'x', 'b'],
      verdicts: Int32Array.from([0, 0, 0]),
      feasible: Int32Array.from([0, 2]),
      scores: Int32Array.from([0, 0, 300, 80, 100, 0, 3, 0, 70, 60, 100, 0]),
      chosen: 1,
    };
    store.record('ns/mixed', { uid: 'u2', time: 't', attempts: 1, outcome: 'Scheduled', record: mixed });
    const nodes = store.explain('ns/mixed')!.nodes!;
    assert.deepEqual(
      nodes.map((n) => [n.node, n.scores?.NodeResourcesFit, n.total, n.chosen]),
      [
        ['a', 300, 580, undefined],
        ['x', undefined, undefined, undefined],
        ['b', 70, 339, true],
      ],
    );
  });
  test('cycles over the same nodes in the same order share one list of names; any other order keeps its own', () => {
    const store = new ExplanationStore();
    const cycle = (names: string[], chosen: number): CycleRecord => ({
      totalNodes: names.length,
      names,
      verdicts: new Int32Array(names.length),
      taintReasons: undefined,
      feasible: Int32Array.from(names.map((_, i) => i)),
      scores: undefined,
      chosen,
    });
    const decide = (key: string, names: string[], chosen: number) =>
      store.record(key, { uid: key, time: 't', attempts: 1, outcome: 'Scheduled', record: cycle(names, chosen) });
    decide('ns/p1', ['a', 'b', 'c'], 0);
    decide('ns/p2', ['a', 'b', 'c'], 2);
    decide('ns/p3', ['a', 'c', 'b'], 1);
    decide('ns/p4', ['a', 'b'], 1);
    decide('ns/p5', ['b', 'c', 'a'], 0);
    const order = (key: string) => store.explain(key)!.nodes!.map((n) => (n.chosen ? `${n.node}*` : n.node));
    assert.deepEqual(order('ns/p1'), ['a*', 'b', 'c']);
    assert.deepEqual(order('ns/p2'), ['a', 'b', 'c*']);
    assert.deepEqual(order('ns/p3'), ['a', 'c*', 'b']);
    assert.deepEqual(order('ns/p4'), ['a', 'b*']);
    assert.deepEqual(order('ns/p5'), ['b*', 'c', 'a']);
    // A later cycle in p1's order again: still its own order, and p3's list (same length and first name) unchanged.
    decide('ns/p6', ['a', 'b', 'c'], 1);
    assert.deepEqual(order('ns/p6'), ['a', 'b*', 'c']);
    assert.deepEqual(order('ns/p3'), ['a', 'c*', 'b']);
    assert.equal(store.explain('ns/p6')?.evaluatedNodes, 3);
  });
});
