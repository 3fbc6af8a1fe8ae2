import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { CronJobController } from '../../../../sandbox/controllers/cronjob/cronJobController';
import type { KubeObject } from '../../../../sandbox/api/types';
import { newHarness } from '../harness';
import type { Harness } from '../harness';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;
const at = (ms: number): string => formatTimestamp(T0 + ms);

function cronJob(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: {
      schedule: '*/5 * * * *',
      ...spec,
      jobTemplate: {
        metadata: { labels: { app: name }, annotations: { team: 'data' } },
        spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox' }] } } },
      },
    },
  };
}

function setup(manifest: KubeObject): Harness & { cj: KubeObject } {
  const h = newHarness(1);
  new CronJobController(h.ctx).start();
  const cj = h.api.create(manifest);
  h.advance(0);
  return { ...h, cj };
}

const cjStatus = (h: Harness, name: string): CronJob['status'] => h.api.get('cronjobs', 'default', name).status;
const jobNames = (h: Harness): string[] =>
  h.api
    .list('jobs')
    .items.map((j) => j.metadata.name!)
    .sort();
const lines = (h: Harness): string[] => h.logLines().filter((l) => !l.includes('SyncError'));

/** Plays the Job controller: marks the Job Complete or Failed at the current time. */
function finish(h: Harness, name: string, type: 'Complete' | 'Failed'): void {
  const job = h.api.get('jobs', 'default', name);
  const now = formatTimestamp(h.clock.now());
  const status: Job['status'] = {
    startTime: job.metadata.creationTimestamp,
    conditions: [{ type, status: 'True', lastProbeTime: now, lastTransitionTime: now }],
  };
  if (type === 'Complete') status.completionTime = now;
  h.api.updateStatus({ ...job, status });
}

describe('CronJob controller', () => {
  test('creates <cronjob>-<unix minutes> at the scheduled time, with the template metadata and owner', () => {
    const h = setup(cronJob('report'));
    assert.deepEqual(jobNames(h), []);
    assert.equal(h.clock.pendingForegroundTimers, 0, 'the next run is a background wake-up');
    h.advance(5 * MIN + 100);
    const name = `report-${T0 / MIN + 5}`;
    assert.deepEqual(jobNames(h), [name]);
    const job = h.api.get('jobs', 'default', name);
    assert.deepEqual(job.metadata.labels, { app: 'report' });
    assert.deepEqual(job.metadata.annotations, {
      team: 'data',
      'batch.kubernetes.io/cronjob-scheduled-timestamp': at(5 * MIN),
    });
    assert.deepEqual(job.metadata.ownerReferences, [
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: 'report',
        uid: h.cj.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(cjStatus(h, 'report'), {
      lastScheduleTime: at(5 * MIN),
      active: [
        {
          kind: 'Job',
          namespace: 'default',
          name,
          uid: job.metadata.uid,
          apiVersion: 'batch/v1',
          resourceVersion: job.metadata.resourceVersion,
        },
      ],
    });
    assert.deepEqual(lines(h), [
      `00:05:00.100 cronjob-controller Normal SuccessfulCreate default/report: Created job ${name}`,
    ]);
  });

  test('a finished Job leaves status.active with SawCompletedJob and sets lastSuccessfulTime', () => {
    const h = setup(cronJob('report'));
    h.advance(5 * MIN + 100);
    const name = jobNames(h)[0];
    h.advance(MIN);
    finish(h, name, 'Complete');
    h.advance(0);
    assert.deepEqual(cjStatus(h, 'report'), { lastScheduleTime: at(5 * MIN), lastSuccessfulTime: at(6 * MIN + 100) });
    assert.equal(
      lines(h)[1],
      `00:06:00.100 cronjob-controller Normal SawCompletedJob default/report: Saw completed job: ${name}, condition: Complete`,
    );
  });

  test('Allow runs overlapping Jobs; Forbid skips a run while one is active', () => {
    const allow = setup(cronJob('a'));
    allow.advance(10 * MIN + 100);
    assert.deepEqual(jobNames(allow), [`a-${T0 / MIN + 10}`, `a-${T0 / MIN + 5}`].sort());
    const forbid = setup(cronJob('f', { concurrencyPolicy: 'Forbid' }));
    forbid.advance(10 * MIN + 100);
    assert.deepEqual(jobNames(forbid), [`f-${T0 / MIN + 5}`]);
    assert.ok(
      lines(forbid).includes(
        '00:10:00.100 cronjob-controller Normal JobAlreadyActive default/f: Not starting job because prior execution is running and concurrency policy is Forbid',
      ),
    );
  });

  test('Replace deletes the active Job (Background) and starts the new one', () => {
    const h = setup(cronJob('r', { concurrencyPolicy: 'Replace' }));
    h.advance(5 * MIN + 100);
    const first = `r-${T0 / MIN + 5}`;
    const second = `r-${T0 / MIN + 10}`;
    h.advance(5 * MIN);
    assert.deepEqual(jobNames(h), [second]);
    assert.deepEqual(lines(h).slice(1), [
      `00:10:00.100 cronjob-controller Normal SuccessfulDelete default/r: Deleted job ${first}`,
      `00:10:00.100 cronjob-controller Normal SuccessfulCreate default/r: Created job ${second}`,
    ]);
    assert.deepEqual(
      cjStatus(h, 'r')?.active?.map((r) => r.name),
      [second],
    );
  });

  test('keeps 3 successful and 1 failed finished Jobs by default, deleting the oldest', () => {
    const h = setup(cronJob('h'));
    const made: string[] = [];
    for (let i = 1; i <= 6; i++) {
      h.advance(5 * MIN);
      if (i === 1) h.advance(100);
      const name = `h-${T0 / MIN + 5 * i}`;
      made.push(name);
      finish(h, name, i % 3 === 0 ? 'Failed' : 'Complete');
      h.advance(0);
    }
    // Complete: 1, 2, 4, 5 → the oldest goes. Failed: 3, 6 → the older goes.
    assert.deepEqual(jobNames(h), [made[1], made[3], made[4], made[5]].sort());
    assert.deepEqual(
      lines(h).filter((l) => l.includes('SuccessfulDelete')),
      [
        `00:25:00.100 cronjob-controller Normal SuccessfulDelete default/h: Deleted job ${made[0]}`,
        `00:30:00.100 cronjob-controller Normal SuccessfulDelete default/h: Deleted job ${made[2]}`,
      ],
    );
  });

  test('suspend stops new runs', () => {
    const h = setup(cronJob('s', { suspend: true }));
    h.advance(30 * MIN);
    assert.deepEqual(jobNames(h), []);
  });

  test('after more than 100 missed runs: TooManyMissedTimes, and only the most recent run starts', () => {
    const h = newHarness(1);
    h.api.create(cronJob('late', { schedule: '* * * * *' }));
    h.advance(150 * MIN + 30_000);
    new CronJobController(h.ctx).start();
    h.advance(0);
    assert.deepEqual(jobNames(h), [`late-${T0 / MIN + 150}`]);
    assert.deepEqual(lines(h), [
      '02:30:30.000 cronjob-controller Warning TooManyMissedTimes default/late: too many missed start times: 150. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
      `02:30:30.000 cronjob-controller Normal SuccessfulCreate default/late: Created job late-${T0 / MIN + 150}`,
    ]);
  });

  test('startingDeadlineSeconds: a run later than the deadline is skipped, one within it starts', () => {
    for (const [deadline, want] of [
      [30, []],
      [120, [`d-${T0 / MIN + 60}`]],
    ] as const) {
      const h = newHarness(1);
      h.api.create(cronJob('d', { schedule: '0 * * * *', startingDeadlineSeconds: deadline }));
      h.advance(61 * MIN);
      new CronJobController(h.ctx).start();
      h.advance(0);
      assert.deepEqual(jobNames(h), want, `deadline ${deadline}s`);
    }
  });
});
