// A node:test reporter that counts results for scripts/e2e/run.mjs's closing line, from the
// test runner's own events rather than from the text the spec reporter prints (whose summary a
// long failure report can push out of reach). Its output, written to --test-reporter-destination,
// is one JSON object:
//
//   {"passed":N,"failed":N,"skipped":N,"failures":["name: why", …]}
//
// A test counts once: passed; skipped (skip or todo); failed (failed, or cancelled because a hook
// or its suite failed). A suite or file that fails for a reason of its own — a hook, a crash —
// while none of its tests failed counts as one more failure, so that a run can never close with
// "0 failed" and a failing exit code.

/** Whether `e` is about a suite (describe) or a test file, not a test. */
function isContainer(data) {
  return data.details?.type === 'suite';
}

function why(data) {
  const error = data.details?.error;
  const cause = error?.cause instanceof Error ? error.cause.message : error?.cause;
  const text = typeof cause === 'string' && cause ? cause : (error?.message ?? 'failed');
  return text.split('\n')[0].slice(0, 300);
}

export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  /** Tests that failed, by file and nesting path, so that their suites' failures are not counted again. */
  const failedUnder = new Set();
  const stack = [];
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:start') {
      stack[data.nesting] = data.name;
      stack.length = data.nesting + 1;
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const path = [data.file ?? '', ...stack.slice(0, data.nesting), data.name].join(' > ');
    if (type === 'test:pass') {
      if (isContainer(data)) continue;
      if (data.skip !== undefined || data.todo !== undefined) counts.skipped += 1;
      else counts.passed += 1;
      continue;
    }
    const failureType = data.details?.error?.failureType;
    if (isContainer(data) || (data.nesting === 0 && data.name === data.file)) {
      // A suite or a whole file: only counted when no test under it has been (its own reason is
      // still listed: a failed `before` hook is why its tests were cancelled).
      if (failureType === 'subtestsFailed') continue;
      if (failedUnder.has(path)) {
        counts.failures.push(`${data.name} (not counted again): ${why(data)}`);
        continue;
      }
    }
    counts.failed += 1;
    counts.failures.push(`${data.name}: ${why(data)}`);
    const parts = path.split(' > ');
    for (let i = 1; i < parts.length; i++) failedUnder.add(parts.slice(0, i).join(' > '));
  }
  yield `${JSON.stringify(counts)}\n`;
}

/**
 * The end of an e2e run: the test runner's exit `code`, the `results` this reporter wrote (undefined
 * when none came back) and whether the machine cannot run the suite (`skipped`). Returns the lines
 * to print (the closing "N passed, N failed, N skipped" last) and the exit code: non-zero when
 * anything failed, when the runner failed without a failed test (counted as one), when no results
 * came back, or when nothing passed on a machine that can run the suite.
 */
export function summarize(code, results, skipped) {
  if (!results)
    return {
      lines: [`e2e: the test runner exited with ${code} and reported no results`, '0 passed, 1 failed, 0 skipped'],
      exit: 1,
    };
  const lines = (results.failures ?? []).map((f) => `  failed: ${f}`);
  let { passed, failed } = results;
  if (code !== 0 && failed === 0) {
    lines.push(`e2e: the test runner exited with ${code} although no test failed`);
    failed = 1;
  }
  let exit = code !== 0 || failed > 0 ? 1 : 0;
  if (!skipped && passed === 0) {
    lines.push('e2e: no test passed: refusing to report success');
    exit = 1;
  }
  lines.push(`${passed} passed, ${failed} failed, ${results.skipped} skipped`);
  return { lines, exit };
}
