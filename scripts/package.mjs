// Packages the extension into kube-reconcile-<version>.vsix and prints what went in.
//
//   node scripts/package.mjs [--out FILE] [--quiet]
//
// `vsce package` runs the `vscode:prepublish` script first, which is the production
// build (schema generation, then minified bundles). Everything the extension runs is
// bundled by esbuild into dist/, so the VSIX is packed with --no-dependencies: no
// node_modules in it. .vscodeignore lists the files it keeps.
//
// After packing, the file list is checked (checkPackageFiles, also run by the unit tests on
// `vsce ls`): everything the extension loads is in, dist/cli.js and sources are not, and no
// bundle inlines the generated JSON it should share. A wrong list fails the packaging.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readZipEntries } from './e2e/zip.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The size the VSIX is expected to stay under; going over prints a warning. */
const BUDGET_BYTES = 3 * 1024 * 1024;

/**
 * Files the extension opens by path at run time, besides package.json's `main` and the files its
 * `contributes` names: the language server (client/src/languageClient.ts), the sandbox worker
 * (client/src/extension.ts), the webview's script, styles and Monaco workers
 * (client/src/webview/panel.ts) and the example Open Example Manifest copies
 * (client/src/commands/walkthroughCommands.ts).
 */
export const RUNTIME_FILES = [
  'dist/server.js',
  'dist/sandboxWorker.js',
  'dist/webview.js',
  'dist/webview.css',
  'dist/editor.worker.js',
  'dist/yaml.worker.js',
  'media/webview/main.css',
  'examples/web.yaml',
];

/** Files the package must not carry, with why. */
const FORBIDDEN = [
  [/^dist\/cli(-full)?\.js$/, 'the CLI, which the extension never loads (npm users get it from the npm package)'],
  [/\.map$/, 'a source map'],
  [/(^|\/)node_modules\//, 'node_modules (every dependency is bundled)'],
  [/\.(ts|mts|cts)$/, 'TypeScript source'],
  [/^(client|server|sandbox|cli|live|test|scripts|bench)\//, 'a source, test or build folder'],
];

/**
 * Text that marks a package the bundles must not carry, with why: scripts/build.mjs replaces it with a stub because
 * it never runs. (A mark of tr46's Unicode table, which only whatwg-url loads.)
 */
const DEAD_PACKAGES = [
  ['disallowed_STD3_valid', "whatwg-url and tr46 (node-fetch takes Node's URL; scripts/stubs/whatwg-url.mjs)"],
];

/** Keys of package.json (anywhere under `contributes`, and at the top) whose value is a file in the package. */
const FILE_KEYS = new Set(['icon', 'path', 'markdown', 'image', 'svg', 'light', 'dark']);

/** The files package.json names: `main`, the icon, and every file path under `contributes`. */
export function manifestFiles(manifest) {
  const found = new Set();
  const add = (value) => {
    if (typeof value !== 'string' || value.startsWith('$(') || !/\.[a-z0-9]+$/i.test(value)) return;
    found.add(posix.normalize(value.replace(/^\.\//, '')));
  };
  const walk = (node) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (FILE_KEYS.has(key)) add(value);
        if (typeof value === 'object') walk(value);
      }
    }
  };
  add(manifest.main);
  add(manifest.icon);
  walk(manifest.contributes ?? {});
  return [...found].sort();
}

/** Relative `require("./…")` targets in a bundle's text (what Node loads next to it at run time). */
export function relativeRequires(text) {
  return [...new Set([...text.matchAll(/\brequire\(\s*(["'])(\.{1,2}\/[^"'\n]+)\1\s*\)/g)].map((m) => m[2]))];
}

/**
 * Long plain strings of a generated JSON file: one of them in a bundle's text means the bundle
 * inlined the file instead of loading the shared copy.
 */
export function fingerprints(jsonText, count = 5) {
  const strings = new Set();
  const walk = (node) => {
    if (typeof node === 'string') {
      if (node.length >= 60 && /^[\w .,;:()/-]+$/.test(node)) strings.add(node);
    } else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(JSON.parse(jsonText));
  return [...strings].sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, count);
}

/**
 * Checks a package's file list (paths relative to the extension's root, as `vsce ls` prints
 * them); `read(path)` gives a listed file's text. Returns the problems, one sentence each: a file
 * the extension loads that is missing, a forbidden file, a bundle's relative require that is not
 * in the package, a bundle that inlines a shipped generated JSON file, a bundle that carries a package it never runs.
 */
export function checkPackageFiles(files, manifest, read) {
  const problems = [];
  const listed = new Set(files);
  for (const file of [...manifestFiles(manifest), ...RUNTIME_FILES]) {
    if (!listed.has(file)) problems.push(`${file} is missing: the extension loads it`);
  }
  for (const file of files) {
    const why = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (why) problems.push(`${file} is shipped: ${why[1]}`);
  }
  const bundles = files.filter((f) => /^dist\/.+\.js$/.test(f) && !FORBIDDEN.some(([p]) => p.test(f)));
  const texts = new Map(bundles.map((f) => [f, read(f)]));
  for (const [bundle, text] of texts) {
    for (const [mark, what] of DEAD_PACKAGES) {
      if (text.includes(mark)) problems.push(`${bundle} bundles ${what}, which never run`);
    }
    for (const target of relativeRequires(text)) {
      const path = posix.join(posix.dirname(bundle), target);
      const candidates = [path, `${path}.js`, `${path}.json`, `${path}/index.js`];
      if (!candidates.some((c) => listed.has(c)))
        problems.push(`${bundle} requires ${target}, which is not in the package`);
    }
  }
  for (const json of files.filter((f) => /^dist\/schemas\/[^/]+\.json$/.test(f))) {
    const marks = fingerprints(read(json));
    for (const [bundle, text] of texts) {
      if (marks.some((m) => text.includes(m))) problems.push(`${bundle} inlines ${json} instead of loading it`);
    }
  }
  return problems;
}

function formatSize(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

function runVsce(out, quiet) {
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

/** The paths of a VSIX's entries relative to the extension's root (vsce puts them under extension/). */
function packagedFiles(entries) {
  return entries.filter((e) => e.name.startsWith('extension/')).map((e) => e.name.slice('extension/'.length));
}

function main() {
  const args = process.argv.slice(2);
  const quiet = args.includes('--quiet');
  const outIndex = args.indexOf('--out');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = outIndex >= 0 ? resolve(args[outIndex + 1]) : join(root, `${manifest.name}-${manifest.version}.vsix`);
  runVsce(out, quiet);
  const size = statSync(out).size;
  const entries = readZipEntries(readFileSync(out));
  console.log(`\npackage: ${out}`);
  console.log(`  ${formatSize(size)} on disk, ${entries.length} entries`);
  for (const [key, g] of summarize(entries)) {
    const detail = key.endsWith('/') ? `${g.files} file${g.files === 1 ? '' : 's'}` : '';
    console.log(`  ${key.padEnd(24)} ${detail.padEnd(9)} ${formatSize(g.bytes).padStart(10)}`);
  }
  if (size > BUDGET_BYTES) console.warn(`package: warning: the VSIX is over its ${formatSize(BUDGET_BYTES)} budget`);
  // vsce packed the files from the working tree, so their text is read from there.
  const problems = checkPackageFiles(packagedFiles(entries), manifest, (file) =>
    readFileSync(join(root, file), 'utf8'),
  );
  if (problems.length > 0) {
    console.error(`package: the VSIX's file list is wrong:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main();
