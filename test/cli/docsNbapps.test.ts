/**
 * kubernetes/website examples (workloads, services) run through `validate` and `simulate` as a newcomer would,
 * checked against what a Kubernetes 1.32 cluster prints for them. The files are under
 * test/fixtures/docs/nbapps (SOURCE.md there says where each comes from).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../cli/main';

const ROOT = join(__dirname, '..', '..');
const DOCS = 'test/fixtures/docs/nbapps';

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: ROOT,
  });
  return { code, stdout, stderr };
}

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
});
