/**
 * The Job controller's policies (upstream: pkg/controller/job): `podFailurePolicy` (pod_failure_policy.go,
 * `matchPodFailurePolicy`, `getFailJobMessage`), `successPolicy` (success_policy.go, `matchSuccessPolicy`),
 * `backoffLimitPerIndex` / `maxFailedIndexes` (indexed_job_utils.go, `calculateFailedIndexes`, `isIndexFailed`) and
 * `podReplacementPolicy` (job_controller.go, `onlyReplaceFailedPods`, `isPodFailed`), with upstream's conditions,
 * reasons and messages (job_controller.go `syncJob`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Job, JobCondition } from 'kubernetes-types/batch/v1';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { JobController } from '../../../../sandbox/controllers/job/jobController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { jobManifest, podNames, podsOf, setPodPhase } from './fixtures';

function start(): Harness {
  const h = newHarness(1);
  new JobController(h.ctx).start();
  return h;
}

function job(h: Harness, name: string): Job {
  return h.api.get('jobs', 'default', name);
}

/** [type, status, reason, message] of each condition, in order. */
function conditions(h: Harness, name: string): string[][] {
  return (job(h, name).status?.conditions ?? []).map((c: JobCondition) => [
    c.type,
    c.status,
    c.reason ?? '',
    c.message ?? '',
  ]);
}

function podOfIndex(h: Harness, name: string, index: number): string {
  const pods = podsOf(h.api, name).filter(
    (p) =>
      p.metadata?.annotations?.['batch.kubernetes.io/job-completion-index'] === String(index) &&
      !p.metadata?.deletionTimestamp &&
      p.status?.phase !== 'Failed' &&
      p.status?.phase !== 'Succeeded',
  );
  assert.equal(pods.length, 1, `one active pod of index ${index}`);
  return pods[0].metadata!.name!;
}

/** Marks a Failed pod as disrupted, as the taint manager or an eviction does (DisruptionTarget). */
function addDisruptionTarget(h: Harness, pod: string): void {
  const p = h.api.get('pods', 'default', pod);
  const conditions = [
    ...(p.status?.conditions ?? []),
    {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
      lastTransitionTime: formatTimestamp(h.clock.now()),
    },
  ];
  h.api.updateStatus({ ...p, status: { ...p.status, conditions } });
}

describe('Job podFailurePolicy', () => {
  const failJobOn42 = {
    rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
      { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
    ],
  };

  test('FailJob on an exit code fails the Job at once, naming the container, pod, exit code and rule', () => {
    const h = start();
    h.api.create(jobManifest('fast', { backoffLimit: 6, podFailurePolicy: failJobOn42 }));
    h.advance(0);
    const pod = podNames(h.api, 'fast')[0];
    h.advance(5000);
    setPodPhase(h.api, pod, 'Failed', h.clock.now(), { exitCode: 42 });
    h.advance(1000);
    // The rule at index 1 matched: FailureTarget first (the message kept while finalizers go), then Failed,
    // both within the 1 s status batch after the failure at 5 s — not after six back-offs as BackoffLimitExceeded.
    const message = `Container main for pod default/${pod} failed with exit code 42 matching FailJob rule at index 1`;
    assert.deepEqual(conditions(h, 'fast'), [
      ['FailureTarget', 'True', 'PodFailurePolicy', message],
      ['Failed', 'True', 'PodFailurePolicy', message],
    ]);
    assert.equal(job(h, 'fast').status?.failed, 1);
    assert.ok(h.logLines().includes(`00:00:06.000 job-controller Warning PodFailurePolicy default/fast: ${message}`));
    assert.equal(podNames(h.api, 'fast').length, 1, 'no replacement pod');
  });

  test('an exit code no rule matches counts against backoffLimit as usual', () => {
    const h = start();
    h.api.create(jobManifest('usual', { backoffLimit: 0, podFailurePolicy: failJobOn42 }));
    h.advance(0);
    setPodPhase(h.api, podNames(h.api, 'usual')[0], 'Failed', h.clock.now(), { exitCode: 1 });
    h.advance(1000);
    assert.deepEqual(conditions(h, 'usual').at(-1), [
      'Failed',
      'True',
      'BackoffLimitExceeded',
      'Job has reached the specified backoff limit',
    ]);
  });

  test('Ignore on DisruptionTarget: the failure is not counted and the pod is replaced', () => {
    const h = start();
    h.api.create(jobManifest('evicted', { backoffLimit: 0, podFailurePolicy: failJobOn42 }));
    h.advance(0);
    const first = podNames(h.api, 'evicted')[0];
    addDisruptionTarget(h, first);
    setPodPhase(h.api, first, 'Failed', h.clock.now(), { exitCode: 137 });
    // setPodPhase rewrites the conditions: put DisruptionTarget back, as the kubelet keeps it.
    addDisruptionTarget(h, first);
    h.settle(60_000);
    const names = podNames(h.api, 'evicted');
    assert.equal(names.length, 2, 'a replacement was created');
    const status = job(h, 'evicted').status!;
    assert.equal(status.failed ?? 0, 0, 'the ignored failure is not counted');
    assert.deepEqual(conditions(h, 'evicted'), [], 'backoffLimit 0 was not reached');
  });

  test('a terminating pod is not replaced until it has failed (pod failure policy implies podReplacementPolicy Failed)', () => {
    const h = start();
    h.api.create(jobManifest('term', { podFailurePolicy: failJobOn42 }));
    h.advance(0);
    const pod = podNames(h.api, 'term')[0];
    setPodPhase(h.api, pod, 'Running', h.clock.now());
    // The pod's tracking finalizer keeps it while it terminates.
    h.api.delete('pods', 'default', pod);
    h.advance(2000);
    assert.deepEqual([podNames(h.api, 'term').length, job(h, 'term').status?.terminating], [1, 1]);
    setPodPhase(h.api, pod, 'Failed', h.clock.now(), { exitCode: 143 });
    h.settle(60_000);
    assert.equal(job(h, 'term').status?.failed, 1);
    assert.equal(podNames(h.api, 'term').filter((n) => n !== pod).length, 1, 'replaced once it failed');
  });
});

describe('Job podReplacementPolicy', () => {
  test('TerminatingOrFailed (the default) counts a deleted pod as failed and replaces it after the back-off', () => {
    const h = start();
    h.api.create(jobManifest('default-policy'));
    h.advance(0);
    const pod = podNames(h.api, 'default-policy')[0];
    h.api.delete('pods', 'default', pod);
    h.advance(1000);
    assert.equal(job(h, 'default-policy').status?.failed, 1);
    // The first failure's back-off is 10 s, counted from the deletion at 0 s.
    h.advance(8_999);
    assert.deepEqual(podNames(h.api, 'default-policy'), []);
    h.advance(1);
    assert.equal(podNames(h.api, 'default-policy').length, 1);
  });

  test('Failed waits for the deleted pod to reach the Failed phase', () => {
    const h = start();
    h.api.create(jobManifest('failed-policy', { podReplacementPolicy: 'Failed' }));
    h.advance(0);
    const pod = podNames(h.api, 'failed-policy')[0];
    h.api.delete('pods', 'default', pod);
    h.advance(5000);
    assert.deepEqual(podNames(h.api, 'failed-policy'), [pod]);
    assert.equal(job(h, 'failed-policy').status?.terminating, 1);
  });
});

describe('Job successPolicy', () => {
  test('succeededIndexes met: SuccessCriteriaMet, the other pods are deleted, then Complete by SuccessPolicy', () => {
    const h = start();
    h.api.create(
      jobManifest('leader', {
        completions: 3,
        parallelism: 3,
        completionMode: 'Indexed',
        successPolicy: { rules: [{ succeededIndexes: '0' }] },
      }),
    );
    h.advance(0);
    setPodPhase(h.api, podOfIndex(h, 'leader', 0), 'Succeeded', h.clock.now());
    h.settle(60_000);
    assert.deepEqual(conditions(h, 'leader'), [
      ['SuccessCriteriaMet', 'True', 'SuccessPolicy', 'Matched rules at index 0'],
      ['Complete', 'True', 'SuccessPolicy', 'Matched rules at index 0'],
    ]);
    const status = job(h, 'leader').status!;
    assert.deepEqual([status.succeeded, status.completedIndexes, status.active], [1, '0', 0]);
    // Indexes 1 and 2 were still running: deleted when the criteria were met (their finalizers removed, they are gone).
    assert.deepEqual(
      podsOf(h.api, 'leader').map((p) => p.metadata?.annotations?.['batch.kubernetes.io/job-completion-index']),
      ['0'],
    );
    assert.ok(h.logLines().filter((l) => l.includes('SuccessfulDelete')).length === 2);
  });

  test('succeededCount: the rule holds once that many indexes succeeded', () => {
    const h = start();
    h.api.create(
      jobManifest('some', {
        completions: 4,
        parallelism: 4,
        completionMode: 'Indexed',
        successPolicy: { rules: [{ succeededIndexes: '0-2', succeededCount: 5 }, { succeededCount: 2 }] },
      }),
    );
    h.advance(0);
    setPodPhase(h.api, podOfIndex(h, 'some', 3), 'Succeeded', h.clock.now());
    h.advance(1000);
    assert.deepEqual(conditions(h, 'some'), []);
    setPodPhase(h.api, podOfIndex(h, 'some', 1), 'Succeeded', h.clock.now());
    h.settle(60_000);
    assert.deepEqual(conditions(h, 'some')[0], [
      'SuccessCriteriaMet',
      'True',
      'SuccessPolicy',
      'Matched rules at index 1',
    ]);
  });
});

describe('Job backoffLimitPerIndex', () => {
  test('an index that fails past its limit is recorded in failedIndexes; the Job fails with FailedIndexes', () => {
    const h = start();
    h.api.create(
      jobManifest('per-index', { completions: 2, parallelism: 2, completionMode: 'Indexed', backoffLimitPerIndex: 0 }),
    );
    h.advance(0);
    setPodPhase(h.api, podOfIndex(h, 'per-index', 0), 'Failed', h.clock.now());
    h.advance(1000);
    assert.equal(job(h, 'per-index').status?.failedIndexes, '0');
    assert.deepEqual(conditions(h, 'per-index'), []);
    assert.equal(podsOf(h.api, 'per-index').length, 2, 'index 0 is not retried');
    setPodPhase(h.api, podOfIndex(h, 'per-index', 1), 'Succeeded', h.clock.now());
    h.settle(60_000);
    assert.deepEqual(conditions(h, 'per-index'), [
      ['FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes'],
      ['Failed', 'True', 'FailedIndexes', 'Job has failed indexes'],
    ]);
    assert.deepEqual([job(h, 'per-index').status?.completedIndexes, job(h, 'per-index').status?.failed], ['1', 1]);
  });

  test('a retried index carries its failure count and waits its own back-off (10 s after one failure)', () => {
    const h = start();
    h.api.create(
      jobManifest('retry', { completions: 1, parallelism: 1, completionMode: 'Indexed', backoffLimitPerIndex: 2 }),
    );
    h.advance(0);
    const first = podOfIndex(h, 'retry', 0);
    assert.equal(
      h.api.get('pods', 'default', first).metadata.annotations?.['batch.kubernetes.io/job-index-failure-count'],
      '0',
    );
    setPodPhase(h.api, first, 'Failed', h.clock.now());
    h.advance(9_999);
    assert.equal(podNames(h.api, 'retry').length, 1, 'still backing off');
    h.advance(1);
    const second = podOfIndex(h, 'retry', 0);
    assert.notEqual(second, first);
    assert.equal(
      h.api.get('pods', 'default', second).metadata.annotations?.['batch.kubernetes.io/job-index-failure-count'],
      '1',
    );
    assert.equal(job(h, 'retry').status?.failedIndexes, '');
  });

  test('maxFailedIndexes exceeded fails the Job with MaxFailedIndexesExceeded', () => {
    const h = start();
    h.api.create(
      jobManifest('max', {
        completions: 3,
        parallelism: 3,
        completionMode: 'Indexed',
        backoffLimitPerIndex: 0,
        maxFailedIndexes: 0,
      }),
    );
    h.advance(0);
    setPodPhase(h.api, podOfIndex(h, 'max', 2), 'Failed', h.clock.now());
    h.settle(60_000);
    assert.deepEqual(conditions(h, 'max').at(-1), [
      'Failed',
      'True',
      'MaxFailedIndexesExceeded',
      'Job has exceeded the specified maximal number of failed indexes',
    ]);
    assert.equal(job(h, 'max').status?.failedIndexes, '2');
  });

  test('FailIndex fails the index at once whatever backoffLimitPerIndex', () => {
    const h = start();
    h.api.create(
      jobManifest('failindex', {
        completions: 2,
        parallelism: 2,
        completionMode: 'Indexed',
        backoffLimitPerIndex: 5,
        podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [3] } }] },
      }),
    );
    h.advance(0);
    setPodPhase(h.api, podOfIndex(h, 'failindex', 1), 'Failed', h.clock.now(), { exitCode: 3 });
    h.advance(1000);
    assert.equal(job(h, 'failindex').status?.failedIndexes, '1');
    h.advance(60_000);
    assert.equal(podsOf(h.api, 'failindex').length, 2, 'index 1 is not retried');
  });
});
