// The end-to-end suite (npm run test:e2e): the packaged extension in a real VS Code
// (code-server 4.100.3), driven through Debian's Chromium by test/e2e/*.test.ts.
//
//   node scripts/e2e/run.mjs
//
// 1. Prerequisites (scripts/e2e/prepare.mjs): /usr/bin/chromium, ripgrep and a C/C++
//    toolchain for code-server's native modules; .ci/run installs them with apt-get.
//    When Chromium is missing and there is no apt-get either, the suite cannot run
//    here and is reported skipped.
// 2. code-server from the cache folder (scripts/e2e/cache.mjs), installed when missing.
// 3. The VSIX (scripts/package.mjs), packaged when missing or older than the sources.
// 4. The tests, with Node's test runner; screenshots and code-server's log go to
//    test-artifacts/e2e/. A closing "N passed, N failed, N skipped" line is printed.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
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

/** Runs the test files with the spec reporter; resolves to the exit code and the pass/fail/skip counts. */
function runTests(env) {
  const files = readdirSync(join(root, 'test', 'e2e'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(root, 'test', 'e2e', f));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let tail = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    tail = (tail + chunk.toString()).slice(-4000);
  });
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
      const counts = { pass: 0, fail: 0, skipped: 0 };
      for (const key of Object.keys(counts)) {
        const m = tail.match(new RegExp(`^\\S*\\s*${key} (\\d+)$`, 'm'));
        if (m) counts[key] = Number(m[1]);
      }
      resolve({ code: code ?? 1, counts });
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
  const { code, counts } = await runTests(env);
  console.log(
    `\ne2e: ${((performance.now() - started) / 1000).toFixed(0)} s; screenshots and code-server.log in ${artifacts}`,
  );
  console.log(`${counts.pass} passed, ${counts.fail} failed, ${counts.skipped} skipped`);
  if (!ready.skip && counts.pass === 0) {
    console.error('e2e: no test passed: refusing to report success');
    process.exit(1);
  }
  process.exit(code);
}

main().catch((e) => {
  console.error(`e2e: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
