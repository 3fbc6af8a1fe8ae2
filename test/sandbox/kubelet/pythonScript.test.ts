/** The Python subset the kubelet runs statement by statement: exits that depend on the environment. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runPythonScript } from '../../../sandbox/kubelet/container/pythonScript';

const env = (index: string): ReadonlyMap<string, string> => new Map([['JOB_COMPLETION_INDEX', index]]);

// The scripts of kubernetes/website's controllers/job-backoff-limit-per-index-*.yaml and job-success-policy.yaml.
const EVEN_FAIL = [
  'import os, sys',
  'print("Hello world")',
  'if int(os.environ.get("JOB_COMPLETION_INDEX")) % 2 == 0:',
  '  sys.exit(1)',
].join('\n');
const FAIL_INDEX = [
  'import os, sys',
  'index = int(os.environ.get("JOB_COMPLETION_INDEX"))',
  'if index == 0:',
  '  sys.exit(1)',
  'elif index == 1:',
  '  sys.exit(42)',
  'else:',
  '  sys.exit(0)',
].join('\n');
const ONLY_TWO = [
  'import os, sys',
  'if os.environ.get("JOB_COMPLETION_INDEX") == "2":',
  '  sys.exit(0)',
  'else:',
  '  sys.exit(1)',
].join('\n');

describe('Python scripts run statement by statement', () => {
  test('an exit under an if runs only when its condition holds', () => {
    assert.deepEqual(runPythonScript(EVEN_FAIL, env('4')), { code: 1, sleptSeconds: 0, stdout: 'Hello world\n' });
    assert.deepEqual(runPythonScript(EVEN_FAIL, env('3')), { code: 0, sleptSeconds: 0, stdout: 'Hello world\n' });
  });

  test('if / elif / else take the first true branch', () => {
    assert.deepEqual(
      ['0', '1', '2', '3'].map((i) => runPythonScript(FAIL_INDEX, env(i))?.code),
      [1, 42, 0, 0],
    );
    assert.deepEqual(
      ['0', '1', '2', '3'].map((i) => runPythonScript(ONLY_TWO, env(i))?.code),
      [1, 1, 0, 1],
    );
  });

  test('sleeps and prints count only on the path taken; the exit ends the script', () => {
    const script = [
      'import os, time, sys',
      'n = int(os.getenv("N", "0"))',
      'if n > 1 and not n == 5:',
      '    time.sleep(2)',
      '    print("big", n)',
      'else:',
      '    time.sleep(30)',
      'sys.exit(3 - 1)',
      'print("never")',
    ].join('\n');
    assert.deepEqual(runPythonScript(script, new Map([['N', '4']])), { code: 2, sleptSeconds: 2, stdout: 'big 4\n' });
    assert.deepEqual(runPythonScript(script, new Map()), { code: 2, sleptSeconds: 30, stdout: '' });
  });

  test('Python arithmetic: floor division and modulo follow the divisor’s sign', () => {
    assert.equal(runPythonScript('import sys\nsys.exit(-7 % 3 + (-7 // 2) + 10)', new Map())?.code, 8); // 2 + -4 + 10
  });

  test('anything outside the subset gives up, so the caller falls back', () => {
    assert.equal(runPythonScript('for i in range(3):\n  print(i)', new Map()), undefined);
    assert.equal(runPythonScript('import os\nx = int(os.environ.get("MISSING"))', new Map()), undefined);
    assert.equal(runPythonScript('import os\nprint(os.environ["MISSING"])', new Map()), undefined);
    assert.equal(runPythonScript('print(f"{1}")', new Map()), undefined);
    assert.equal(runPythonScript('import sys\nsys.exit("bad input")', new Map()), undefined);
  });
});
