// What a run in real VS Code needs, shared by the e2e suite and bench/extension.ts:
// Chromium, code-server from the cache folder, and an up-to-date VSIX.
//
//   node scripts/e2e/prepare.mjs --json    prints {"codeServer","vsix"} or {"skip"} as the last line
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer } from './cache.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const APT_PACKAGES = 'build-essential python3 libkrb5-dev ripgrep chromium';
/** What the VSIX is built from: it is packaged again when any of it is newer. */
const SOURCES = [
  'package.json',
  '.vscodeignore',
  'client',
  'server/src',
  'sandbox',
  'syntaxes',
  'media',
  'walkthrough',
  'examples/web.yaml',
  'scripts/build.mjs',
  'scripts/generate-schema.mjs',
  'scripts/package.mjs',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
];

function hasCommand(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Why a real VS Code cannot run on this machine at all, or undefined. Throws when a
 * prerequisite is missing but installable here (apt-get exists): that is a setup error.
 */
export function cannotRun() {
  if (process.platform !== 'linux') return `the code-server setup is Linux-only (this is ${process.platform})`;
  if (existsSync(CHROMIUM)) return undefined;
  if (!hasCommand('apt-get')) return `${CHROMIUM} does not exist and there is no apt-get to install it`;
  throw new Error(
    `${CHROMIUM} is missing: apt-get update && apt-get install -y --no-install-recommends ${APT_PACKAGES}`,
  );
}

/** The VSIX path for package.json's name and version. */
export function vsixPath() {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return join(root, `${name}-${version}.vsix`);
}

function newestMtime(path) {
  const p = join(root, path);
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, child) => Math.max(m, newestMtime(join(path, child))), s.mtimeMs);
}

/** Packages the VSIX unless one newer than every source exists; returns its path. */
export function ensureVsix(log = console.log) {
  const vsix = vsixPath();
  if (existsSync(vsix) && statSync(vsix).mtimeMs >= Math.max(...SOURCES.map(newestMtime))) {
    log(`e2e: using ${vsix}`);
    return vsix;
  }
  log('e2e: packaging the extension');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'package.mjs'), '--quiet'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) throw new Error('packaging failed');
  return vsix;
}

/** `{ skip }` when this machine cannot run it, else `{ codeServer, vsix }` (installing and packaging as needed). */
export function prepare(log = console.log) {
  const skip = cannotRun();
  if (skip) return { skip };
  return { codeServer: ensureCodeServer(undefined, log), vsix: ensureVsix(log) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    // Progress goes to stderr so that the last stdout line is the JSON answer.
    const result = prepare((m) => console.error(m));
    console.log(
      process.argv.includes('--json')
        ? JSON.stringify(result)
        : (result.skip ?? `${result.codeServer}\n${result.vsix}`),
    );
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
