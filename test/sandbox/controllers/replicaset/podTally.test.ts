/**
 * The ReplicaSet controller's incremental pod counts (`podCounts: 'incremental'`, the default) against upstream's
 * walk over every pod (`podCounts: 'walk'`): for random sequences of ReplicaSet and pod changes — scaling,
 * minReadySeconds and template label edits, orphans to adopt, label changes that drop a pod out, pods turning Ready,
 * terminal or deleted (with a finalizer holding them, so they keep a deletionTimestamp), time passing — both make
 * the same writes, in the same order, with the same log, and end with the same statuses; `verify` (both at once)
 * never finds them apart.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../sandbox/api/types';
import { ReplicaSetController } from '../../../../sandbox/controllers/replicaset/replicaSetController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { podBody, replicaSet } from './fixtures';

const rsNames = ['a', 'b'];
const RUNS = 80;
const apps = ['a', 'b', 'c'];

type Op =
  | { kind: 'createRs'; name: string; replicas: number; minReady: number; tier: boolean }
  | { kind: 'scale'; name: string; replicas: number }
  | { kind: 'minReady'; name: string; minReady: number }
  | { kind: 'templateTier'; name: string; tier: boolean }
  | { kind: 'deleteRs'; name: string }
  | { kind: 'orphan'; app: string; tier: boolean }
  | { kind: 'status'; pick: number; phase: string; ready: boolean; sinceAgo: number }
  | { kind: 'relabel'; pick: number; app: string; tier: boolean }
  | { kind: 'hold'; pick: number }
  | { kind: 'release'; pick: number }
  | { kind: 'deletePod'; pick: number }
  | { kind: 'deleteOrphans' }
  | { kind: 'advance'; ms: number };

const name = fc.constantFrom(...rsNames);
const pick = fc.nat({ max: 40 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('createRs' as const),
    name,
    replicas: fc.nat({ max: 4 }),
    minReady: fc.constantFrom(0, 0, 5, 10),
    tier: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('scale' as const), name, replicas: fc.nat({ max: 5 }) }),
  fc.record({ kind: fc.constant('minReady' as const), name, minReady: fc.constantFrom(0, 5, 10) }),
  fc.record({ kind: fc.constant('templateTier' as const), name, tier: fc.boolean() }),
  fc.record({ kind: fc.constant('deleteRs' as const), name }),
  fc.record({ kind: fc.constant('orphan' as const), app: fc.constantFrom(...apps), tier: fc.boolean() }),
  fc.record({
    kind: fc.constant('status' as const),
    pick,
    phase: fc.constantFrom('Pending', 'Running', 'Running', 'Running', 'Succeeded', 'Failed'),
    ready: fc.boolean(),
    sinceAgo: fc.constantFrom(0, 0, 1_000, 3_000, 4_500, 9_000, 20_000),
  }),
  fc.record({ kind: fc.constant('relabel' as const), pick, app: fc.constantFrom(...apps), tier: fc.boolean() }),
  fc.record({ kind: fc.constant('hold' as const), pick }),
  fc.record({ kind: fc.constant('release' as const), pick }),
  fc.record({ kind: fc.constant('deletePod' as const), pick }),
  fc.record({ kind: fc.constant('deleteOrphans' as const) }),
  fc.record({ kind: fc.constant('deleteOrphans' as const) }),
  fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.constantFrom(0, 1, 500, 999, 1_000, 2_000, 4_999, 5_000, 7_000, 12_000),
  }),
);

function labelsOf(app: string, tier: boolean): Record<string, string> {
  return tier ? { app, tier: 'front' } : { app };
}

/** Pods by name (the names the API server generates follow its seeded random, the same in every run that agrees). */
function podAt(h: Harness, i: number): KubeObject | undefined {
  const pods = h.api.list('pods', { namespace: 'default' }).items;
  pods.sort((x, y) => x.metadata.name!.localeCompare(y.metadata.name!));
  return pods.length === 0 ? undefined : pods[i % pods.length];
}

function tryWrite(write: () => unknown): void {
  try {
    write();
  } catch {
    // A write the API server refuses (an RS already there or gone) is part of the scenario: the same in every run.
  }
}

function apply(h: Harness, o: Op, orphans: { n: number }): void {
  const rs = (n: string): KubeObject | undefined => {
    try {
      return h.api.get('replicasets', 'default', n);
    } catch {
      return undefined;
    }
  };
  switch (o.kind) {
    case 'createRs': {
      const body = replicaSet(o.name, o.replicas, { minReadySeconds: o.minReady, labels: { app: o.name } });
      const spec = body.spec as { template: { metadata: { labels: Record<string, string> } } };
      spec.template.metadata.labels = labelsOf(o.name, o.tier);
      tryWrite(() => h.api.create(body));
      break;
    }
    case 'scale':
    case 'minReady':
    case 'templateTier': {
      const cur = rs(o.name);
      if (!cur) break;
      const spec = structuredClone(cur.spec) as {
        replicas?: number;
        minReadySeconds?: number;
        template: { metadata: { labels: Record<string, string> } };
      };
      if (o.kind === 'scale') spec.replicas = o.replicas;
      else if (o.kind === 'minReady') spec.minReadySeconds = o.minReady;
      else spec.template.metadata.labels = labelsOf(o.name, o.tier);
      tryWrite(() => h.api.update({ ...cur, spec }));
      break;
    }
    case 'deleteRs':
      tryWrite(() => h.api.delete('replicasets', 'default', o.name));
      break;
    case 'orphan':
      tryWrite(() => h.api.create(podBody(`orphan-${orphans.n++}`, labelsOf(o.app, o.tier))));
      break;
    case 'status': {
      const pod = podAt(h, o.pick);
      if (!pod) break;
      const now = h.clock.now();
      const ready = o.ready && o.phase === 'Running';
      const conditions = [
        ready
          ? { type: 'Ready', status: 'True', lastTransitionTime: new Date(now - o.sinceAgo).toISOString() }
          : { type: 'Ready', status: 'False' },
      ];
      tryWrite(() => h.api.updateStatus({ ...pod, status: { ...(pod.status as object), phase: o.phase, conditions } }));
      break;
    }
    case 'relabel': {
      const pod = podAt(h, o.pick);
      if (pod) tryWrite(() => h.api.update({ ...pod, metadata: { ...pod.metadata, labels: labelsOf(o.app, o.tier) } }));
      break;
    }
    case 'hold':
    case 'release': {
      const pod = podAt(h, o.pick);
      const finalizers = o.kind === 'hold' ? ['example.com/hold'] : [];
      if (pod) tryWrite(() => h.api.update({ ...pod, metadata: { ...pod.metadata, finalizers } }));
      break;
    }
    case 'deletePod': {
      const pod = podAt(h, o.pick);
      if (pod) tryWrite(() => h.api.delete('pods', 'default', pod.metadata.name!));
      break;
    }
    case 'deleteOrphans':
      for (const pod of h.api.list('pods', { namespace: 'default' }).items)
        if (!pod.metadata.ownerReferences) tryWrite(() => h.api.delete('pods', 'default', pod.metadata.name!));
      break;
    case 'advance':
      h.advance(o.ms);
      break;
  }
  h.advance(0);
}

interface Run {
  actions: string[];
  log: string[];
  statuses: unknown[];
  pods: unknown[];
  mismatches: number;
  counted: number;
}

function run(ops: readonly Op[], podCounts: 'incremental' | 'walk' | 'verify'): Run {
  const h = newHarness(7);
  h.record(['pods', 'replicasets']);
  const c = new ReplicaSetController(h.ctx, { podCounts });
  c.start();
  const orphans = { n: 0 };
  // Both ReplicaSets exist from the start (a later `createRs` of the same name is refused unless it was deleted).
  apply(h, { kind: 'createRs', name: 'a', replicas: 3, minReady: 5, tier: false }, orphans);
  apply(h, { kind: 'createRs', name: 'b', replicas: 2, minReady: 0, tier: true }, orphans);
  for (const o of ops) apply(h, o, orphans);
  h.settle(60_000);
  c.stop();
  return {
    actions: h.actions(),
    log: h.logLines(),
    statuses: h.api.list('replicasets', { namespace: 'default' }).items.map((r) => [r.metadata.name, r.status]),
    pods: h.api
      .list('pods', { namespace: 'default' })
      .items.map((p) => [p.metadata.name, p.metadata.ownerReferences?.[0]?.name, p.metadata.deletionTimestamp]),
    mismatches: c.verifyMismatches,
    counted: c.countedSyncs,
  };
}

describe('ReplicaSet controller: incremental pod counts', () => {
  test('make the same writes, log and statuses as the walk over every pod, for random scenarios', () => {
    let countedSyncs = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 10, maxLength: 50, size: 'max' }), (ops) => {
        const walked = run(ops, 'walk');
        const counted = run(ops, 'incremental');
        const verified = run(ops, 'verify');
        assert.equal(verified.mismatches, 0);
        assert.equal(walked.counted, 0);
        countedSyncs += counted.counted;
        assert.deepEqual({ ...counted, counted: 0 }, walked);
        assert.deepEqual({ ...verified, counted: 0 }, walked);
      }),
      { numRuns: RUNS, seed: 16 },
    );
    // The scenarios exercise the counts, not only the walk's fallbacks: several counted syncs per scenario.
    assert.ok(countedSyncs > 5 * RUNS, `${countedSyncs} counted syncs`);
  });

  test('a pod status change re-syncs its ReplicaSet without listing its pods', () => {
    const listings = (podCounts: 'incremental' | 'walk'): number => {
      const h = newHarness(3);
      h.api.create(replicaSet('web', 5));
      const c = new ReplicaSetController(h.ctx, { podCounts });
      c.start();
      h.settle();
      const cache = h.ctx.informers.get('pods').cache;
      const byIndex = cache.byIndex.bind(cache);
      let calls = 0;
      cache.byIndex = (index, value) => {
        calls++;
        return byIndex(index, value);
      };
      const [pod] = h.api.list('pods', { namespace: 'default' }).items;
      const ready = { type: 'Ready', status: 'True', lastTransitionTime: new Date(h.clock.now()).toISOString() };
      h.api.updateStatus({ ...pod, status: { phase: 'Running', conditions: [ready] } });
      h.settle();
      assert.equal((h.api.get('replicasets', 'default', 'web').status as { readyReplicas?: number }).readyReplicas, 1);
      c.stop();
      return calls;
    };
    assert.equal(listings('incremental'), 0);
    assert.ok(listings('walk') > 0);
  });

  test('a deleted ReplicaSet leaves none of its pods counted, though its pods stay (no garbage collector here)', () => {
    const h = newHarness(5);
    h.api.create(replicaSet('web', 3));
    h.api.create(replicaSet('api', 2, { labels: { app: 'api' } }));
    const c = new ReplicaSetController(h.ctx);
    c.start();
    h.settle();
    assert.equal(c.countedPods, 5);
    h.api.delete('replicasets', 'default', 'web');
    h.settle();
    assert.equal(h.api.list('pods', { namespace: 'default' }).items.length, 5);
    assert.equal(c.countedPods, 2);
    c.stop();
  });
});
