import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { compareForDeletion, podDeletionCost, podsToDelete } from '../../../../sandbox/controllers/replicaset/ranking';

const NOW = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;

interface Spec {
  uid?: string;
  node?: string;
  phase?: string;
  readyAgo?: number | 'not-ready';
  cost?: string;
  restarts?: number;
  createdAgo?: number;
}

function pod(name: string, s: Spec): Pod {
  const ready = s.readyAgo === undefined || s.readyAgo === 'not-ready' ? undefined : s.readyAgo;
  return {
    metadata: {
      name,
      uid: s.uid ?? name,
      creationTimestamp: formatTimestamp(NOW - (s.createdAgo ?? 10 * HOUR)),
      ...(s.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': s.cost } } : {}),
    },
    spec: { containers: [{ name: 'app' }], ...(s.node === '' ? {} : { nodeName: s.node ?? 'n1' }) },
    status: {
      phase: s.phase ?? 'Running',
      conditions: [
        ready === undefined
          ? { type: 'Ready', status: 'False' }
          : { type: 'Ready', status: 'True', lastTransitionTime: formatTimestamp(NOW - ready) },
      ],
      containerStatuses: [
        { name: 'app', image: 'x', imageID: '', ready: ready !== undefined, restartCount: s.restarts ?? 0 },
      ],
    },
  };
}

const base: Spec = { readyAgo: HOUR };

// Each row: a pod that must be deleted first, and one that must be kept, told apart by the named rule.
const rows: [rule: string, first: Spec, second: Spec, ranks?: [number, number]][] = [
  ['unassigned before assigned', { ...base, node: '' }, base],
  ['Pending before Unknown', { ...base, phase: 'Pending' }, { ...base, phase: 'Unknown' }],
  ['Unknown before Running', { ...base, phase: 'Unknown' }, base],
  ['not ready before ready', { readyAgo: 'not-ready' }, base],
  ['lower deletion cost first', { ...base, cost: '-5' }, { ...base, cost: '10' }],
  ['higher rank (more related pods on the node) first', base, base, [3, 1]],
  ['ready more recently first (different log2 buckets)', { readyAgo: 60_000 }, { readyAgo: HOUR }],
  [
    'same log2 bucket of ready age: lower uid first',
    { uid: 'a', readyAgo: 40 * 60_000 },
    { uid: 'b', readyAgo: 50 * 60_000 },
  ],
  ['more restarts first', { ...base, restarts: 4 }, { ...base, restarts: 1 }],
  ['newer first', { ...base, createdAgo: 2 * HOUR }, { ...base, createdAgo: 30 * HOUR }],
  [
    'same log2 bucket of age: lower uid first',
    { ...base, uid: 'a', createdAgo: 20 * HOUR },
    { ...base, uid: 'b', createdAgo: 24 * HOUR },
  ],
  ['cost beats rank', { ...base, cost: '1' }, { ...base, cost: '2' }, [1, 5]],
  ['readiness beats cost', { readyAgo: 'not-ready', cost: '100' }, { ...base, cost: '0' }],
];

for (const [rule, first, second, ranks = [0, 0]] of rows) {
  test(`scale-down order: ${rule}`, () => {
    const a = { pod: pod('first', { uid: 'a', ...first }), rank: ranks[0] };
    const b = { pod: pod('second', { uid: 'b', ...second }), rank: ranks[1] };
    assert.ok(compareForDeletion(a, b, NOW) < 0, 'first before second');
    assert.ok(compareForDeletion(b, a, NOW) > 0, 'and not the other way round');
  });
}

test('scale-down order: pods no rule separates compare equal', () => {
  const a = { pod: pod('a', { ...base, uid: 'same' }), rank: 0 };
  const b = { pod: pod('b', { ...base, uid: 'same' }), rank: 0 };
  assert.equal(compareForDeletion(a, b, NOW), 0);
});

test('podDeletionCost: int32 annotation, anything else is 0', () => {
  const withCost = (v: string): Pod => ({
    metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': v } },
  });
  assert.deepEqual(
    ['7', '-3', ' 12 ', 'x', '1.5', '2147483648', ''].map((v) => podDeletionCost(withCost(v))),
    [7, -3, 12, 0, 0, 0, 0],
  );
  assert.equal(podDeletionCost({ metadata: {} }), 0);
});

test('podsToDelete ranks by active related pods on the same node', () => {
  const p1 = pod('p1', { ...base, node: 'crowded' });
  const p2 = pod('p2', { ...base, node: 'quiet' });
  const sibling = pod('s1', { ...base, node: 'crowded' });
  const terminated = { ...pod('s2', { ...base, node: 'quiet' }), status: { phase: 'Succeeded' } };
  assert.deepEqual(
    podsToDelete([p2, p1], [p1, p2, sibling, terminated], 1, NOW).map((p) => p.metadata?.name),
    ['p1'],
  );
  assert.deepEqual(
    podsToDelete([p2, p1], [], 2, NOW).map((p) => p.metadata?.name),
    ['p2', 'p1'],
  );
});
