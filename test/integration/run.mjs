// The integration suite (npm run test:integration): test/integration/suite.ts inside a
// desktop VS Code started by @vscode/test-electron, with this repository as the
// extension under development.
//
// @vscode/test-electron downloads VS Code from Microsoft's update server. Where that
// server cannot be reached (this project's machines reach only package registries), the
// suite is reported skipped and exits 0: test:e2e runs the same scenarios in code-server.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { runTests } from '@vscode/test-electron';

const root = fileURLToPath(new URL('../..', import.meta.url));
const UPDATE_HOST = 'update.code.visualstudio.com';
/** The oldest VS Code package.json's engines allow. */
const VERSION = '1.100.3';

function skip(reason) {
  console.log(`test:integration: skipped: ${reason}; the same scenarios run in test:e2e`);
  process.exit(0);
}

async function reachable() {
  try {
    await lookup(UPDATE_HOST);
    return true;
  } catch {
    return false;
  }
}

async function main() {
  if (!(await reachable())) skip(`VS Code could not be downloaded (offline: ${UPDATE_HOST} does not resolve)`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const suite = join(root, 'out', 'integration', 'suite.js');
  await esbuild.build({
    entryPoints: [join(root, 'test', 'integration', 'suite.ts')],
    outfile: suite,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const workspace = mkdtempSync(join(tmpdir(), 'kube-reconcile-integration-'));
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'web.yaml'), readFileSync(join(root, 'examples', 'web.yaml')));
  try {
    await runTests({
      version: VERSION,
      extensionDevelopmentPath: root,
      extensionTestsPath: suite,
      launchArgs: [workspace, '--disable-extensions', '--skip-welcome', '--skip-release-notes'],
    });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // A download that fails once the host resolved (a proxy, a firewall) is still "cannot run here".
    if (/download|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|getaddrinfo/i.test(message))
      skip(`VS Code could not be downloaded (${message})`);
    throw e;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`test:integration: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
