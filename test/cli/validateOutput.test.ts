/**
 * `validate` on the examples and the public fixtures answers byte for byte what it answered before the batch path was
 * made faster (issue 16): text on stdout, the summary on stderr, the JSON, the exit code. The expected output in
 * test/fixtures/validate-output/ was written by main's code before those changes; a change that is meant to alter
 * what `validate` says rewrites it with `UPDATE_VALIDATE_OUTPUT=1 npm run test:unit -- validateOutput` (and the diff
 * shows what changed for users).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../cli/main';

const ROOT = join(__dirname, '..', '..');
const EXPECTED = join(ROOT, 'test/fixtures/validate-output');
const UPDATE = process.env.UPDATE_VALIDATE_OUTPUT === '1';

async function validate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['validate', '--jobs', '1', ...args, 'examples', 'test/fixtures/public'], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: ROOT,
  });
  return { code, stdout, stderr };
}

function same(actual: string, file: string): void {
  const path = join(EXPECTED, file);
  if (UPDATE) writeFileSync(path, actual);
  assert.equal(actual, readFileSync(path, 'utf8'), `${file} differs`);
}

describe('validate output on the examples and public fixtures', () => {
  test('text and summary are byte for byte the expected ones, exit 1', async () => {
    const r = await validate();
    assert.equal(r.code, 1);
    same(r.stdout, 'text.txt');
    same(r.stderr, 'stderr.txt');
    assert.match(r.stderr, /90 files, 135 resources: 5 errors, 17 warnings/);
  });

  test('JSON is byte for byte the expected one, exit 1', async () => {
    const r = await validate('--format', 'json');
    assert.equal(r.code, 1);
    same(r.stdout, 'json.txt');
  });
});
