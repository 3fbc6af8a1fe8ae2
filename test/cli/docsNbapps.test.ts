/**
 * kubernetes/website examples (workloads, services) run through `validate` and `simulate` as a newcomer would,
 * checked against what a Kubernetes 1.32 cluster prints for them. The files are under
 * test/fixtures/docs/nbapps (SOURCE.md there says where each comes from).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from './cliFixture';

const ROOT = join(__dirname, '..', '..');
const DOCS = 'test/fixtures/docs/nbapps';

const cli = (...argv: string[]) => runCli(ROOT, ...argv);

describe('kubernetes/website examples (nbapps)', () => {
  test('a Job without restartPolicy is refused with the defaulted "Always", as the API server says', async () => {
    // controllers/job-success-policy-example.yaml is a fragment: no name, no restartPolicy. A 1.32 API server
    // defaults the template's restartPolicy to Always before validateJobSpec refuses it.
    const r = await cli('validate', `${DOCS}/controllers/job-success-policy-example.yaml`);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /metadata\.name: Required value: name or generateName is required/);
    assert.match(
      r.stdout,
      /spec\.template\.spec\.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"/,
    );
  });

  test('the pod failure policy ConfigIssue example: its image does not exist, so its pods never start', async () => {
    // tasks/job/pod-failure-policy: the pods of job-pod-failure-policy-config-issue stay Pending in
    // ErrImagePull / ImagePullBackOff ("non-existing-repo/non-existing-image:example"), the Job runs on.
    const r = await cli('simulate', '--for', '2m', `${DOCS}/controllers/job-pod-failure-policy-config-issue.yaml`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /job-pod-failure-policy-config-issue-\w{5} +0\/1 +ImagePullBackOff/);
    assert.match(r.stdout, /job\.batch\/job-pod-failure-policy-config-issue +Running +0\/8/);
    assert.match(r.stdout, /Warning +Failed .*Error: ErrImagePull/);
    assert.doesNotMatch(r.stdout, /Completed|Successfully pulled/);
  });

  test('backoffLimitPerIndex examples: each index exits as its script says, and the status is the docs’', async () => {
    // concepts/workloads/controllers/job.md: "Once the job is finished, the Job status looks as follows".
    const status = async (file: string) => {
      const r = await cli('simulate', '-o', 'json', `${DOCS}/controllers/${file}`);
      assert.equal(r.code, 0, r.stderr);
      const list = JSON.parse(r.stdout) as { items: { kind: string; status: Record<string, unknown> }[] };
      const s = list.items.find((o) => o.kind === 'Job')?.status ?? {};
      const conditions = (s.conditions as { type: string; reason: string; message: string }[]).map(
        (c) => `${c.type} ${c.reason}: ${c.message}`,
      );
      return {
        completed: s.completedIndexes,
        failedIndexes: s.failedIndexes,
        succeeded: s.succeeded,
        failed: s.failed,
        conditions,
      };
    };
    const failedIndexes = [
      'FailureTarget FailedIndexes: Job has failed indexes',
      'Failed FailedIndexes: Job has failed indexes',
    ];
    assert.deepEqual(await status('job-backoff-limit-per-index-example.yaml'), {
      completed: '1,3,5,7,9',
      failedIndexes: '0,2,4,6,8',
      succeeded: 5,
      failed: 10,
      conditions: failedIndexes,
    });
    // Index 0 exits 1 (one retry), index 1 exits 42 (FailIndex: no retry), 2 and 3 succeed.
    assert.deepEqual(await status('job-backoff-limit-per-index-failindex.yaml'), {
      completed: '2,3',
      failedIndexes: '0,1',
      succeeded: 2,
      failed: 3,
      conditions: failedIndexes,
    });
  });

  test("the Deployment docs' typo nginx:1.161 stalls the rollout on ImagePullBackOff", async () => {
    // concepts/workloads/controllers/deployment.md, "Rolling Back a Deployment":
    // `kubectl set image … nginx=nginx:1.161`
    // (nginx-deployment-typo.yaml is nginx-deployment.yaml with that image). The new ReplicaSet gets one pod that
    // cannot pull its image; the old one keeps its 3 pods.
    const r = await cli(
      'simulate',
      '--for',
      '2m',
      '--at',
      `30s:apply=${DOCS}/controllers/nginx-deployment-typo.yaml`,
      `${DOCS}/controllers/nginx-deployment.yaml`,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /deployment\.apps\/nginx-deployment +3\/3 +1 +3 /);
    assert.match(r.stdout, /replicaset\.apps\/nginx-deployment-\w+ +1 +1 +0 /);
    assert.match(r.stdout, /pod\/nginx-deployment-\w+-\w{5} +0\/1 +ImagePullBackOff/);
    assert.match(r.stdout, /Failed to pull image "nginx:1\.161"/);
  });
});
