import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1';
import { NodeState } from '../../../sandbox/scheduler/nodeState';
import { newPodInfo } from '../../../sandbox/scheduler/podInfo';
import {
  balancedAllocationScore,
  leastAllocatedScore,
  scoreNodes,
  totalScore,
} from '../../../sandbox/scheduler/scores';
import { selectHost } from '../../../sandbox/scheduler/schedulePod';
import { SeededRandom } from '../../../sandbox/clock/random';
import type { Typed } from '../../../sandbox/api/types';
import { node, pod } from './fixtures';

const GI = 1024 ** 3;

function state(obj: Typed<Node>, used?: { cpu: number; memory: number }): NodeState {
  const s = new NodeState(obj.metadata.name!);
  s.setNode(obj);
  if (used)
    s.addPod(
      {
        cpu: used.cpu,
        memory: used.memory,
        ephemeral: 0,
        nonZeroCpu: used.cpu,
        nonZeroMemory: used.memory,
        hostPorts: [],
      },
      1,
    );
  return s;
}

describe('score plugins against the upstream formulas', () => {
  test('LeastAllocated: mean of (alloc − req) × 100 / alloc over cpu and memory, integer division', () => {
    // cpu (4000 − 2000) × 100 / 4000 = 50; memory (8Gi − 3Gi) × 100 / 8Gi = 62.5 → 62; (50 + 62) / 2 = 56
    const n = state(node('n', { cpu: '4', memory: '8Gi' }), { cpu: 1000, memory: 2 * GI });
    assert.equal(leastAllocatedScore(newPodInfo(pod('p', { cpu: '1', memory: '1Gi' })), n), 56);
  });

  test('LeastAllocated counts missing requests as 100m / 200Mi', () => {
    // cpu (1000 − 100) × 100 / 1000 = 90; memory (1024Mi − 200Mi) × 100 / 1024Mi = 80.47 → 80; (90 + 80) / 2 = 85
    assert.equal(leastAllocatedScore(newPodInfo(pod('p')), state(node('n', { cpu: '1', memory: '1Gi' }))), 85);
  });

  test('BalancedAllocation: (1 − |f_cpu − f_mem| / 2) × 100 on real requests', () => {
    // f_cpu = 2000/4000 = 0.5, f_mem = 3Gi/8Gi = 0.375; std = 0.0625; 93.75 → 93
    const n = state(node('n', { cpu: '4', memory: '8Gi' }), { cpu: 1000, memory: 2 * GI });
    assert.equal(balancedAllocationScore(newPodInfo(pod('p', { cpu: '1', memory: '1Gi' })), n), 93);
    // fractions cap at 1: f_cpu = min(1, 6000/4000) = 1, f_mem = 0.125 → std 0.4375 → 56.25 → 56
    assert.equal(
      balancedAllocationScore(
        newPodInfo(pod('p', { cpu: '5', memory: '1Gi' })),
        state(node('n', { cpu: '4', memory: '8Gi' }), { cpu: 1000, memory: 0 }),
      ),
      56,
    );
  });

  test('BalancedAllocation skips a pod that requests nothing', () => {
    assert.equal(balancedAllocationScore(newPodInfo(pod('p')), state(node('n'))), 0);
  });

  test('TaintToleration and NodeAffinity are normalized across the feasible nodes', () => {
    const preferred = [
      { weight: 30, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } },
      { weight: 40, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
    ];
    const p = newPodInfo(
      pod('p', {
        cpu: '1',
        memory: '2Gi',
        spec: {
          affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: preferred } },
          tolerations: [{ key: 'tolerated', operator: 'Exists' }],
        },
      }),
    );
    const soft = (key: string) => ({ key, effect: 'PreferNoSchedule' });
    const nodes = [
      state(node('a', { taints: [soft('tolerated')] })),
      state(node('b', { labels: { disk: 'ssd' }, taints: [soft('x')] })),
      state(node('c', { labels: { disk: 'ssd', zone: 'a' }, taints: [soft('x'), soft('y')] })),
    ];
    // raw taint counts 0, 1, 2 → reversed 100, 50, 0; raw affinity 0, 30, 70 → 0, 42 (3000/70 = 42.86), 100.
    // LeastAllocated on 4 cpu / 8Gi: cpu 75, memory 75 → 75; Balanced: f = 0.25 both → 100.
    assert.deepEqual([...scoreNodes(p, nodes)], [100, 0, 75, 100, 0, 0, 50, 42, 75, 100, 0, 0, 0, 100, 75, 100, 0, 0]);
    const scores = scoreNodes(p, nodes);
    assert.deepEqual(
      [0, 1, 2].map((i) => totalScore(scores, i)),
      [3 * 100 + 0 + 75 + 100, 3 * 50 + 2 * 42 + 75 + 100, 0 + 2 * 100 + 75 + 100],
    );
  });

  test('all-zero raw scores normalize to 100 (reversed) and 0', () => {
    const p = newPodInfo(pod('p', { cpu: '1', memory: '2Gi' }));
    assert.deepEqual(
      [...scoreNodes(p, [state(node('a')), state(node('b'))])],
      [100, 0, 75, 100, 0, 0, 100, 0, 75, 100, 0, 0],
    );
  });
});

describe('selectHost', () => {
  test('the highest total wins without a draw', () => {
    const scores = Int32Array.from([100, 0, 50, 50, 0, 0, 100, 0, 60, 50, 0, 0]);
    assert.equal(selectHost(scores, 2, new SeededRandom(1)), 1);
  });

  test('ties are broken at random, the same way for the same seed, reaching every tied node', () => {
    const tied = Int32Array.from([100, 0, 50, 50, 0, 0, 100, 0, 50, 50, 0, 0, 100, 0, 50, 50, 0, 0]);
    const pick = (seed: number) => selectHost(tied, 3, new SeededRandom(seed));
    const picks = Array.from({ length: 60 }, (_, s) => pick(s));
    assert.deepEqual(
      picks,
      Array.from({ length: 60 }, (_, s) => pick(s)),
    );
    assert.deepEqual([...new Set(picks)].sort(), [0, 1, 2]);
  });
});
