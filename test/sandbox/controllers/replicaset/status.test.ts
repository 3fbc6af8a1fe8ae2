/**
 * The ReplicaSet status shortcuts: `statusUnchanged` answers what building the status and comparing it would
 * (`!statusNeedsUpdate(rs, statusFromCounts(…))`), and `tallySignature`'s cache per frozen spec never answers for a
 * selector that is not the spec's own.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ReplicaSet, ReplicaSetStatus } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { labelSelectorFromObject } from '../../../../sandbox/api/selectors/labelSelector';
import { PodTally, tallySignature } from '../../../../sandbox/controllers/replicaset/podTally';
import {
  REPLICA_FAILURE,
  statusFromCounts,
  statusNeedsUpdate,
  statusUnchanged,
} from '../../../../sandbox/controllers/replicaset/status';
import { deepFreeze } from '../../../../sandbox/util/json';
import { replicaSet } from './fixtures';

const count = fc.nat({ max: 3 });
const maybeCount = fc.option(count, { nil: undefined });

describe('statusUnchanged', () => {
  test('says what statusNeedsUpdate says of the built status', () => {
    fc.assert(
      fc.property(
        fc.record({
          replicas: maybeCount,
          fullyLabeledReplicas: maybeCount,
          readyReplicas: maybeCount,
          availableReplicas: maybeCount,
          observedGeneration: maybeCount,
        }),
        fc.boolean(),
        fc.constantFrom('none', 'failure', 'other', 'both'),
        maybeCount,
        fc.record({ replicas: count, fullyLabeled: count, ready: count, available: count }),
        fc.boolean(),
        (stored, hasStatus, conditions, generation, counts, failed) => {
          const counts0: Record<string, number> = { replicas: 0 };
          for (const [k, v] of Object.entries(stored)) if (v !== undefined) counts0[k] = v;
          const status = counts0 as unknown as ReplicaSetStatus;
          const failure = { type: REPLICA_FAILURE, status: 'True', reason: 'FailedCreate', message: 'quota' };
          const other = { type: 'Other', status: 'True' };
          if (conditions === 'failure') status.conditions = [failure];
          if (conditions === 'other') status.conditions = [other];
          if (conditions === 'both') status.conditions = [other, failure];
          const base = replicaSet('web', 2) as ReplicaSet;
          const rs: ReplicaSet = {
            ...base,
            metadata: { ...base.metadata, ...(generation !== undefined ? { generation } : {}) },
            ...(hasStatus ? { status } : {}),
          };
          const manageError = failed ? new Error('quota exceeded') : undefined;
          const built = statusFromCounts(rs, counts, manageError, 0);
          assert.equal(statusUnchanged(rs, counts, manageError), !statusNeedsUpdate(rs, built));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('statusFromCounts', () => {
  /** The former definition's copy: a rest pattern and three spreads (the counts that are not zero, last). */
  const former = (
    stored: ReplicaSetStatus,
    counts: { replicas: number; fullyLabeled: number; ready: number; available: number },
  ) => {
    const { fullyLabeledReplicas: _f, readyReplicas: _r, availableReplicas: _a, ...rest } = stored;
    return {
      ...rest,
      replicas: counts.replicas,
      ...(counts.fullyLabeled > 0 ? { fullyLabeledReplicas: counts.fullyLabeled } : {}),
      ...(counts.ready > 0 ? { readyReplicas: counts.ready } : {}),
      ...(counts.available > 0 ? { availableReplicas: counts.available } : {}),
    };
  };
  const member = fc.constantFrom(
    'replicas',
    'fullyLabeledReplicas',
    'readyReplicas',
    'availableReplicas',
    'observedGeneration',
    'conditions',
    'extra',
    '__proto__',
  );

  test('gives the members of the former copy, in its order, whatever order the stored status has', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(member, count), { selector: ([k]) => k }),
        fc.record({ replicas: count, fullyLabeled: count, ready: count, available: count }),
        (members, counts) => {
          // As JSON.parse makes it: `__proto__` an own data member, not the prototype.
          const stored = JSON.parse(
            `{${members.map(([k, v]) => `"${k}":${k === 'conditions' ? '[]' : v}`).join(',')}}`,
          ) as ReplicaSetStatus;
          const before = JSON.stringify(stored);
          const rs = { ...(replicaSet('web', 2) as ReplicaSet), status: stored };
          const built = statusFromCounts(rs, counts, undefined, 0);
          const expected = former(stored, counts);
          assert.deepEqual(Object.keys(built), Object.keys(expected));
          assert.equal(JSON.stringify(built), JSON.stringify(expected));
          assert.equal(Object.getPrototypeOf(built), Object.prototype);
          assert.equal(JSON.stringify(stored), before, 'the stored status is not changed');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('tallySignature', () => {
  test('is shared by stored ReplicaSets with the same frozen spec, and follows a spec change', () => {
    const first = deepFreeze(replicaSet('web', 2)) as ReplicaSet;
    const statusWritten = deepFreeze({ ...first, status: { replicas: 2 } }) as ReplicaSet;
    const before = tallySignature(first, first.spec!.selector);
    assert.equal(tallySignature(statusWritten, statusWritten.spec!.selector), before);
    const relabeled = replicaSet('web', 2) as ReplicaSet;
    relabeled.spec!.template!.metadata!.labels = { app: 'web', tier: 'front' };
    deepFreeze(relabeled);
    assert.notEqual(tallySignature(relabeled, relabeled.spec!.selector), before);
  });

  test('a selector other than the spec’s own (a ReplicationController’s map) is not answered from the spec', () => {
    const rs = deepFreeze(replicaSet('web', 2)) as ReplicaSet;
    const own = tallySignature(rs, rs.spec!.selector);
    const other = tallySignature(rs, { matchLabels: { app: 'other' } });
    assert.notEqual(other, own);
    assert.ok(other.includes('"other"'));
    assert.equal(tallySignature(rs, rs.spec!.selector), own);
  });
});

describe('PodTally.put', () => {
  const selector = labelSelectorFromObject({ matchLabels: { app: 'web' } });
  const readyPod = (labels: Record<string, string>, since: string | undefined): Pod => ({
    metadata: { name: 'p', namespace: 'default', labels },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
    status: {
      phase: 'Running',
      conditions: since === undefined ? [] : [{ type: 'Ready', status: 'True', lastTransitionTime: since }],
    },
  });

  test('a pod replaced with the same frozen labels and Ready time counts as before; a Ready change counts', () => {
    const tally = new PodTally('uid', 'sig', selector, { app: 'web' }, 0);
    const labels = Object.freeze({ app: 'web' });
    tally.put('default/p', deepFreeze(readyPod(labels, undefined)));
    tally.advance(0);
    assert.deepEqual(tally.counts(), { replicas: 1, fullyLabeled: 1, ready: 0, available: 0 });
    tally.put('default/p', deepFreeze(readyPod(labels, undefined)));
    assert.deepEqual(tally.counts(), { replicas: 1, fullyLabeled: 1, ready: 0, available: 0 });
    tally.put('default/p', deepFreeze(readyPod(labels, '2024-01-01T00:00:00Z')));
    assert.deepEqual(tally.counts(), { replicas: 1, fullyLabeled: 1, ready: 1, available: 1 });
  });

  test('labels that are not frozen are looked at again, even as the same object', () => {
    const tally = new PodTally('uid', 'sig', selector, { app: 'web' }, 0);
    const labels: Record<string, string> = { app: 'web' };
    tally.put('default/p', readyPod(labels, undefined));
    labels.app = 'other';
    tally.put('default/p', readyPod(labels, undefined));
    assert.equal(tally.claimed, 0);
    assert.equal(tally.unmatched, 1);
  });
});
