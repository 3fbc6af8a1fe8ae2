/**
 * The eviction verb against upstream's EvictionREST.Create
 * (pkg/registry/core/pod/storage/eviction.go), branch by branch. Budgets'
 * statuses are written here as the disruption controller would write them:
 * eviction reads the status, never the pods.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../../sandbox/api/types';
import { newApi, pod, statusOf } from '../fixtures';

type Conditions = { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[];

/** A pod in `phase` (Running, Ready unless `ready` is false) labelled app=db. */
function addPod(api: ApiServer, name: string, phase = 'Running', ready = true): KubeObject {
  const created = api.create(pod(name, { labels: { app: 'db' }, nodeName: 'node-1' }));
  return api.updateStatus({
    ...created,
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
}

interface Budget {
  allowed: number;
  current: number;
  desired: number;
  observed?: number;
  disrupted?: Record<string, string>;
}

/** A budget over app=db whose status says `b` (observedGeneration: its generation unless given). */
function addBudget(api: ApiServer, name: string, b: Budget, spec: Record<string, unknown> = {}): KubeObject {
  const created = api.create({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'db' } }, minAvailable: b.desired, ...spec },
  });
  return api.updateStatus({
    ...created,
    status: {
      observedGeneration: b.observed ?? created.metadata.generation,
      ...(b.disrupted ? { disruptedPods: b.disrupted } : {}),
      disruptionsAllowed: b.allowed,
      currentHealthy: b.current,
      desiredHealthy: b.desired,
      expectedPods: b.current,
    },
  });
}

const evict = (api: ApiServer, name: string, deleteOptions = {}, dryRun = false) =>
  api.evict('default', name, { metadata: { name, namespace: 'default' }, deleteOptions }, { dryRun });

const conditions = (obj: KubeObject): Conditions => (obj.status as { conditions?: Conditions }).conditions ?? [];
const budgetStatus = (api: ApiServer, name = 'db') =>
  api.get('poddisruptionbudgets', 'default', name).status as {
    disruptionsAllowed: number;
    disruptedPods?: Record<string, string>;
    conditions?: Conditions;
  };

describe('eviction (pods/eviction)', () => {
  test('without a budget the pod is deleted gracefully, marked DisruptionTarget by the Eviction API', () => {
    const { api, clock } = newApi();
    addPod(api, 'db-1');
    clock.advance(3000);
    evict(api, 'db-1', { gracePeriodSeconds: 7 });
    const after = api.get('pods', 'default', 'db-1');
    assert.equal(after.metadata.deletionGracePeriodSeconds, 7);
    assert.deepEqual(
      conditions(after).find((c) => c.type === 'DisruptionTarget'),
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
        lastTransitionTime: '2026-01-01T00:00:03Z',
      },
    );
  });

  test('the Eviction must name the pod of the URL and its namespace; a missing pod is 404', () => {
    const { api } = newApi();
    addPod(api, 'db-1');
    assert.deepEqual(
      [
        statusOf(() => api.evict('default', 'db-1', { metadata: { name: 'db-2' } })).message,
        statusOf(() => api.evict('default', 'db-1', { metadata: {} })).code,
        statusOf(() => api.evict('default', 'db-1', { metadata: { name: 'db-1', namespace: 'other' } })).message,
        statusOf(() => evict(api, 'ghost')).message,
      ],
      [
        'name in URL does not match name in Eviction object',
        400,
        'the namespace of the provided object does not match the namespace sent on the request',
        'pods "ghost" not found',
      ],
    );
    assert.equal(api.get('pods', 'default', 'db-1').metadata.deletionTimestamp, undefined);
  });

  test('finished, pending and terminating pods are evicted without asking the budget', () => {
    const { api } = newApi();
    addPod(api, 'done', 'Succeeded', false);
    addPod(api, 'failed', 'Failed', false);
    addPod(api, 'waiting', 'Pending', false);
    addPod(api, 'going');
    api.delete('pods', 'default', 'going');
    addBudget(api, 'db', { allowed: 0, current: 1, desired: 1 });
    for (const name of ['done', 'failed', 'waiting', 'going']) evict(api, name);
    // Finished pods need no grace period: they are gone at once.
    assert.equal(api.tryGet('pods', 'default', 'done'), undefined);
    assert.equal(api.tryGet('pods', 'default', 'failed'), undefined);
    for (const name of ['waiting', 'going'])
      assert.ok(api.get('pods', 'default', name).metadata.deletionTimestamp, name);
    assert.equal(budgetStatus(api).disruptionsAllowed, 0);
  });

  test('a pod under two budgets is refused with 500, in upstream words, and nothing changes', () => {
    const { api } = newApi();
    addPod(api, 'db-1');
    addBudget(api, 'a', { allowed: 1, current: 1, desired: 0 });
    addBudget(api, 'b', { allowed: 1, current: 1, desired: 0 });
    const rv = api.resourceVersion;
    assert.deepEqual(
      statusOf(() => evict(api, 'db-1')),
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
        reason: '',
        code: 500,
      },
    );
    assert.equal(api.resourceVersion, rv);
  });

  test('a budget not yet processed at its generation is 429, "still being processed", retry after 10 s', () => {
    const { api } = newApi();
    addPod(api, 'db-1');
    addBudget(api, 'db', { allowed: 3, current: 3, desired: 0, observed: 0 });
    const s = statusOf(() => evict(api, 'db-1'));
    assert.deepEqual(
      { code: s.code, reason: s.reason, message: s.message, details: s.details },
      {
        code: 429,
        reason: 'TooManyRequests',
        message: "Cannot evict pod as it would violate the pod's disruption budget.",
        details: {
          causes: [
            { reason: 'DisruptionBudget', message: 'The disruption budget db is still being processed by the server.' },
          ],
          retryAfterSeconds: 10,
        },
      },
    );
  });

  test('no disruption allowed: 429 with the DisruptionBudget cause naming the numbers; nothing changes', () => {
    const { api } = newApi();
    addPod(api, 'db-1');
    addBudget(api, 'db', { allowed: 0, current: 2, desired: 2 });
    const rv = api.resourceVersion;
    const s = statusOf(() => evict(api, 'db-1'));
    assert.equal(s.code, 429);
    assert.equal(s.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(s.details, {
      causes: [
        { reason: 'DisruptionBudget', message: 'The disruption budget db needs 2 healthy pods and has 2 currently' },
      ],
    });
    assert.equal(api.resourceVersion, rv);
  });

  test('an allowed eviction takes one disruption, records the pod in disruptedPods, and flips the condition at 0', () => {
    const { api, clock } = newApi();
    addPod(api, 'db-1');
    addBudget(api, 'db', { allowed: 1, current: 3, desired: 2 });
    clock.advance(5000);
    evict(api, 'db-1');
    const status = budgetStatus(api);
    assert.equal(status.disruptionsAllowed, 0);
    assert.deepEqual(status.disruptedPods, { 'db-1': '2026-01-01T00:00:05Z' });
    assert.deepEqual(status.conditions, [
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        message: '',
        observedGeneration: 1,
        lastTransitionTime: '2026-01-01T00:00:05Z',
      },
    ]);
    assert.ok(api.get('pods', 'default', 'db-1').metadata.deletionTimestamp);
  });

  test('a negative allowance or an overfull disruptedPods map is 403', () => {
    const { api } = newApi();
    addPod(api, 'db-1');
    addBudget(api, 'db', { allowed: -1, current: 1, desired: 2 });
    assert.deepEqual(
      [statusOf(() => evict(api, 'db-1')).code, statusOf(() => evict(api, 'db-1')).message],
      [403, 'poddisruptionbudget.policy "db" is forbidden: pdb disruptions allowed is negative'],
    );
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p-${i}`, '2026-01-01T00:00:00Z']));
    addBudget(
      api,
      'other',
      { allowed: 5, current: 5, desired: 0, disrupted: many },
      { selector: { matchLabels: { app: 'x' } } },
    );
    addPod(api, 'x-1');
    api.patch('pods', 'default', 'x-1', 'merge', { metadata: { labels: { app: 'x' } } });
    assert.equal(
      statusOf(() => evict(api, 'x-1')).message,
      'poddisruptionbudget.policy "other" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  });

  test('an unready pod goes without a disruption while the budget is healthy (IfHealthyBudget), else it waits', () => {
    const { api } = newApi();
    addPod(api, 'sick', 'Running', false);
    addBudget(api, 'db', { allowed: 0, current: 2, desired: 2 });
    evict(api, 'sick');
    assert.ok(api.get('pods', 'default', 'sick').metadata.deletionTimestamp);
    assert.equal(budgetStatus(api).disruptedPods, undefined, 'no disruption taken');

    const other = newApi().api;
    addPod(other, 'sick', 'Running', false);
    addBudget(other, 'db', { allowed: 0, current: 1, desired: 2 });
    assert.equal(statusOf(() => evict(other, 'sick')).code, 429);
  });

  test('AlwaysAllow lets an unready pod go even when the budget is not met; a Ready one still waits', () => {
    const { api } = newApi();
    addPod(api, 'sick', 'Running', false);
    addPod(api, 'fine');
    addBudget(api, 'db', { allowed: 0, current: 1, desired: 2 }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    evict(api, 'sick');
    assert.ok(api.get('pods', 'default', 'sick').metadata.deletionTimestamp);
    assert.equal(statusOf(() => evict(api, 'fine')).code, 429);
  });

  test('dry run (the request or the deleteOptions) checks the budget and changes nothing', () => {
    const { api } = newApi();
    addPod(api, 'db-1');
    addPod(api, 'db-2');
    addBudget(api, 'db', { allowed: 1, current: 2, desired: 1 });
    const rv = api.resourceVersion;
    evict(api, 'db-1', {}, true);
    evict(api, 'db-1', { dryRun: true });
    assert.equal(api.resourceVersion, rv);
    addBudget(api, 'none', { allowed: 0, current: 0, desired: 0 }, { selector: { matchLabels: { app: 'z' } } });
    api.patch('pods', 'default', 'db-2', 'merge', { metadata: { labels: { app: 'z' } } });
    assert.equal(statusOf(() => evict(api, 'db-2', {}, true)).code, 429);
  });

  test('preconditions are checked against the pod, in upstream words', () => {
    const { api } = newApi();
    const p = addPod(api, 'db-1');
    assert.equal(
      statusOf(() => evict(api, 'db-1', { preconditions: { uid: 'other' } })).message,
      `Operation cannot be fulfilled on Pod "db-1": the UID in the precondition (other) does not match the UID in record (${p.metadata.uid}). The object might have been deleted and then recreated`,
    );
    assert.equal(
      statusOf(() => evict(api, 'db-1', { preconditions: { resourceVersion: '1' } })).message,
      `Operation cannot be fulfilled on Pod "db-1": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${p.metadata.resourceVersion}). The object might have been modified`,
    );
    // The right version passes: it is carried over the DisruptionTarget write to the delete.
    evict(api, 'db-1', { preconditions: { resourceVersion: p.metadata.resourceVersion, uid: p.metadata.uid } });
    assert.ok(api.get('pods', 'default', 'db-1').metadata.deletionTimestamp);
  });

  test('an empty selector covers every pod of the namespace; a budget without selector covers none', () => {
    const { api } = newApi();
    addPod(api, 'db-1');
    addBudget(api, 'all', { allowed: 0, current: 1, desired: 1 }, { selector: {} });
    assert.equal(statusOf(() => evict(api, 'db-1')).code, 429);
    api.delete('poddisruptionbudgets', 'default', 'all');
    const none = api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'none', namespace: 'default' },
      spec: { minAvailable: 5 },
    });
    assert.equal(none.spec && (none.spec as { selector?: unknown }).selector, undefined);
    evict(api, 'db-1');
    assert.ok(api.get('pods', 'default', 'db-1').metadata.deletionTimestamp);
  });

  test('a new budget reads zeros until the controller has seen it (PodDisruptionBudgetStatus{})', () => {
    const { api } = newApi();
    const created = api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'db' } }, maxUnavailable: 1 },
    });
    assert.deepEqual(created.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });
});
