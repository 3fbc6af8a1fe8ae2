// The end-to-end suite (npm run test:e2e): the packaged extension in a real VS Code
// (code-server 4.100.3), driven through Debian's Chromium by test/e2e/*.test.ts.
//
//   node scripts/e2e/run.mjs [--test-name-pattern=PATTERN]
//
// Arguments go to Node's test runner: `npm run test:e2e -- --test-name-pattern="^7\."` runs
// step 7 alone (each step starts from a known state, so any one can run by itself).
//
// 1. Prerequisites (scripts/e2e/prepare.mjs): /usr/bin/chromium, ripgrep and a C/C++
//    toolchain for code-server's native modules; .ci/run installs them with apt-get.
//    When Chromium is missing and there is no apt-get either, the suite cannot run
//    here and is reported skipped.
// 2. code-server from the cache folder (scripts/e2e/cache.mjs), installed when missing.
// 3. The VSIX (scripts/package.mjs), packaged when missing or older than the sources.
// 4. The tests, with Node's test runner; screenshots and code-server's log go to
//    test-artifacts/e2e/. The run closes with "N passed, N failed, N skipped", counted from the
//    test runner's events (scripts/e2e/countReporter.mjs), and exits non-zero when anything
//    failed, when no result came back, or when nothing passed on a machine that can run it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize } from './countReporter.mjs';
import { prepare } from './prepare.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const artifacts = join(root, 'test-artifacts', 'e2e');

/**
 * Stops a code-server the tests left running (they were killed before their `after`
 * hook): test/e2e/harness/session.ts records its process group in the artifacts folder.
 */
function stopLeftoverServer() {
  let pgid;
  try {
    pgid = Number(readFileSync(join(artifacts, 'code-server.pgid'), 'utf8'));
  } catch {
    return;
  }
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  try {
    process.kill(-pgid, 'SIGKILL');
    console.log(`e2e: stopped the code-server process group ${pgid} the tests left running`);
  } catch {
    // Already gone.
  }
  rmSync(join(artifacts, 'code-server.pgid'), { force: true });
}

/** Where countReporter.mjs writes its JSON counts. */
const RESULTS = join(artifacts, 'results.json');

/**
 * The counts countReporter.mjs wrote, or undefined when there are none (the runner crashed
 * before its end).
 */
function readResults() {
  if (!existsSync(RESULTS)) return undefined;
  try {
    const r = JSON.parse(readFileSync(RESULTS, 'utf8'));
    return ['passed', 'failed', 'skipped'].every((k) => Number.isInteger(r[k])) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the test files with the spec reporter on stdout and the counting reporter into RESULTS; resolves to the exit code. */
function runTests(env) {
  const files = readdirSync(join(root, 'test', 'e2e'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(root, 'test', 'e2e', f));
  const counter = pathToFileURL(join(root, 'scripts', 'e2e', 'countReporter.mjs')).href;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${counter}`,
      `--test-reporter-destination=${RESULTS}`,
      ...process.argv.slice(2),
      ...files,
    ],
    { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      child.kill(signal);
      stopLeftoverServer();
      process.exit(1);
    });
  }
  return new Promise((resolve) => {
    child.on('close', (code) => {
      stopLeftoverServer();
      resolve(code ?? 1);
    });
  });
}

async function main() {
  const started = performance.now();
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const env = { ...process.env, E2E_ARTIFACTS: artifacts };
  const ready = prepare();
  if (ready.skip) {
    console.log(`e2e: skipped: ${ready.skip}`);
    env.E2E_SKIP = ready.skip;
  } else {
    env.E2E_CODE_SERVER = ready.codeServer;
    env.E2E_VSIX = ready.vsix;
  }
  const code = await runTests(env);
  const results = readResults();
  console.log(
    `\ne2e: ${((performance.now() - started) / 1000).toFixed(0)} s; screenshots and code-server.log in ${artifacts}`,
  );
  const { lines, exit } = summarize(code, results, Boolean(ready.skip));
  for (const line of lines) console.log(line);
  process.exit(exit);
}

main().catch((e) => {
  console.error(`e2e: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
