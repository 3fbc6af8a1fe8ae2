// Packages the extension into kube-reconcile-<version>.vsix and prints what went in.
//
//   node scripts/package.mjs [--out FILE] [--quiet]
//
// `vsce package` runs the `vscode:prepublish` script first, which is the production
// build (schema generation, then minified bundles). Everything the extension runs is
// bundled by esbuild into dist/, so the VSIX is packed with --no-dependencies: no
// node_modules in it. .vscodeignore lists the files it keeps.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readZipEntries } from './e2e/zip.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The size the VSIX is expected to stay under; going over prints a warning. */
const BUDGET_BYTES = 3 * 1024 * 1024;

const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const outIndex = args.indexOf('--out');
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = outIndex >= 0 ? resolve(args[outIndex + 1]) : join(root, `${name}-${version}.vsix`);

function formatSize(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

function runVsce() {
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], {
    cwd: root,
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    console.error(`package: vsce failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/** One line per top-level folder (files at the root listed by name): count and uncompressed size. */
function summarize(entries) {
  const groups = new Map();
  for (const e of entries) {
    const path = e.name.replace(/^extension\//, '');
    if (!e.name.startsWith('extension/')) continue; // [Content_Types].xml, extension.vsixmanifest
    const slash = path.indexOf('/');
    const key = slash < 0 ? path : `${path.slice(0, slash)}/`;
    const g = groups.get(key) ?? { files: 0, bytes: 0, names: [] };
    g.files += 1;
    g.bytes += e.size;
    g.names.push(path);
    groups.set(key, g);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

runVsce();
const size = statSync(out).size;
const entries = readZipEntries(readFileSync(out));
console.log(`\npackage: ${out}`);
console.log(`  ${formatSize(size)} on disk, ${entries.length} entries`);
for (const [key, g] of summarize(entries)) {
  const detail = key.endsWith('/') ? `${g.files} file${g.files === 1 ? '' : 's'}` : '';
  console.log(`  ${key.padEnd(24)} ${detail.padEnd(9)} ${formatSize(g.bytes).padStart(10)}`);
}
if (size > BUDGET_BYTES) console.warn(`package: warning: the VSIX is over its ${formatSize(BUDGET_BYTES)} budget`);
