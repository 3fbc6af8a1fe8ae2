/**
 * The disruption controller's status, as pkg/controller/disruption computes
 * it (`getExpectedPodCount`, `getExpectedScale`, `countHealthyPods`,
 * `buildDisruptedPodMap`, `updatePdbStatus`, `failSafe`). Workloads are
 * stored objects here (no other controller runs): pods point at their
 * controllers through ownerReferences, as the real controllers would make them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DisruptionController, goLabelSelector } from '../../../../sandbox/controllers/disruption/disruptionController';
import type { KubeObject, OwnerReference } from '../../../../sandbox/api/types';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { newHarness } from '../harness';
import type { Harness } from '../harness';

interface PdbStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: { type: string; status: string; reason: string; message: string }[];
}

function setup(): { h: Harness; dc: DisruptionController } {
  const h = newHarness('disruption');
  const dc = new DisruptionController(h.ctx);
  dc.start();
  return { h, dc };
}

function ownerRef(obj: KubeObject): OwnerReference {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name!,
    uid: obj.metadata.uid!,
    controller: true,
  };
}

function workload(h: Harness, apiVersion: string, kind: string, name: string, replicas: number, owner?: KubeObject) {
  const labels = { app: 'web' };
  return h.api.create({
    apiVersion,
    kind,
    metadata: { name, namespace: 'default', ...(owner ? { ownerReferences: [ownerRef(owner)] } : {}) },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    },
  });
}

/** A Deployment and its ReplicaSet; returns the ReplicaSet (the pods' controller). */
function deployment(h: Harness, replicas: number): KubeObject {
  const d = workload(h, 'apps/v1', 'Deployment', 'web', replicas);
  return workload(h, 'apps/v1', 'ReplicaSet', 'web-abc', replicas, d);
}

/** A Running pod labelled app=web, Ready unless told otherwise, controlled by `owner` when given. */
function addPod(h: Harness, name: string, owner: KubeObject | undefined, ready = true): KubeObject {
  const created = h.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'web' },
      ...(owner ? { ownerReferences: [ownerRef(owner)] } : {}),
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
  });
  return h.api.updateStatus({
    ...created,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
}

function addBudget(h: Harness, spec: Record<string, unknown>): void {
  h.api.create({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  });
}

const statusOf = (h: Harness): PdbStatus => h.api.get('poddisruptionbudgets', 'default', 'web').status as PdbStatus;

/** The numbers, as `kubectl get pdb` and `describe` would read them. */
function numbers(h: Harness): [number, number, number, number, string] {
  const s = statusOf(h);
  const c = s.conditions?.find((x) => x.type === 'DisruptionAllowed');
  return [s.expectedPods, s.desiredHealthy, s.currentHealthy, s.disruptionsAllowed, `${c?.status} ${c?.reason}`];
}

function events(h: Harness, kind: string): string[] {
  return (
    h.api.list('events').items as unknown as {
      type: string;
      reason: string;
      message: string;
      involvedObject: { kind: string };
    }[]
  )
    .filter((e) => e.involvedObject.kind === kind)
    .map((e) => `${e.type} ${e.reason}: ${e.message}`);
}

describe('disruption controller', () => {
  test('integer minAvailable: the selected pods are expected, Ready ones healthy, the rest may go', () => {
    const { h } = setup();
    const rs = deployment(h, 3);
    addPod(h, 'a', rs);
    addPod(h, 'b', rs);
    addPod(h, 'c', rs, false);
    addBudget(h, { minAvailable: 1 });
    h.settle();
    // [expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed, condition]
    assert.deepEqual(numbers(h), [3, 1, 2, 1, 'True SufficientPods']);
    assert.equal(statusOf(h).observedGeneration, 1);
    h.api.delete('pods', 'default', 'a');
    h.settle();
    assert.deepEqual(numbers(h), [3, 1, 1, 0, 'False InsufficientPods'], 'a terminating pod is not healthy');
  });

  test("maxUnavailable counts the Deployment's replicas, not the pods that exist", () => {
    const { h } = setup();
    const rs = deployment(h, 4);
    addPod(h, 'a', rs);
    addPod(h, 'b', rs);
    addPod(h, 'c', rs);
    addBudget(h, { maxUnavailable: 1 });
    h.settle();
    assert.deepEqual(numbers(h), [4, 3, 3, 0, 'False InsufficientPods']);
    h.api.patch('deployments', 'default', 'web', 'merge', { spec: { replicas: 3 } });
    addPod(h, 'd', rs, false);
    h.settle();
    assert.deepEqual(numbers(h), [3, 2, 3, 1, 'True SufficientPods']);
  });

  test('percentages scale the controllers and round up: minAvailable 50% of 3 is 2, maxUnavailable 34% of 3 is 2', () => {
    const { h } = setup();
    const rs = deployment(h, 3);
    for (const n of ['a', 'b', 'c']) addPod(h, n, rs);
    addBudget(h, { minAvailable: '50%' });
    h.settle();
    assert.deepEqual(numbers(h), [3, 2, 3, 1, 'True SufficientPods']);
    const pdb = h.api.get('poddisruptionbudgets', 'default', 'web');
    h.api.update({ ...pdb, spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: '34%' } });
    h.settle();
    assert.deepEqual(numbers(h), [3, 1, 3, 2, 'True SufficientPods']);
    assert.equal(statusOf(h).observedGeneration, 2, 'the spec change is observed');
  });

  test('a ReplicaSet of its own and a StatefulSet count with their own replicas, each controller once', () => {
    const { h } = setup();
    const rs = workload(h, 'apps/v1', 'ReplicaSet', 'solo', 2);
    const ss = workload(h, 'apps/v1', 'StatefulSet', 'db', 5);
    addPod(h, 'solo-1', rs);
    addPod(h, 'solo-2', rs);
    addPod(h, 'db-0', ss);
    addBudget(h, { maxUnavailable: '100%' });
    h.settle();
    assert.deepEqual(numbers(h), [7, 0, 3, 3, 'True SufficientPods']);
  });

  test('pods without a controller are left out of a scaled budget, with the UnmanagedPods warning', () => {
    const { h } = setup();
    const rs = deployment(h, 2);
    addPod(h, 'a', rs);
    addPod(h, 'b', rs);
    addPod(h, 'bare', undefined);
    addBudget(h, { maxUnavailable: 1 });
    h.settle();
    assert.deepEqual(numbers(h), [2, 1, 3, 2, 'True SufficientPods']);
    assert.deepEqual(events(h, 'PodDisruptionBudget'), [
      'Warning UnmanagedPods: Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
    ]);
  });

  test('a controller without a scale fails the sync: no disruption allowed, SyncFailed with the reason', () => {
    const { h } = setup();
    const job = h.api.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'batch', namespace: 'default' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox' }] } } },
    });
    addPod(h, 'batch-1', job);
    addBudget(h, { maxUnavailable: '50%' });
    h.settle();
    const s = statusOf(h);
    assert.equal(s.disruptionsAllowed, 0);
    assert.deepEqual(
      s.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      [['DisruptionAllowed', 'False', 'SyncFailed', 'jobs.batch does not implement the scale subresource']],
    );
    assert.equal(s.observedGeneration, undefined, 'a failed sync observes nothing');
    assert.deepEqual(events(h, 'PodDisruptionBudget'), [
      'Warning CalculateExpectedPodCountFailed: Failed to calculate the number of expected pods: jobs.batch does not implement the scale subresource',
    ]);
    // With an integer minAvailable no scale is needed: the same pods sync.
    const pdb = h.api.get('poddisruptionbudgets', 'default', 'web');
    h.api.update({ ...pdb, spec: { selector: { matchLabels: { app: 'web' } }, minAvailable: 0 } });
    h.settle();
    assert.deepEqual(numbers(h), [1, 0, 1, 1, 'True SufficientPods']);
  });

  test('a controller that is gone: "found no controllers for pod"', () => {
    const { h } = setup();
    const rs = deployment(h, 2);
    addPod(h, 'a', rs);
    h.api.delete('replicasets', 'default', 'web-abc');
    addBudget(h, { maxUnavailable: 1 });
    h.settle();
    assert.equal(statusOf(h).conditions?.[0].message, 'found no controllers for pod "a"');
  });

  test('no pods: a NoPods event and no disruption allowed, whatever the numbers say', () => {
    const { h } = setup();
    addBudget(h, { minAvailable: 0 });
    h.settle();
    assert.deepEqual(numbers(h), [0, 0, 0, 0, 'False InsufficientPods']);
    assert.ok(events(h, 'PodDisruptionBudget').includes('Normal NoPods: No matching pods found'));
  });

  test('an approved eviction keeps its pod out of the healthy count until it is deleted, for at most 2 minutes', () => {
    const { h } = setup();
    const rs = deployment(h, 3);
    for (const n of ['a', 'b', 'c']) addPod(h, n, rs);
    addBudget(h, { minAvailable: 2 });
    h.settle();
    assert.deepEqual(numbers(h), [3, 2, 3, 1, 'True SufficientPods']);
    // What the eviction subresource writes when it approves an eviction whose delete has not happened yet.
    const pdb = h.api.get('poddisruptionbudgets', 'default', 'web');
    const approvedAt = formatTimestamp(h.clock.now());
    h.api.updateStatus({
      ...pdb,
      status: { ...(pdb.status as object), disruptionsAllowed: 0, disruptedPods: { a: approvedAt } },
    });
    h.settle(1000);
    assert.deepEqual(numbers(h), [3, 2, 2, 0, 'False InsufficientPods']);
    assert.deepEqual(statusOf(h).disruptedPods, { a: approvedAt });
    // The pod is never deleted: after DeletionTimeout the entry goes, with a NotDeleted warning on the pod.
    h.advance(2 * 60_000 + 1000);
    assert.deepEqual(numbers(h), [3, 2, 3, 1, 'True SufficientPods']);
    assert.equal(statusOf(h).disruptedPods, undefined);
    assert.deepEqual(events(h, 'Pod'), [
      "Warning NotDeleted: Pod was expected by PDB default/default to be deleted but it wasn't",
    ]);
  });

  test('a DisruptionTarget left on a pod that was not deleted is reset to False after 2 minutes', () => {
    const { h } = setup();
    const p = addPod(h, 'a', undefined);
    h.api.updateStatus({
      ...p,
      status: {
        ...(p.status as object),
        conditions: [
          { type: 'Ready', status: 'True' },
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'EvictionByEvictionAPI',
            message: 'Eviction API: evicting',
            lastTransitionTime: formatTimestamp(h.clock.now()),
          },
        ],
      },
    });
    h.advance(119_000);
    const cond = () =>
      (h.api.get('pods', 'default', 'a').status as { conditions: { type: string; status: string }[] }).conditions.find(
        (c) => c.type === 'DisruptionTarget',
      );
    assert.equal(cond()?.status, 'True');
    h.advance(2000);
    assert.deepEqual(cond(), {
      type: 'DisruptionTarget',
      status: 'False',
      lastTransitionTime: formatTimestamp(h.clock.now() - 1000),
    });
  });

  test('a pod under two budgets gets the MultiplePodDisruptionBudgets warning', () => {
    const { h } = setup();
    addBudget(h, { minAvailable: 1 });
    h.api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'all', namespace: 'default' },
      spec: { selector: {}, minAvailable: 1 },
    });
    addPod(h, 'a', undefined);
    h.settle();
    assert.ok(
      events(h, 'Pod').includes(
        'Warning MultiplePodDisruptionBudgets: Pod "default"/"a" matches multiple PodDisruptionBudgets.  Chose "all" arbitrarily.',
      ),
    );
  });

  test('selectors without a single required label (In with two values, Exists) find their pods too', () => {
    const { h } = setup();
    const rs = deployment(h, 3);
    for (const n of ['a', 'b', 'c']) addPod(h, n, rs);
    h.api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        minAvailable: 1,
        selector: {
          matchExpressions: [
            { key: 'app', operator: 'In', values: ['web', 'api'] },
            { key: 'app', operator: 'Exists' },
          ],
        },
      },
    });
    h.settle();
    assert.deepEqual(numbers(h), [3, 1, 3, 2, 'True SufficientPods']);
  });

  test('the selector prints as Go prints a *metav1.LabelSelector', () => {
    assert.equal(
      goLabelSelector({
        matchLabels: { b: '2', a: '1' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }],
      }),
      '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:tier,Operator:In,Values:[x y],},},}',
    );
  });
});
