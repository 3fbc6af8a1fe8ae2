// The end-to-end tests' copy of code-server (VS Code 1.100 served to a browser), kept in
// a cache folder outside the repository because it is ~450 MB with native modules built
// from source (see shared/reference/vscode-host.md, "Recipe").
//
//   node scripts/e2e/cache.mjs        installs it when missing, prints where it is
//
// The folder is ${KUBE_RECONCILE_E2E_CACHE} or ${XDG_CACHE_HOME:-~/.cache}/kube-reconcile-e2e.
// An install that did not finish leaves no marker and is redone from scratch.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** The newest code-server that installs on Node 20 (4.101+ need Node 22). */
export const CODE_SERVER_VERSION = '4.100.3';
/** The @vscode/ripgrep inside code-server 4.100.3, and the ripgrep build it downloads. */
const VSCODE_RIPGREP_VERSION = '1.15.11';
const RIPGREP_RELEASE = 'v13.0.0-10';
const RIPGREP_TARGETS = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' };
const MARKER = '.kube-reconcile-e2e-complete';
const CACHE_PACKAGE = 'kube-reconcile-e2e-cache';

/** Where the cache lives (not created). */
export function cacheDir() {
  if (process.env.KUBE_RECONCILE_E2E_CACHE) return process.env.KUBE_RECONCILE_E2E_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kube-reconcile-e2e');
}

/** The code-server launcher inside the cache. */
export function codeServerBin(dir = cacheDir()) {
  return join(dir, 'node_modules', '.bin', 'code-server');
}

/** Whether a finished install of the pinned version is in `dir`. */
export function isInstalled(dir = cacheDir()) {
  try {
    return readFileSync(join(dir, MARKER), 'utf8').trim() === CODE_SERVER_VERSION && existsSync(codeServerBin(dir));
  } catch {
    return false;
  }
}

function which(command) {
  const r = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * @vscode/ripgrep's postinstall downloads rg from GitHub and has no setting for a local
 * binary, but skips the download when its cache in the temp folder already holds the
 * archive: put Debian's rg there, as a gzipped tar holding just `rg`.
 */
function seedRipgrep() {
  const target = RIPGREP_TARGETS[process.arch];
  if (process.platform !== 'linux' || !target)
    throw new Error(`e2e cache: only Linux x64/arm64 are supported, not ${process.platform} ${process.arch}`);
  const archive = join(
    tmpdir(),
    `vscode-ripgrep-cache-${VSCODE_RIPGREP_VERSION}`,
    `ripgrep-${RIPGREP_RELEASE}-${target}.tar.gz`,
  );
  if (existsSync(archive)) return;
  const rg = which('rg');
  if (!rg) throw new Error('e2e cache: ripgrep is not installed (apt-get install -y --no-install-recommends ripgrep)');
  const staging = mkdtempSync(join(tmpdir(), 'kube-reconcile-rg-'));
  try {
    copyFileSync(rg, join(staging, 'rg'));
    mkdirSync(join(archive, '..'), { recursive: true });
    const r = spawnSync('tar', ['-C', staging, '-czf', archive, 'rg'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('e2e cache: could not pack rg for @vscode/ripgrep');
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** An unfinished install is wiped before trying again: never wipe a folder this script did not make. */
function assertOurs(dir) {
  if (!existsSync(dir) || readdirSync(dir).length === 0) return;
  let name;
  try {
    name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
  } catch {
    name = undefined;
  }
  if (name !== CACHE_PACKAGE)
    throw new Error(
      `e2e cache: ${dir} exists and is not an e2e cache folder; remove it or set KUBE_RECONCILE_E2E_CACHE`,
    );
}

/**
 * Installs code-server into `dir` unless a finished install is there; returns the
 * launcher's path. Prints how long the install took. Throws with the tail of npm's
 * log when the install fails.
 */
export function ensureCodeServer(dir = cacheDir(), log = console.log) {
  if (isInstalled(dir)) return codeServerBin(dir);
  log(
    `e2e cache: installing code-server@${CODE_SERVER_VERSION} into ${dir} (native modules build from source: about 2 minutes)`,
  );
  const started = performance.now();
  seedRipgrep();
  assertOurs(dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: CACHE_PACKAGE, private: true }, null, 2)}\n`);
  const logFile = join(dir, 'install.log');
  const fd = openSync(logFile, 'w');
  // unsafe_perm: code-server's postinstall refuses to run as root without it.
  // yes: node-pty's install runs `npx node-gyp`, which would otherwise stop to ask.
  const env = {
    ...process.env,
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };
  const r = spawnSync('npm', ['install', '--foreground-scripts', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: dir,
    env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  if (r.status !== 0 || !existsSync(codeServerBin(dir))) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(
      `e2e cache: npm install of code-server failed (exit ${r.status ?? r.signal}); the end of ${logFile}:\n${tail}`,
    );
  }
  writeFileSync(join(dir, MARKER), `${CODE_SERVER_VERSION}\n`);
  log(`e2e cache: installed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return codeServerBin(dir);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(ensureCodeServer());
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
