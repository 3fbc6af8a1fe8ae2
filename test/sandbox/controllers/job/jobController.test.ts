import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Job } from 'kubernetes-types/batch/v1';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { JobController } from '../../../../sandbox/controllers/job/jobController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { jobManifest, podNames, podsOf, setPodPhase } from './fixtures';

const T0 = Date.UTC(2026, 0, 1);
const at = (s: number): string => formatTimestamp(T0 + s * 1000);

function start(seed = 1): Harness {
  const h = newHarness(seed);
  new JobController(h.ctx).start();
  return h;
}

function jobStatus(h: Harness, name: string): Job['status'] {
  return h.api.get('jobs', 'default', name).status;
}

/** Pod names from the `Created pod:` events, in creation order. */
function created(h: Harness): string[] {
  return h.logLines().flatMap((l) => /Created pod: (\S+)$/.exec(l)?.[1] ?? []);
}

function cond(type: string, s: number, reason?: string, message?: string, status = 'True'): Record<string, string> {
  return {
    type,
    status,
    lastProbeTime: at(s),
    lastTransitionTime: at(s),
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

describe('Job controller: running pods', () => {
  test('creates min(parallelism, completions) pods from the template, owned and tracked', () => {
    const h = start();
    h.record(['pods', 'jobs']);
    const job = h.api.create(jobManifest('pi', { completions: 5, parallelism: 2 }));
    h.advance(0);
    const names = created(h);
    assert.equal(names.length, 2);
    assert.deepEqual(h.actions(), [
      'ADDED jobs default/pi',
      ...names.map((n) => `ADDED pods default/${n}`),
      'MODIFIED jobs default/pi',
    ]);
    assert.deepEqual(
      h.logLines(),
      names.map((n) => `00:00:00.000 job-controller Normal SuccessfulCreate default/pi: Created pod: ${n}`),
    );
    const pod = podsOf(h.api, 'pi')[0];
    const uid = job.metadata.uid!;
    assert.deepEqual(
      {
        generateName: pod.metadata!.generateName,
        labels: pod.metadata!.labels,
        finalizers: pod.metadata!.finalizers,
        ownerReferences: pod.metadata!.ownerReferences,
      },
      {
        generateName: 'pi-',
        labels: {
          app: 'pi',
          'batch.kubernetes.io/controller-uid': uid,
          'batch.kubernetes.io/job-name': 'pi',
          'controller-uid': uid,
          'job-name': 'pi',
        },
        finalizers: ['batch.kubernetes.io/job-tracking'],
        ownerReferences: [
          { apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid, controller: true, blockOwnerDeletion: true },
        ],
      },
    );
    assert.match(pod.metadata!.name!, /^pi-[a-z0-9]{5}$/);
    assert.deepEqual(jobStatus(h, 'pi'), {
      startTime: at(0),
      active: 2,
      ready: 0,
      terminating: 0,
      uncountedTerminatedPods: {},
    });
  });

  test('counts ready pods and keeps parallelism pods until completions are reached', () => {
    const h = start();
    h.api.create(jobManifest('pi', { completions: 3, parallelism: 2 }));
    h.advance(0);
    const [a, b] = created(h);
    setPodPhase(h.api, a, 'Running', h.clock.now());
    h.advance(1000);
    assert.deepEqual(jobStatus(h, 'pi'), {
      startTime: at(0),
      active: 2,
      ready: 1,
      terminating: 0,
      uncountedTerminatedPods: {},
    });
    setPodPhase(h.api, a, 'Succeeded', h.clock.now());
    h.advance(1000);
    const third = created(h)[2];
    assert.ok(third, 'a third pod replaces the succeeded one');
    assert.deepEqual(podNames(h.api, 'pi'), [a, b, third].sort());
    assert.deepEqual(jobStatus(h, 'pi'), {
      startTime: at(0),
      active: 2,
      ready: 0,
      terminating: 0,
      succeeded: 1,
      uncountedTerminatedPods: {},
    });
    assert.deepEqual(
      podsOf(h.api, 'pi').find((p) => p.metadata!.name === a)!.metadata!.finalizers,
      undefined,
      'counted pods lose the tracking finalizer',
    );
    setPodPhase(h.api, b, 'Succeeded', h.clock.now());
    h.advance(1000);
    assert.equal(created(h).length, 3, 'only one completion is left and one pod runs it');
  });

  test('completes after N successes: SuccessCriteriaMet, then Complete with completionTime and the Completed event', () => {
    const h = start();
    h.api.create(jobManifest('pi', { completions: 2, parallelism: 2 }));
    h.advance(0);
    h.record(['jobs', 'pods']);
    for (const n of created(h)) setPodPhase(h.api, n, 'Succeeded', h.clock.now());
    h.clearActions();
    h.settle();
    const names = created(h);
    assert.deepEqual(h.actions(), [
      'MODIFIED jobs default/pi',
      ...names.map((n) => `MODIFIED pods default/${n}`),
      'MODIFIED jobs default/pi',
    ]);
    const done = cond('SuccessCriteriaMet', 1, 'CompletionsReached', 'Reached expected number of succeeded pods');
    assert.deepEqual(jobStatus(h, 'pi'), {
      startTime: at(0),
      completionTime: at(1),
      active: 0,
      ready: 0,
      terminating: 0,
      succeeded: 2,
      uncountedTerminatedPods: {},
      conditions: [done, { ...done, type: 'Complete' }],
    });
    assert.deepEqual(h.logLines().slice(2), ['00:00:01.000 job-controller Normal Completed default/pi: Job completed']);
  });

  test('a job without completions completes when one pod succeeded and the rest finished', () => {
    const h = start();
    h.api.create(jobManifest('q', { parallelism: 2 }));
    h.advance(0);
    const [a, b] = created(h);
    setPodPhase(h.api, a, 'Succeeded', h.clock.now());
    h.advance(1000);
    assert.equal(created(h).length, 2, 'no replacement once one pod succeeded');
    assert.equal(jobStatus(h, 'q')?.conditions, undefined);
    setPodPhase(h.api, b, 'Failed', h.clock.now());
    h.settle();
    assert.deepEqual(
      jobStatus(h, 'q')?.conditions?.map((c) => c.type),
      ['SuccessCriteriaMet', 'Complete'],
    );
    assert.equal(jobStatus(h, 'q')?.failed, 1);
  });

  test('a succeeded pod deleted before it was counted is still counted (the finalizer holds it)', () => {
    const h = start();
    h.api.create(jobManifest('pi', { completions: 1 }));
    h.advance(0);
    const [a] = created(h);
    setPodPhase(h.api, a, 'Succeeded', h.clock.now());
    h.api.delete('pods', 'default', a);
    assert.ok(h.api.get('pods', 'default', a).metadata.deletionTimestamp, 'the finalizer keeps the pod');
    h.settle();
    assert.equal(h.api.tryGet('pods', 'default', a), undefined, 'gone once counted');
    assert.equal(jobStatus(h, 'pi')?.succeeded, 1);
    assert.deepEqual(
      jobStatus(h, 'pi')?.conditions?.map((c) => c.type),
      ['SuccessCriteriaMet', 'Complete'],
    );
  });
});

describe('Job controller: failures', () => {
  test('replaces failed pods after 10 s, 20 s, 40 s, then fails with BackoffLimitExceeded', () => {
    const h = start();
    h.api.create(jobManifest('flaky', { backoffLimit: 3 }));
    h.advance(0);
    const createdAt: number[] = [h.clock.now() - T0];
    for (let i = 0; i < 4; i++) {
      const pod = created(h)[i];
      h.advance(5000);
      setPodPhase(h.api, pod, 'Failed', h.clock.now());
      const before = created(h).length;
      while (created(h).length === before && h.clock.pendingForegroundTimers > 0)
        h.clock.advanceTo(h.clock.nextForegroundTimerAt()!);
      if (created(h).length > before) createdAt.push(h.clock.now() - T0);
    }
    // Each pod fails 5 s after it starts; the replacement waits 10 s, 20 s, 40 s from that failure.
    assert.deepEqual(createdAt, [0, 15_000, 40_000, 85_000]);
    const failedAt = 85 + 5 + 1;
    const target = cond(
      'FailureTarget',
      failedAt,
      'BackoffLimitExceeded',
      'Job has reached the specified backoff limit',
    );
    assert.deepEqual(jobStatus(h, 'flaky'), {
      startTime: at(0),
      active: 0,
      ready: 0,
      terminating: 0,
      failed: 4,
      uncountedTerminatedPods: {},
      conditions: [target, { ...target, type: 'Failed' }],
    });
    assert.deepEqual(h.logLines().slice(-1), [
      `00:01:${failedAt - 60}.000 job-controller Warning BackoffLimitExceeded default/flaky: Job has reached the specified backoff limit`,
    ]);
  });

  test('reaching the back-off limit deletes the active pods and waits for them before Failed', () => {
    const h = start();
    h.api.create(jobManifest('two', { parallelism: 2, completions: 4, backoffLimit: 0 }));
    h.advance(0);
    const [a, b] = created(h);
    setPodPhase(h.api, b, 'Running', h.clock.now());
    setPodPhase(h.api, a, 'Failed', h.clock.now());
    h.advance(1000);
    const status = jobStatus(h, 'two')!;
    assert.deepEqual(
      status.conditions?.map((c) => c.type),
      ['FailureTarget'],
    );
    assert.ok(
      h.logLines().includes(`00:00:01.000 job-controller Normal SuccessfulDelete default/two: Deleted pod: ${b}`),
    );
    h.settle();
    const final = jobStatus(h, 'two')!;
    assert.deepEqual(
      final.conditions?.map((c) => [c.type, c.reason]),
      [
        ['FailureTarget', 'BackoffLimitExceeded'],
        ['Failed', 'BackoffLimitExceeded'],
      ],
    );
    assert.equal(final.failed, 2, 'the pod deleted because the Job failed counts as failed');
    assert.deepEqual(podNames(h.api, 'two'), [a]);
  });

  test('under restartPolicy OnFailure, container restarts count toward backoffLimit', () => {
    const h = start();
    h.api.create(jobManifest('retry', { backoffLimit: 2 }, 'OnFailure'));
    h.advance(0);
    const [a] = created(h);
    setPodPhase(h.api, a, 'Running', h.clock.now(), { restartCount: 1 });
    h.advance(1000);
    assert.equal(jobStatus(h, 'retry')?.conditions, undefined);
    setPodPhase(h.api, a, 'Running', h.clock.now(), { restartCount: 2 });
    h.settle();
    assert.deepEqual(
      jobStatus(h, 'retry')?.conditions?.map((c) => [c.type, c.reason]),
      [
        ['FailureTarget', 'BackoffLimitExceeded'],
        ['Failed', 'BackoffLimitExceeded'],
      ],
    );
    assert.equal(h.api.tryGet('pods', 'default', a), undefined);
  });

  test('activeDeadlineSeconds fails the Job with DeadlineExceeded at the deadline', () => {
    const h = start();
    h.api.create(jobManifest('slow', { activeDeadlineSeconds: 30 }));
    h.advance(0);
    const [a] = created(h);
    setPodPhase(h.api, a, 'Running', h.clock.now());
    h.advance(29_000);
    assert.equal(jobStatus(h, 'slow')?.conditions, undefined);
    h.advance(1000);
    const target = cond('FailureTarget', 30, 'DeadlineExceeded', 'Job was active longer than specified deadline');
    assert.deepEqual(jobStatus(h, 'slow')?.conditions, [target]);
    h.settle();
    assert.deepEqual(jobStatus(h, 'slow')?.conditions, [
      target,
      { ...target, type: 'Failed', lastProbeTime: at(31), lastTransitionTime: at(31) },
    ]);
    assert.ok(
      h
        .logLines()
        .includes(
          '00:00:31.000 job-controller Warning DeadlineExceeded default/slow: Job was active longer than specified deadline',
        ),
    );
  });
});

describe('Job controller: suspend', () => {
  test('suspend deletes active pods and sets Suspended; resume recreates them and restarts startTime', () => {
    const h = start();
    h.api.create(jobManifest('batch', { completions: 2, parallelism: 2 }));
    h.advance(0);
    const first = created(h);
    const job = h.api.get('jobs', 'default', 'batch');
    h.advance(5000);
    h.api.update({ ...job, spec: { ...(job.spec as object), suspend: true } });
    h.advance(0);
    assert.deepEqual(podNames(h.api, 'batch'), []);
    assert.deepEqual(jobStatus(h, 'batch'), {
      startTime: at(0),
      active: 0,
      ready: 0,
      terminating: 2,
      uncountedTerminatedPods: {},
      conditions: [cond('Suspended', 5, 'JobSuspended', 'Job suspended')],
    });
    const deletes = h
      .logLines()
      .filter((l) => l.includes('SuccessfulDelete'))
      .map((l) => l.slice(l.lastIndexOf(' ') + 1));
    assert.deepEqual(deletes.sort(), [...first].sort());
    assert.ok(h.logLines().includes('00:00:05.000 job-controller Normal Suspended default/batch: Job suspended'));
    h.advance(5000);
    const suspended = h.api.get('jobs', 'default', 'batch');
    h.api.update({ ...suspended, spec: { ...(suspended.spec as object), suspend: false } });
    h.advance(0);
    assert.equal(created(h).length, 4);
    const status = jobStatus(h, 'batch')!;
    assert.equal(status.startTime, at(10));
    assert.deepEqual(status.conditions, [cond('Suspended', 10, 'JobResumed', 'Job resumed', 'False')]);
  });
});

describe('Job controller: Indexed completion mode', () => {
  test('one pod per pending index, named <job>-<index>-<rand>, with the index annotation, label and hostname', () => {
    const h = start();
    h.api.create(jobManifest('ix', { completions: 3, parallelism: 2, completionMode: 'Indexed' }));
    h.advance(0);
    const pods = podsOf(h.api, 'ix').sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
    const view = (p: (typeof pods)[number]) => [
      p.metadata!.generateName,
      p.metadata!.annotations?.['batch.kubernetes.io/job-completion-index'],
      p.metadata!.labels?.['batch.kubernetes.io/job-completion-index'],
      p.spec!.hostname,
      p.spec!.containers[0].env,
    ];
    const env = [
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: {
          fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" },
        },
      },
    ]; // apiVersion: the API server's defaulting
    assert.deepEqual(pods.map(view).sort(), [
      ['ix-0-', '0', '0', 'ix-0', env],
      ['ix-1-', '1', '1', 'ix-1', env],
    ]);
    const one = pods.find((p) => p.metadata!.name!.startsWith('ix-1-'))!;
    setPodPhase(h.api, one.metadata!.name!, 'Succeeded', h.clock.now());
    h.advance(1000);
    assert.deepEqual(jobStatus(h, 'ix')?.completedIndexes, '1');
    assert.match(created(h)[2], /^ix-2-[a-z0-9]{5}$/);
    for (const p of podsOf(h.api, 'ix'))
      if (p.status?.phase !== 'Succeeded') setPodPhase(h.api, p.metadata!.name!, 'Succeeded', h.clock.now());
    h.settle();
    const status = jobStatus(h, 'ix')!;
    assert.deepEqual(
      [status.completedIndexes, status.succeeded, status.conditions?.map((c) => c.type)],
      ['0-2', 3, ['SuccessCriteriaMet', 'Complete']],
    );
  });
});

describe('Job controller: tracking finalizer clean-up', () => {
  test('pods of a deleted Job lose the tracking finalizer, so their own deletion can complete', () => {
    const h = start();
    h.api.create(jobManifest('gone', { parallelism: 2, completions: 2 }));
    h.advance(0);
    const names = created(h);
    assert.deepEqual(
      podsOf(h.api, 'gone').map((p) => p.metadata!.finalizers),
      [['batch.kubernetes.io/job-tracking'], ['batch.kubernetes.io/job-tracking']],
    );
    h.api.delete('jobs', 'default', 'gone', { propagationPolicy: 'Background' });
    h.settle();
    assert.deepEqual(
      podsOf(h.api, 'gone')
        .map((p) => [p.metadata!.name, p.metadata!.finalizers])
        .sort(),
      names.map((n) => [n, undefined]).sort(),
    );
  });
});
