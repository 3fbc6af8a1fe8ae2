/**
 * `validate --jobs N`: a pool of worker threads checks the files, and the output (problems, their order, the
 * summary, the exit code) is exactly that of `--jobs 1`, which checks in process as `validate` always did.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../cli/main';

const ROOT = join(__dirname, '..', '..');

async function validate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['validate', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: ROOT,
  });
  return { code, stdout, stderr };
}

// The public corpus (errors, warnings, cross-document findings, a ValidatingAdmissionPolicy) and the examples.
const PATHS = ['test/fixtures/public', 'examples'];

describe('validate --jobs', () => {
  test('two workers give the text output, summary and exit code of one thread', async () => {
    const one = await validate('--jobs', '1', ...PATHS);
    const two = await validate('--jobs', '2', ...PATHS);
    assert.equal(one.code, 1);
    assert.match(one.stdout, /error removed-api-version/);
    assert.match(one.stdout, /validating-admission-policy/);
    assert.deepEqual(two, one);
  });

  test('the JSON output is the same too, and a missing file is reported in place', async () => {
    const one = await validate('--format', 'json', '--jobs', '1', 'missing.yaml', ...PATHS);
    const two = await validate('--format', 'json', '-j', '2', 'missing.yaml', ...PATHS);
    assert.equal(one.code, 1);
    const problems = JSON.parse(one.stdout) as { file: string; code: string }[];
    assert.deepEqual(problems[0], {
      file: 'missing.yaml',
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      severity: 'error',
      code: 'file-unreadable',
      message: 'cannot read file: ENOENT: no such file or directory',
    });
    assert.ok(problems.length > 10);
    assert.deepEqual(two, one);
  });

  test('more workers than files: one file per worker, same result', async () => {
    const one = await validate('--jobs', '1', 'examples/web.yaml', 'examples/job.yaml');
    const many = await validate('--jobs', '8', 'examples/web.yaml', 'examples/job.yaml');
    assert.deepEqual(many, one);
  });

  for (const bad of ['0', '-1', '1.5', 'x', '']) {
    test(`--jobs ${JSON.stringify(bad)} is a usage error`, async () => {
      const r = await validate('--jobs', bad, 'examples');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--jobs must be a whole number of at least 1/);
    });
  }
});
