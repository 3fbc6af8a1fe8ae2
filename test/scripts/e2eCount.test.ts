/**
 * How an e2e run is counted and closed (scripts/e2e/countReporter.mjs, used by scripts/e2e/run.mjs):
 * Node's test runner runs small test files through the counting reporter, as the e2e runner does,
 * and the totals must be the real ones — a run with failures once closed with "0 passed, 0 failed,
 * 0 skipped" because the totals were read from the end of the spec reporter's text, which a long
 * failure report had pushed away.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize } from '../../scripts/e2e/countReporter.mjs';
import type { Results } from '../../scripts/e2e/countReporter.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const REPORTER = pathToFileURL(join(root, 'scripts', 'e2e', 'countReporter.mjs')).href;

/** Runs `files` (name → source) with Node's test runner and the counting reporter; returns its JSON and exit code. */
function run(files: Record<string, string>): { results: Results; code: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'kube-reconcile-count-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const out = join(dir, 'results.json');
    const r = spawnSync(
      process.execPath,
      [
        '--test',
        '--test-concurrency=1',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${REPORTER}`,
        `--test-reporter-destination=${out}`,
        ...Object.keys(files).map((f) => join(dir, f)),
      ],
      { cwd: dir, encoding: 'utf8', timeout: 60_000, env: outsideTest() },
    );
    return { results: JSON.parse(readFileSync(out, 'utf8')) as Results, code: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** This environment without NODE_TEST_CONTEXT, which makes a runner started inside a test report to its parent. */
function outsideTest(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

const HEADER = "import { after, before, describe, test } from 'node:test';\n";

describe('countReporter', () => {
  test('counts passed, failed and skipped steps, however long the failure reports are', () => {
    const long = 'x'.repeat(5_000);
    const { results, code } = run({
      'steps.test.mjs': `${HEADER}describe('suite', () => {
  test('1', () => {});
  test('2', () => { throw new Error('menu stayed open\\n${long}'); });
  test('3', () => {});
  test('4', () => { throw new Error('${long}'); });
  test('5', { skip: 'kubectl is not on PATH' }, () => {});
  test('6', { todo: true }, () => {});
  test('7', () => { throw new Error('${long}'); });
});`,
    });
    assert.notEqual(code, 0);
    assert.deepEqual(
      { passed: results.passed, failed: results.failed, skipped: results.skipped },
      { passed: 2, failed: 3, skipped: 2 },
    );
    assert.equal(results.failures[0], '2: menu stayed open');
  });

  test('a failing before hook fails every step it cancels, counted once each', () => {
    const { results } = run({
      'hook.test.mjs': `${HEADER}describe('suite', () => {
  before(() => { throw new Error('code-server did not start'); });
  test('1', () => {});
  test('2', () => {});
});`,
    });
    assert.deepEqual([results.passed, results.failed, results.skipped], [0, 2, 0]);
    assert.ok(
      results.failures.some((f) => f.includes('code-server did not start')),
      JSON.stringify(results),
    );
  });

  test('a failing after hook, or a file that crashes, is a failure although no step failed', () => {
    const { results } = run({
      'after.test.mjs': `${HEADER}describe('suite', () => {
  after(() => { throw new Error('could not stop code-server'); });
  test('1', () => {});
});`,
      'crash.test.mjs': `${HEADER}test('2', () => {});\nprocess.exit(3);`,
    });
    assert.equal(results.failed, 2, JSON.stringify(results));
    assert.ok(results.failures.some((f) => f.includes('could not stop code-server')));
  });
});

describe('summarize', () => {
  const results = (passed: number, failed: number, skipped: number): Results => ({
    passed,
    failed,
    skipped,
    failures: [],
  });

  test('closes with the totals; a failure fails the run', () => {
    assert.deepEqual(summarize(1, results(3, 5, 0), false), {
      lines: ['3 passed, 5 failed, 0 skipped'],
      exit: 1,
    });
    assert.deepEqual(summarize(0, results(8, 0, 0), false), { lines: ['8 passed, 0 failed, 0 skipped'], exit: 0 });
  });

  test('a runner that fails with no failed test counts one failure; no results is a failure', () => {
    const crashed = summarize(1, results(3, 0, 0), false);
    assert.equal(crashed.exit, 1);
    assert.equal(crashed.lines.at(-1), '3 passed, 1 failed, 0 skipped');
    const none = summarize(1, undefined, false);
    assert.equal(none.exit, 1);
    assert.equal(none.lines.at(-1), '0 passed, 1 failed, 0 skipped');
  });

  test('nothing passed fails the run, unless the machine cannot run the suite', () => {
    assert.equal(summarize(0, results(0, 0, 8), false).exit, 1);
    assert.deepEqual(summarize(0, results(0, 0, 8), true), { lines: ['0 passed, 0 failed, 8 skipped'], exit: 0 });
  });
});
